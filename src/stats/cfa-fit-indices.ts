// Fit indices of a confirmatory factor model fitted by maximum likelihood, as lavaan reports them
// (likelihood "normal": the statistic is N times the minimum of the fit function): chi-square and
// its p, CFI and TLI against the independence model, RMSEA with its 90% interval from the
// noncentral chi-square distribution, and SRMR (Bentler's: residual correlations over the
// p(p+1)/2 variances and covariances).

import { chiSquareSf, gammaP, lnGamma } from './distributions.js';

/**
 * P(X <= x) for X ~ noncentral chi-square(df, ncp): the Poisson(ncp/2) mixture of central
 * chi-squares. NaN for a NaN argument, df not above 0 or an infinite ncp (the sum would not end).
 */
export function noncentralChiSquareCdf(x: number, df: number, ncp: number): number {
  if (Number.isNaN(x) || !(df > 0) || !Number.isFinite(ncp) || df === Number.POSITIVE_INFINITY) return Number.NaN;
  if (x <= 0) return 0;
  if (ncp <= 0) return gammaP(df / 2, x / 2);
  const half = ncp / 2;
  const mode = Math.floor(half);
  const term = (j: number) => Math.exp(-half + j * Math.log(half) - lnGamma(j + 1)) * gammaP(df / 2 + j, x / 2);
  // From the Poisson mode outwards, until the weights no longer count.
  let sum = term(mode);
  for (let j = mode + 1; ; j++) {
    const t = term(j);
    sum += t;
    // <=: when x is so small that every term underflows to 0, the sum is 0 and so is t.
    if (t <= 1e-16 * sum && j > mode + 10) break;
  }
  for (let j = mode - 1; j >= 0; j--) {
    const t = term(j);
    sum += t;
    if (t <= 1e-16 * sum && j < mode - 10) break;
  }
  return Math.min(1, sum);
}

/** The root of a decreasing function on [lo, hi] by bisection, to 1e-10 of the interval. */
function bisect(f: (x: number) => number, lo: number, hi: number): number {
  let a = lo;
  let b = hi;
  for (let i = 0; i < 200 && b - a > 1e-10 * Math.max(1, hi); i++) {
    const mid = (a + b) / 2;
    if (f(mid) > 0) a = mid;
    else b = mid;
  }
  return (a + b) / 2;
}

export interface CfaFitIndices {
  chisq: number;
  df: number;
  /** P(chi-square(df) >= chisq). */
  pValue: number;
  /** The independence model's (the baseline of CFI and TLI). */
  baselineChisq: number;
  baselineDf: number;
  cfi: number;
  tli: number;
  rmsea: number;
  /** The 90% interval of RMSEA. */
  rmseaLower: number;
  rmseaUpper: number;
  srmr: number;
}

/**
 * Fit indices from the chi-square statistics of a model and of the independence model, the
 * number of observations, and the sample and model-implied matrices (for SRMR). RMSEA and its
 * interval use N, as lavaan does with normal likelihood.
 */
export function cfaFitIndices(input: {
  chisq: number;
  df: number;
  baselineChisq: number;
  baselineDf: number;
  n: number;
  sample: number[][];
  implied: number[][];
}): CfaFitIndices {
  const { chisq, df, baselineChisq, baselineDf, n } = input;
  const t1 = chisq - df;
  const t2 = baselineChisq - baselineDf;
  // As lavaan: CFI is 1 when neither model's statistic exceeds its df (all.equal's 1.5e-8 of 0),
  // where 1 - 0/0 would be NaN; TLI is 1 when the independence model's statistic equals its df,
  // where the ratio would divide by 0 (an infinite TLI).
  const cfiTop = Math.max(t1, 0);
  const cfiBottom = Math.max(t1, t2, 0);
  const cfi = cfiTop < 1.5e-8 && cfiBottom < 1.5e-8 ? 1 : 1 - cfiTop / cfiBottom;
  const tliBottom = (baselineChisq - baselineDf) * df;
  const tli = df > 0 ? (tliBottom !== 0 ? 1 - (t1 * baselineDf) / tliBottom : 1) : Number.NaN;
  const rmsea = df > 0 ? Math.sqrt(Math.max(chisq / n / df - 1 / n, 0)) : Number.NaN;
  let rmseaLower = 0;
  let rmseaUpper = 0;
  if (df > 0) {
    const lowerF = (ncp: number) => noncentralChiSquareCdf(chisq, df, ncp) - 0.95;
    if (lowerF(0) >= 0) rmseaLower = Math.sqrt(bisect(lowerF, 0, chisq) / (n * df));
    const upperF = (ncp: number) => noncentralChiSquareCdf(chisq, df, ncp) - 0.05;
    if (upperF(0) >= 0) {
      // The root lies below `top` once the CDF there has fallen under 0.05: with few observations
      // and a small statistic max(N, 4 chi-square) is not yet that far, so it is doubled until it is.
      let top = Math.max(n, chisq * 4, 1);
      while (upperF(top) > 0 && top < 1e15) top *= 2;
      rmseaUpper = Math.sqrt(bisect(upperF, 0, top) / (n * df));
    }
  }
  const S = input.sample;
  const p = S.length;
  let sq = 0;
  for (let i = 0; i < p; i++)
    for (let j = 0; j <= i; j++) sq += ((S[i]![j]! - input.implied[i]![j]!) / Math.sqrt(S[i]![i]! * S[j]![j]!)) ** 2;
  return {
    chisq,
    df,
    pValue: df > 0 ? chiSquareSf(chisq, df) : Number.NaN,
    baselineChisq,
    baselineDf,
    cfi,
    tli,
    rmsea,
    rmseaLower,
    rmseaUpper,
    srmr: Math.sqrt(sq / ((p * (p + 1)) / 2)),
  };
}
