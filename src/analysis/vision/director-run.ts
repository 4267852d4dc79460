// Director-Task results of a stored run, per subject and arm: with K trials per scene, each
// sub-prompt's outcome per scene is the majority over the trials (ties count as wrong); then
// the counts of a, b, c.Q1, c.Q2 right and of egocentric errors on (b), as the paper's Table 2,
// and the shares, gap and recovery computed from them.

import { DIRECTOR_RECORDS, readScoreDetail, type DirectorScoreDetail } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { DirectorModel } from './vision-profiles.js';

export function directorRunResults(store: Store, runId: string): Array<{ subject: string; arm: string } & DirectorModel> {
  type Outcome = Pick<DirectorScoreDetail, 'a' | 'b' | 'cQ1' | 'cQ2' | 'egocentric'>;
  const cells = new Map<string, { subject: string; arm: string; trials: Outcome[] }>();
  for (const r of store.responses(runId, DIRECTOR_RECORDS.scorer)) {
    const t = store.transcript({ runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate });
    const d = t ? readScoreDetail(DIRECTOR_RECORDS.score, t.score.detail) : undefined;
    if (!d) continue;
    const arm = String(r.meta.arm ?? d.arm);
    const key = `${r.spec}\u0000${arm}\u0000${r.itemId}`;
    const cell = cells.get(key) ?? { subject: r.spec, arm, trials: [] };
    cell.trials.push(d);
    cells.set(key, cell);
  }
  const groups = new Map<string, { subject: string; arm: string; scenes: Outcome[] }>();
  for (const { subject, arm, trials } of cells.values()) {
    const majority = (f: keyof Outcome) => trials.filter((x) => x[f]).length * 2 > trials.length;
    const g = `${subject}\u0000${arm}`;
    const group = groups.get(g) ?? { subject, arm, scenes: [] };
    group.scenes.push({
      a: majority('a'),
      b: majority('b'),
      cQ1: majority('cQ1'),
      cQ2: majority('cQ2'),
      egocentric: majority('egocentric'),
    });
    groups.set(g, group);
  }
  return [...groups.values()].map(({ subject, arm, scenes }) => {
    const share = (f: keyof Outcome) => scenes.filter((x) => x[f]).length / scenes.length;
    return {
      subject,
      arm,
      model: subject,
      scenes: scenes.length,
      a: share('a'),
      b: share('b'),
      cQ1: share('cQ1'),
      cQ2: share('cQ2'),
      egocentric: share('egocentric'),
      gap: share('a') - share('b'),
      recovery: share('cQ2') - share('b'),
    };
  });
}

type DirectorShares = Pick<DirectorModel, 'a' | 'b' | 'cQ1' | 'cQ2' | 'egocentric' | 'gap' | 'recovery'>;

export interface DirectorArmSummary {
  arm: string;
  /** One row per subject: shares over the arm's scenes. */
  models: Array<DirectorModel & { subject: string; arm: string }>;
  /** Means over the subjects of this arm only. */
  panel: DirectorShares;
}

/** The arm the paper's headline numbers come from; the others are controls and variants. */
export const DIRECTOR_HEADLINE_ARM = 'canonical';

/**
 * Director-Task results of a run split by arm: the canonical arm alone is the headline (panel
 * means over subjects on canonical scenes only); the control arms (no occluder, director on the
 * addressee's side) and the four-block variant are summarised beside it, never averaged in.
 */
export function directorRunSummary(store: Store, runId: string): { headline: DirectorArmSummary | undefined; arms: DirectorArmSummary[] } {
  const rows = directorRunResults(store, runId);
  const order = [DIRECTOR_HEADLINE_ARM, 'four-blocks', 'no-occluder', 'same-side'];
  const armNames = [...new Set(rows.map((r) => r.arm))].sort(
    (x, y) => (order.indexOf(x) + 1 || 99) - (order.indexOf(y) + 1 || 99) || x.localeCompare(y),
  );
  const arms = armNames.map((arm) => {
    const models = rows.filter((r) => r.arm === arm);
    const mean = (k: keyof DirectorShares) => models.reduce((s, m) => s + m[k], 0) / models.length;
    return {
      arm,
      models,
      panel: {
        a: mean('a'),
        b: mean('b'),
        cQ1: mean('cQ1'),
        cQ2: mean('cQ2'),
        egocentric: mean('egocentric'),
        gap: mean('gap'),
        recovery: mean('recovery'),
      },
    };
  });
  return { headline: arms.find((a) => a.arm === DIRECTOR_HEADLINE_ARM), arms };
}
