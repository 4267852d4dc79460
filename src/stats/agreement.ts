// Chance-corrected agreement among several raters with missing ratings, as irrCAC's
// gwet.ac1.raw and fleiss.kappa.raw: percent agreement over subjects rated by two or more
// raters; category propensities averaged over subjects.

type Rating = string | number | null | undefined;

function tallies(ratings: Rating[][]): { categories: Rating[]; counts: number[][]; raters: number[] } {
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

function propensities(counts: number[][], raters: number[]): number[] {
  const n = counts.length;
  return counts[0]!.map((_, k) => counts.reduce((s, row, i) => s + (raters[i]! > 0 ? row[k]! / raters[i]! : 0), 0) / n);
}

export interface AgreementResult {
  coefficient: number;
  pa: number;
  pe: number;
  categories: Rating[];
}

/** Gwet's AC1 for subjects (rows) x raters (columns); null or '' marks a missing rating. */
export function gwetAC1(ratings: Rating[][]): AgreementResult {
  const { categories, counts, raters } = tallies(ratings);
  const q = categories.length;
  const pa = percentAgreement(counts, raters);
  const pi = propensities(counts, raters);
  const pe = q > 1 ? pi.reduce((s, p) => s + p * (1 - p), 0) / (q - 1) : 0;
  return { coefficient: (pa - pe) / (1 - pe), pa, pe, categories };
}

/** Fleiss' kappa for subjects (rows) x raters (columns); null or '' marks a missing rating. */
export function fleissKappa(ratings: Rating[][]): AgreementResult {
  const { categories, counts, raters } = tallies(ratings);
  const pa = percentAgreement(counts, raters);
  const pi = propensities(counts, raters);
  const pe = pi.reduce((s, p) => s + p * p, 0);
  return { coefficient: (pa - pe) / (1 - pe), pa, pe, categories };
}
