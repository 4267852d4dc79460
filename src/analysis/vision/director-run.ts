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
