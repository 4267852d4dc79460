// Agreement of two raters on the same subjects: Cohen's kappa (chance agreement from each
// rater's own marginals) beside Gwet's AC1 (chance agreement from the pooled propensities,
// stable when one category dominates: the "kappa paradox"), with the percent agreement and the
// confusion table. Used for judge-human agreement (a judge panel's verdicts against human labels).

import { gwetAC1 } from './agreement.js';

export interface TwoRaterAgreement {
  n: number;
  categories: string[];
  /** table[i][j]: subjects rater A put in categories[i] and rater B in categories[j]. */
  table: number[][];
  percentAgreement: number;
  kappa: number;
  /** Cohen's chance agreement: sum over categories of the product of the two raters' shares. */
  kappaChance: number;
  ac1: number;
  /** Why kappa is NaN (both raters used one and the same category); absent when it is defined. */
  reason?: string;
}

/**
 * Cohen's kappa and Gwet's AC1 of two raters' labels, paired by position (equal lengths).
 * kappa = (po - pe) / (1 - pe), pe = sum_k pA(k) pB(k); NaN with a `reason` when pe = 1 (both
 * raters always used one and the same category). No subjects, or unequal lengths, throw.
 */
export function twoRaterAgreement(a: readonly (string | number)[], b: readonly (string | number)[]): TwoRaterAgreement {
  if (a.length !== b.length) throw new RangeError(`twoRaterAgreement: ${a.length} labels against ${b.length}`);
  if (a.length === 0) throw new RangeError('twoRaterAgreement: no subjects');
  const categories = [...new Set([...a, ...b].map(String))].sort((x, y) => x.localeCompare(y, undefined, { numeric: true }));
  const index = new Map(categories.map((c, i) => [c, i]));
  const table = categories.map(() => categories.map(() => 0));
  a.forEach((x, i) => {
    table[index.get(String(x))!]![index.get(String(b[i]))!]!++;
  });
  const n = a.length;
  const po = categories.reduce((s, _c, i) => s + table[i]![i]!, 0) / n;
  const rowShare = table.map((row) => row.reduce((s, v) => s + v, 0) / n);
  const colShare = categories.map((_c, j) => table.reduce((s, row) => s + row[j]!, 0) / n);
  const pe = rowShare.reduce((s, r, k) => s + r * colShare[k]!, 0);
  return {
    n,
    categories,
    table,
    percentAgreement: po,
    kappa: pe === 1 ? Number.NaN : (po - pe) / (1 - pe),
    kappaChance: pe,
    ac1: gwetAC1(a.map((x, i) => [String(x), String(b[i])])).coefficient,
    ...(pe === 1 ? { reason: 'both raters used one and the same category: chance agreement is 1 and kappa is undefined' } : {}),
  };
}
