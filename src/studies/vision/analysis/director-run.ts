// Director-Task results of a stored run, per subject and arm: with K trials per scene, each
// sub-prompt's outcome per scene is the majority over the trials (ties count as wrong); then
// the shares of a, b, c.Q1, c.Q2 right at letter level (as the paper's Table 2) and, apart, at
// colour level, the egocentric rates on (b) and on c.Q2, and the gap and recovery from them.

import { readScoreDetail } from '../../../core/index.js';
import { DIRECTOR_RECORDS, type DirectorScoreDetail } from '../protocols/director-records.js';
import type { Store } from '../../../store/index.js';
import type { DirectorModel, DirectorShares } from './vision-profiles.js';

/** One scene's outcome for one subject, after the majority over its trials. */
export interface DirectorSceneOutcome {
  subject: string;
  arm: string;
  sceneId: string;
  trials: number;
  letter: { a: boolean; b: boolean; cQ1: boolean; cQ2: boolean };
  /** Colour level; absent for trials stored before colours were read apart. */
  color?: { a: boolean; b: boolean; cQ1: boolean; cQ2: boolean };
  egocentricB: boolean;
  /** Absent for trials stored before c.Q2 was marked in the score. */
  egocentricCQ2?: boolean;
  extremum?: string;
  design?: DirectorScoreDetail['design'];
}

/** Every scene's outcome in a run (trials of a scene combined by majority; ties count as wrong). */
export async function directorSceneOutcomes(store: Store, runId: string): Promise<DirectorSceneOutcome[]> {
  const cells = new Map<string, { subject: string; arm: string; sceneId: string; trials: DirectorScoreDetail[] }>();
  for await (const r of store.responses(runId, DIRECTOR_RECORDS.scorer)) {
    const t = await store.transcript({ runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate });
    const d = t ? readScoreDetail(DIRECTOR_RECORDS.score, t.score.detail) : undefined;
    if (!d) continue;
    const arm = String(r.meta.arm ?? d.arm);
    const key = `${r.spec}\u0000${arm}\u0000${r.itemId}`;
    const cell = cells.get(key) ?? { subject: r.spec, arm, sceneId: r.itemId, trials: [] };
    cell.trials.push(d);
    cells.set(key, cell);
  }
  return [...cells.values()].map(({ subject, arm, sceneId, trials }) => {
    const majority = (f: (d: DirectorScoreDetail) => boolean) => trials.filter(f).length * 2 > trials.length;
    const colored = trials.every((d) => d.color);
    const marked = trials.every((d) => d.egocentricCQ2 !== undefined);
    const first = trials[0]!;
    return {
      subject,
      arm,
      sceneId,
      trials: trials.length,
      letter: { a: majority((d) => d.a), b: majority((d) => d.b), cQ1: majority((d) => d.cQ1), cQ2: majority((d) => d.cQ2) },
      color: colored
        ? {
            a: majority((d) => d.color!.a),
            b: majority((d) => d.color!.b),
            cQ1: majority((d) => d.color!.cQ1),
            cQ2: majority((d) => d.color!.cQ2),
          }
        : undefined,
      egocentricB: majority((d) => d.egocentric),
      egocentricCQ2: marked ? majority((d) => d.egocentricCQ2 === true) : undefined,
      extremum: first.extremum,
      design: first.design,
    };
  });
}

/** Shares over a set of scenes: letter level, colour level (over the scenes that have it), egocentric rates, gap and recovery. */
export function directorShares(scenes: DirectorSceneOutcome[]): DirectorShares & { scenes: number } {
  const n = scenes.length;
  const share = (f: (s: DirectorSceneOutcome) => boolean) => scenes.filter(f).length / n;
  const a = share((s) => s.letter.a);
  const b = share((s) => s.letter.b);
  const cQ2 = share((s) => s.letter.cQ2);
  const colored = scenes.filter((s) => s.color);
  const marked = scenes.filter((s) => s.egocentricCQ2 !== undefined);
  const cshare = (f: (c: NonNullable<DirectorSceneOutcome['color']>) => boolean) =>
    colored.filter((s) => f(s.color!)).length / colored.length;
  return {
    scenes: n,
    a,
    b,
    cQ1: share((s) => s.letter.cQ1),
    cQ2,
    egocentric: share((s) => s.egocentricB),
    egocentricCQ2: marked.length ? marked.filter((s) => s.egocentricCQ2).length / marked.length : undefined,
    gap: a - b,
    recovery: cQ2 - b,
    color: colored.length
      ? {
          scenes: colored.length,
          a: cshare((c) => c.a),
          b: cshare((c) => c.b),
          cQ1: cshare((c) => c.cQ1),
          cQ2: cshare((c) => c.cQ2),
          gap: cshare((c) => c.a) - cshare((c) => c.b),
        }
      : undefined,
  };
}

