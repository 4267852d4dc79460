// The effect of reasoning-trace injection: the same subjects on the same items with and without
// the masked teacher traces, paired per item (replicate 0), tested with McNemar's test
// (continuity-corrected and exact) per subject and suite. Only the items the treated run showed
// a trace are compared (its record holds `traceMasks`); items it ran without one (the trace file
// had none for them) are counted and left out, so that they do not dilute the test.

import { MCQ_RECORDS, readRecord } from '../core/index.js';
import { mcnemar } from '../stats/index.js';
import { PROTOCOL_SCORES, type Store } from '../store/index.js';

export interface TraceEffect {
  subject: string;
  suite: string;
  /** Items compared: in both runs, and shown a trace in the treated run. */
  items: number;
  /** Items in both runs that the treated run showed no trace: left out of the comparison. */
  untraced: number;
  /** Correct rates over the compared items; null when no item is compared. */
  baseline: number | null;
  treated: number | null;
  /** [[right both, right only without], [right only with, wrong both]]. */
  table: [[number, number], [number, number]];
  /** McNemar's p (continuity-corrected, exact); null when no item is compared. */
  pCorrected: number | null;
  pExact: number | null;
}

/**
 * The effect of reasoning-trace injection: paired correctness per subject and suite between a
 * run without and a run with traces, over the items the treated run showed a trace, with
 * McNemar's test (corrected and exact); `untraced` counts the paired items left out.
 */
export async function traceEffect(store: Store, baselineRun: string, treatedRun: string): Promise<TraceEffect[]> {
  const key = (spec: string, suite: string, item: string) => `${spec}\u0000${suite}\u0000${item}`;
  const base = new Map<string, number>();
  for await (const r of store.responses(baselineRun, PROTOCOL_SCORES))
    if (r.replicate === 0) base.set(key(r.spec, r.suite, r.itemId), r.value);
  const pairs = new Map<string, { subject: string; suite: string; ps: Array<[number, number]>; untraced: number }>();
  for await (const r of store.responses(treatedRun, PROTOCOL_SCORES)) {
    if (r.replicate !== 0) continue;
    const b = base.get(key(r.spec, r.suite, r.itemId));
    if (b === undefined) continue;
    const k = `${r.spec}\u0000${r.suite}`;
    const p = pairs.get(k) ?? { subject: r.spec, suite: r.suite, ps: [], untraced: 0 };
    pairs.set(k, p);
    const t = await store.transcript({ runId: treatedRun, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: 0 });
    const record = t ? readRecord(MCQ_RECORDS, t.transcript, `${treatedRun} ${r.suite}/${r.itemId}`) : undefined;
    if (record?.traceMasks === undefined) p.untraced++;
    else p.ps.push([b, r.value]);
  }
  return [...pairs.values()].map(({ subject, suite, ps, untraced }) => {
    const count = (b: number, t: number) => ps.filter(([x, y]) => x === b && y === t).length;
    const table: [[number, number], [number, number]] = [
      [count(1, 1), count(1, 0)],
      [count(0, 1), count(0, 0)],
    ];
    if (ps.length === 0)
      return { subject, suite, items: 0, untraced, baseline: null, treated: null, table, pCorrected: null, pExact: null };
    const corrected = mcnemar(table, { correct: true });
    return {
      subject,
      suite,
      items: ps.length,
      untraced,
      baseline: ps.filter(([b]) => b === 1).length / ps.length,
      treated: ps.filter(([, t]) => t === 1).length / ps.length,
      table,
      pCorrected: corrected.p,
      pExact: corrected.pExact,
    };
  });
}
