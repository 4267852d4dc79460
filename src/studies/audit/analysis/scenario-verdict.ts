// The audit paper's reading of stage 3 per category (section 2.3): Scenario A, apparent
// divergence between benchmarks is measurement noise (filtering held-out items raises their
// agreement), or Scenario B, the benchmarks operationalise the category in incompatible ways
// (filtering leaves the divergence in place, or makes it worse). A cell's change counts when its
// Holm-adjusted bootstrap p is below alpha, 0.05 (the paper's "Holm-adjusted bootstrap CI excluding
// zero"); the paper's result reads Scenario A for four categories and "mixed" for Belief, where
// one pair of three gains nothing and none reverses.

import type { CrossFitCell } from './cross-fit.js';

/** What filtering did to one pair's agreement on a category. */
export type CellOutcome = 'gain' | 'no change' | 'reversal';

export interface ScenarioVerdict {
  category: string;
  /**
   * A: every pair gains significantly. B: no pair gains (the divergence persists) or some pair's
   * agreement falls significantly (reversed). mixed: some pairs gain, the others change nothing.
   */
  verdict: 'A' | 'B' | 'mixed';
  pairs: Array<{ pair: [string, string]; meanDelta: number; pHolm: number; outcome: CellOutcome }>;
  /** The verdict in words, naming the pairs that decide it. */
  reason: string;
}

/**
 * The outcome of one cell: a significant positive or negative mean delta tau, or neither. A p
 * that is an upper bound (`pHolmUpperBound`: no resample on one side of zero) counts when it is
 * at most alpha.
 */
export function cellOutcome(cell: Pick<CrossFitCell, 'meanDelta' | 'pHolm'> & { pHolmUpperBound?: boolean }, alpha = 0.05): CellOutcome {
  const significant = cell.pHolmUpperBound ? cell.pHolm <= alpha : cell.pHolm < alpha;
  if (!significant || cell.meanDelta === 0 || !Number.isFinite(cell.meanDelta)) return 'no change';
  return cell.meanDelta > 0 ? 'gain' : 'reversal';
}

/** Scenario A, B or mixed for each category of the stage-3 cells (categories in their first order). */
export function scenarioVerdicts(
  cells: ReadonlyArray<Pick<CrossFitCell, 'pair' | 'category' | 'meanDelta' | 'pHolm'> & { pHolmUpperBound?: boolean }>,
  alpha = 0.05,
): ScenarioVerdict[] {
  const categories = [...new Set(cells.map((c) => c.category))];
  return categories.map((category) => {
    const pairs = cells
      .filter((c) => c.category === category)
      .map((c) => ({ pair: c.pair, meanDelta: c.meanDelta, pHolm: c.pHolm, outcome: cellOutcome(c, alpha) }));
    const named = (o: CellOutcome) =>
      pairs
        .filter((p) => p.outcome === o)
        .map((p) => p.pair.join(' ~ '))
        .join(', ');
    const gains = pairs.filter((p) => p.outcome === 'gain').length;
    const reversals = pairs.filter((p) => p.outcome === 'reversal').length;
    if (reversals > 0)
      return { category, verdict: 'B', pairs, reason: `agreement falls after filtering (reversed) for ${named('reversal')}` };
    if (gains === pairs.length)
      return { category, verdict: 'A', pairs, reason: `every pair gains after filtering (${pairs.length} of ${pairs.length})` };
    if (gains === 0)
      return { category, verdict: 'B', pairs, reason: `no pair gains after filtering: the divergence persists (${named('no change')})` };
    return {
      category,
      verdict: 'mixed',
      pairs,
      reason: `${gains} of ${pairs.length} pairs gain; no significant change for ${named('no change')}`,
    };
  });
}