/** Per subject and arm: the shares over the arm's scenes. */
export async function directorRunResults(store: Store, runId: string): Promise<Array<{ subject: string; arm: string } & DirectorModel>> {
  const outcomes = await directorSceneOutcomes(store, runId);
  const groups = new Map<string, DirectorSceneOutcome[]>();
  for (const o of outcomes) {
    const g = `${o.subject}\u0000${o.arm}`;
    groups.set(g, [...(groups.get(g) ?? []), o]);
  }
  return [...groups.values()].map((scenes) => {
    const { subject, arm } = scenes[0]!;
    return { subject, arm, model: subject, ...directorShares(scenes) };
  });
}

export interface DirectorArmSummary {
  arm: string;
  /** One row per subject: shares over the arm's scenes. */
  models: Array<DirectorModel & { subject: string; arm: string }>;
  /** Means over the subjects of this arm only. */
  panel: DirectorShares;
}

/** The arm the paper's headline numbers come from; the others are controls and variants. */
export const DIRECTOR_HEADLINE_ARM = 'canonical';

/** Means over models of their shares (colour level and the c.Q2 egocentric rate over the models that have them). */
export function panelShares(models: DirectorShares[]): DirectorShares {
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const of = (f: (m: DirectorShares) => number | undefined) => {
    const xs = models.map(f).filter((x): x is number => x !== undefined);
    return xs.length ? mean(xs) : undefined;
  };
  const colored = models.filter((m) => m.color);
  return {
    a: of((m) => m.a)!,
    b: of((m) => m.b)!,
    cQ1: of((m) => m.cQ1)!,
    cQ2: of((m) => m.cQ2)!,
    egocentric: of((m) => m.egocentric)!,
    egocentricCQ2: of((m) => m.egocentricCQ2),
    gap: of((m) => m.gap)!,
    recovery: of((m) => m.recovery)!,
    color: colored.length
      ? {
          scenes: colored.reduce((s, m) => s + m.color!.scenes, 0),
          a: mean(colored.map((m) => m.color!.a)),
          b: mean(colored.map((m) => m.color!.b)),
          cQ1: mean(colored.map((m) => m.color!.cQ1)),
          cQ2: mean(colored.map((m) => m.color!.cQ2)),
          gap: mean(colored.map((m) => m.color!.gap)),
        }
      : undefined,
  };
}

/**
 * Director-Task results of a run split by arm: the canonical arm alone is the headline (panel
 * means over subjects on canonical scenes only); the control arms (no occluder, director on the
 * addressee's side) and the four-block variant are summarised beside it, never averaged in.
 */
export async function directorRunSummary(
  store: Store,
  runId: string,
): Promise<{ headline: DirectorArmSummary | undefined; arms: DirectorArmSummary[] }> {
  const rows = await directorRunResults(store, runId);
  const order = [DIRECTOR_HEADLINE_ARM, 'four-blocks', 'no-occluder', 'same-side'];
  const armNames = [...new Set(rows.map((r) => r.arm))].sort(
    (x, y) => (order.indexOf(x) + 1 || 99) - (order.indexOf(y) + 1 || 99) || x.localeCompare(y),
  );
  const arms = armNames.map((arm) => {
    const models = rows.filter((r) => r.arm === arm);
    return { arm, models, panel: panelShares(models) };
  });
  return { headline: arms.find((a) => a.arm === DIRECTOR_HEADLINE_ARM), arms };
}
