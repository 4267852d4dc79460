// The effect of reasoning-trace injection: the same subjects on the same items with and without
// the masked teacher traces, paired per item (replicate 0), tested with McNemar's test
// (continuity-corrected and exact) per subject and suite.

import { mcnemar } from '../stats/index.js';
import { PROTOCOL_SCORES, type Store } from '../store/index.js';

export interface TraceEffect {
  subject: string;
  suite: string;
  items: number;
  baseline: number;
  treated: number;
  /** [[right both, right only without], [right only with, wrong both]]. */
  table: [[number, number], [number, number]];
  pCorrected: number;
  pExact: number;
}

/** The effect of reasoning-trace injection: paired correctness per subject and suite between two runs, with McNemar's test (corrected and exact). */
export async function traceEffect(store: Store, baselineRun: string, treatedRun: string): Promise<TraceEffect[]> {
  const key = (spec: string, suite: string, item: string) => `${spec}\u0000${suite}\u0000${item}`;
  const base = new Map<string, number>();
  for await (const r of store.responses(baselineRun, PROTOCOL_SCORES))
    if (r.replicate === 0) base.set(key(r.spec, r.suite, r.itemId), r.value);
  const pairs = new Map<string, { subject: string; suite: string; ps: Array<[number, number]> }>();
  for await (const r of store.responses(treatedRun, PROTOCOL_SCORES)) {
    if (r.replicate !== 0) continue;
    const b = base.get(key(r.spec, r.suite, r.itemId));
    if (b === undefined) continue;
    const k = `${r.spec}\u0000${r.suite}`;
    const p = pairs.get(k) ?? { subject: r.spec, suite: r.suite, ps: [] };
    p.ps.push([b, r.value]);
    pairs.set(k, p);
  }
  return [...pairs.values()].map(({ subject, suite, ps }) => {
    const count = (b: number, t: number) => ps.filter(([x, y]) => x === b && y === t).length;
    const table: [[number, number], [number, number]] = [
      [count(1, 1), count(1, 0)],
      [count(0, 1), count(0, 0)],
    ];
    const corrected = mcnemar(table, { correct: true });
    return {
      subject,
      suite,
      items: ps.length,
      baseline: ps.filter(([b]) => b === 1).length / ps.length,
      treated: ps.filter(([, t]) => t === 1).length / ps.length,
      table,
      pCorrected: corrected.p,
      pExact: corrected.pExact,
    };
  });
}
