// Explicit belief tracking, scored in OmniToM's two stages. Extraction: a listed proposition
// (holder chain, object, container) is right when the tracker holds it; precision and recall per
// order. Labelling: of the propositions extracted right, the share whose truth status is right.
// Missed beliefs are counted by their first holder (which agent's beliefs are lost).

import type { BeliefProposition, CheckpointResult } from '../protocol/records.js';
import { propositionKey } from '../protocol/belief-listing.js';
import { bySubject, share, type ProbeRow } from './probe-rows.js';

interface Counts {
  listed: number;
  gold: number;
  hits: number;
  labelled: number;
}

const empty = (): Counts => ({ listed: 0, gold: 0, hits: 0, labelled: 0 });

/** The counts of one checkpoint, by order. */
function checkpointCounts(c: CheckpointResult): Map<number, Counts> {
  const out = new Map<number, Counts>();
  const at = (k: number): Counts => {
    if (!out.has(k)) out.set(k, empty());
    return out.get(k)!;
  };
  const gold = new Map(c.gold.map((p) => [propositionKey(p), p]));
  for (const p of c.gold) at(p.order).gold++;
  const seen = new Set<string>();
  for (const p of c.listed ?? []) {
    const key = propositionKey(p);
    if (seen.has(key)) continue;
    seen.add(key);
    at(p.order).listed++;
    const g = gold.get(key);
    if (g) {
      at(p.order).hits++;
      if (g.true === p.true) at(p.order).labelled++;
    }
  }
  return out;
}

/** The share of a trial's tracked beliefs that were listed (the trial's score). */
export function beliefRecall(checkpoints: readonly CheckpointResult[]): number {
  let hits = 0;
  let gold = 0;
  for (const c of checkpoints)
    for (const k of checkpointCounts(c).values()) {
      hits += k.hits;
      gold += k.gold;
    }
  return gold > 0 ? hits / gold : 0;
}

export interface BeliefSubject {
  subject: string;
  checkpoints: number;
  unreadable: number;
  byOrder: Array<{
    order: number;
    listed: number;
    gold: number;
    precision: number;
    recall: number;
    labelling: number;
    /** Tracked beliefs not listed: false ones (the belief differs from the truth) and true ones. */
    missedFalse: number;
    missedTrue: number;
  }>;
  /** Tracked beliefs not listed, by their holder (the chain's first agent). */
  missedByHolder: Record<string, number>;
}

/** The belief-tracking summary of a run's belief trials. */
export function beliefSummary(rows: readonly ProbeRow[]): BeliefSubject[] {
  const trials = rows.filter((r) => r.detail.family === 'beliefs');
  return [...bySubject(trials)].map(([subject, rs]) => {
    const cps = rs.flatMap((r) => r.detail.checkpoints ?? []);
    const total = new Map<number, Counts>();
    const missedByHolder: Record<string, number> = {};
    const missed = new Map<number, { false: number; true: number }>();
    for (const c of cps) {
      for (const [k, n] of checkpointCounts(c)) {
        const t = total.get(k) ?? empty();
        total.set(k, { listed: t.listed + n.listed, gold: t.gold + n.gold, hits: t.hits + n.hits, labelled: t.labelled + n.labelled });
      }
      const listed = new Set((c.listed ?? []).map(propositionKey));
      for (const g of c.gold.filter((p: BeliefProposition) => !listed.has(propositionKey(p)))) {
        missedByHolder[g.holder[0]!] = (missedByHolder[g.holder[0]!] ?? 0) + 1;
        const m = missed.get(g.order) ?? { false: 0, true: 0 };
        m[g.true ? 'true' : 'false']++;
        missed.set(g.order, m);
      }
    }
    return {
      subject,
      checkpoints: cps.length,
      unreadable: cps.filter((c) => c.listed === null).length,
      byOrder: [...total]
        .sort((a, b) => a[0] - b[0])
        .map(([order, t]) => ({
          order,
          listed: t.listed,
          gold: t.gold,
          precision: share(t.hits, t.listed),
          recall: share(t.hits, t.gold),
          labelling: share(t.labelled, t.hits),
          missedFalse: missed.get(order)?.false ?? 0,
          missedTrue: missed.get(order)?.true ?? 0,
        })),
      missedByHolder,
    };
  });
}
