// Chance-corrected agreement among several raters with missing ratings, as irrCAC's
// gwet.ac1.raw and fleiss.kappa.raw: percent agreement over subjects rated by two or more
// raters; category propensities averaged over subjects rated at least once (a subject nobody
// rated is left out, as irrCAC asks). No subjects at all throws; no subject
// rated twice, or (Fleiss) a single category used by everyone, leaves the coefficient undefined:
// NaN with a `reason`. AC1 with a single category used is 1: its chance agreement
// sum pi (1 - pi) is 0 whatever the number of categories on the scale.

type Rating = string | number | null | undefined;

function tallies(fn: string, ratings: Rating[][]): { categories: Rating[]; counts: number[][]; raters: number[] } {
  if (ratings.length === 0) throw new Error(`${fn}: no subjects (the ratings have no rows)`);
  const categories = [...new Set(ratings.flat().filter((r) => r !== null && r !== undefined && r !== ''))].sort((a, b) =>
    String(a).localeCompare(String(b), undefined, { numeric: true }),
  );
  const counts = ratings.map((row) => categories.map((k) => row.filter((r) => r === k).length));
  const raters = counts.map((row) => row.reduce((a, b) => a + b, 0));
  return { categories, counts, raters };
}

function percentAgreement(counts: number[][], raters: number[]): number {
  let sum = 0;
  let m = 0;
  counts.forEach((row, i) => {
    const r = raters[i]!;
    if (r < 2) return;
    m++;
    sum += row.reduce((s, c) => s + c * (c - 1), 0) / (r * (r - 1));
  });
  return sum / m;
}

/**
 * Each category's share averaged over the subjects rated at least once. A subject no rater rated
 * carries no information: irrCAC asks for such subjects to be left out (it gives NaN with them),
 * and counting them in n would shrink every share and shift the chance agreement.
 */
function propensities(counts: number[][], raters: number[]): number[] {
  const n = raters.filter((r) => r > 0).length;
  return counts[0]!.map((_, k) => counts.reduce((s, row, i) => s + (raters[i]! > 0 ? row[k]! / raters[i]! : 0), 0) / n);
}

export interface AgreementResult {
  coefficient: number;
  pa: number;
  pe: number;
  categories: Rating[];
  /** Why the coefficient is NaN; absent when it is defined. */
  reason?: string;
}

const NO_PAIRS = 'no subject has two or more ratings: there is no agreement to measure';

/** Gwet's AC1 for subjects (rows) x raters (columns); null or '' marks a missing rating. */
export function gwetAC1(ratings: Rating[][]): AgreementResult {
  const { categories, counts, raters } = tallies('gwetAC1', ratings);
  const q = categories.length;
  const pa = percentAgreement(counts, raters);
  if (Number.isNaN(pa)) return { coefficient: Number.NaN, pa, pe: Number.NaN, categories, reason: NO_PAIRS };
  const pi = propensities(counts, raters);
  const pe = q > 1 ? pi.reduce((s, p) => s + p * (1 - p), 0) / (q - 1) : 0;
  return { coefficient: (pa - pe) / (1 - pe), pa, pe, categories };
}

/** Fleiss' kappa for subjects (rows) x raters (columns); null or '' marks a missing rating. */
export function fleissKappa(ratings: Rating[][]): AgreementResult {
  const { categories, counts, raters } = tallies('fleissKappa', ratings);
  const pa = percentAgreement(counts, raters);
  if (Number.isNaN(pa)) return { coefficient: Number.NaN, pa, pe: Number.NaN, categories, reason: NO_PAIRS };
  const pi = propensities(counts, raters);
  const pe = pi.reduce((s, p) => s + p * p, 0);
  if (categories.length < 2)
    return {
      coefficient: Number.NaN,
      pa,
      pe,
      categories,
      reason: 'a single category was used: chance agreement is 1 and kappa is undefined',
    };
  return { coefficient: (pa - pe) / (1 - pe), pa, pe, categories };
}
