// Judge ablations of the paper's Appendices J and N on a stored run: the same responses scored
// with two rubrics (the informed one that shows judges an expected Intent range, and the
// anchor-blinded canonical one), compared arm by arm on the panel figures (median Intent per
// condition, strict-rank count, panel-mean ToM profile and its distances, nearest group per
// condition), and what a scored cell costs: measured from the tokens each judge's calls took,
// and estimated as the paper does (3,000 input and 1,000 output tokens a call). A cell is one
// response scored by the whole panel; prices come from the caller (the runner's price list).

import type { ReferenceGroups } from './human-references.js';
import type { TriangleCell } from './triangles-cells.js';
import { armSummaries, clipScores, conditionProfiles, type TrianglesArmSummary } from './triangles-profiles.js';

/** US dollars for one judge call of this usage, or null when the judge's price is unknown. */
export type JudgeCallCost = (judge: string, usage: { inputTokens: number; outputTokens: number }) => number | null;

/** The paper's per-call assumption for list-price estimates (Appendix N, Table 13). */
export const ESTIMATE_TOKENS = { inputTokens: 3000, outputTokens: 1000 };

export interface JudgeCost {
  judges: string[];
  /** Cells whose every judge recorded its tokens. */
  cellsMeasured: number;
  cells: number;
  /** Mean over measured cells of the panel's cost (null: a judge's price is unknown, or nothing measured). */
  measuredPerCell: number | null;
  /** Sum over judges of one call at ESTIMATE_TOKENS (null: a price is unknown). */
  estimatedPerCell: number | null;
  unpriced: string[];
}

/** What scoring a cell cost with this panel. */
export function judgeCost(cells: TriangleCell[], cost: JudgeCallCost): JudgeCost {
  const judges = [...new Set(cells.flatMap((c) => c.judges.map((j) => j.judge)))].sort();
  const unpriced = judges.filter((j) => cost(j, ESTIMATE_TOKENS) === null);
  const measured = cells.filter((c) => c.judges.every((j) => j.usage));
  const perCell = measured.map((c) => c.judges.reduce((s, j) => s + (cost(j.judge, j.usage!) ?? Number.NaN), 0));
  const estimate = judges.reduce((s, j) => s + (cost(j, ESTIMATE_TOKENS) ?? Number.NaN), 0);
  return {
    judges,
    cellsMeasured: measured.length,
    cells: cells.length,
    measuredPerCell: unpriced.length || perCell.length === 0 ? null : perCell.reduce((a, b) => a + b, 0) / perCell.length,
    estimatedPerCell: unpriced.length || judges.length === 0 ? null : estimate,
    unpriced,
  };
}

export interface ScorerSummary {
  scorer: string;
  arms: TrianglesArmSummary[];
  cost: JudgeCost;
}

export interface ScorerComparisonRow {
  clipSet: string;
  arm: string;
  /** One entry per scorer, in the order given. */
  by: Array<{ scorer: string; summary: TrianglesArmSummary | undefined }>;
  /** Whether every scorer gives the same nearest group in every condition. */
  sameNearest: boolean;
  /** Whether every scorer gives the same panel median Intent in every condition. */
  sameMedians: boolean;
}

/** Panel figures and judge cost per scorer, and the comparison arm by arm (the paper's Table 9). */
export function compareScorers(
  cellsByScorer: Array<{ scorer: string; cells: TriangleCell[] }>,
  refs: ReferenceGroups,
  cost: JudgeCallCost,
): { scorers: ScorerSummary[]; rows: ScorerComparisonRow[] } {
  const scorers = cellsByScorer.map(({ scorer, cells }) => {
    const scores = clipScores(cells);
    return { scorer, arms: armSummaries(scores, conditionProfiles(scores, refs), refs), cost: judgeCost(cells, cost) };
  });
  const keys = [...new Set(scorers.flatMap((s) => s.arms.map((a) => `${a.clipSet}\u0000${a.arm}`)))];
  const rows = keys.map((k) => {
    const [clipSet, arm] = k.split('\u0000') as [string, string];
    const by = scorers.map((s) => ({ scorer: s.scorer, summary: s.arms.find((a) => a.clipSet === clipSet && a.arm === arm) }));
    const present = by.flatMap((b) => (b.summary ? [b.summary] : []));
    const same = (f: (a: TrianglesArmSummary) => unknown) => present.every((a) => JSON.stringify(f(a)) === JSON.stringify(f(present[0]!)));
    return {
      clipSet,
      arm,
      by,
      sameNearest:
        present.length === by.length && same((a) => Object.fromEntries(Object.entries(a.panelMean).map(([c, p]) => [c, p.nearest]))),
      sameMedians: present.length === by.length && same((a) => a.panelMedianIntent),
    };
  });
  return { scorers, rows };
}
