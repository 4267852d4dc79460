// mindscope/stats against generated reference vectors: seeded random and degenerate inputs for
// each inferential statistic, with SciPy's and R's results (tests/fixtures/vectors/generated,
// made by the scripts in its generate/ folder; neither Python nor R is needed here). p-values are
// compared relatively, so that a p of 1e-46 must be right to its leading digits, not merely
// "small"; statistics to 1e-12 unless noted.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as stats from '../src/stats/index.js';

const G = join(__dirname, 'fixtures', 'vectors', 'generated');
const scipy = JSON.parse(readFileSync(join(G, 'scipy.json'), 'utf8'));
const r = JSON.parse(readFileSync(join(G, 'r.json'), 'utf8'));

type Expected = number | string | null;
/** The JSON form of a number: null for NaN, strings for infinities. */
const value = (e: Expected): number => (e === null ? Number.NaN : e === 'Infinity' ? Infinity : e === '-Infinity' ? -Infinity : Number(e));

/** |actual - expected| <= abs + rel |expected|; NaN matches null. */
function near(actual: number, expected: Expected, rel: number, abs = 0, what = ''): void {
  const e = value(expected);
  if (Number.isNaN(e) || !Number.isFinite(e)) {
    expect(actual, what).toBe(e);
    return;
  }
  const tol = abs + rel * Math.abs(e);
  if (!(Math.abs(actual - e) <= tol)) expect.fail(`${what}: ${actual} against ${e} (off by ${Math.abs(actual - e)}, allowed ${tol})`);
}
/** A p-value: relative 1e-9 (1e-7 at the R vectors' 15 digits is far more than they need). */
const nearP = (actual: number, expected: Expected, what = '') => near(actual, expected, 1e-9, 1e-15, what);

describe('distribution functions against SciPy', () => {
  it('normal tails and quantiles, far into the tails', () => {
    // SciPy flushes results below the smallest normal double (2.2e-308) to 0; mindscope keeps
    // them as subnormals (Phi(-38) = 2.885e-316, as mpmath gives it): agreement to 1e-300 there.
    for (const c of scipy.normal) {
      near(stats.normalCdf(c.z), c.cdf, 1e-12, 1e-300, `Phi(${c.z})`);
      near(stats.normalTwoSidedP(c.z), c.two_sided, 1e-12, 1e-300, `2 Q(|${c.z}|)`);
    }
    for (const c of scipy.normal_quantile) near(stats.normalQuantile(c.p), c.q, 1e-12, 0, `Phi^-1(${c.p})`);
  });

  it('chi-square upper tail, log-gamma, the incomplete beta and its quantile, binomial probabilities', () => {
    for (const c of scipy.chi_square_sf) near(stats.chiSquareSf(c.x, c.df), c.sf, 1e-11, 0, `chi2.sf(${c.x}, ${c.df})`);
    for (const c of scipy.ln_gamma) near(stats.lnGamma(c.x), c.value, 1e-13, 1e-13, `lnGamma(${c.x})`);
    for (const c of scipy.regularized_beta) near(stats.regularizedBeta(c.x, c.a, c.b), c.value, 1e-11, 1e-15, `I(${c.x}; ${c.a}, ${c.b})`);
    for (const c of scipy.beta_quantile) near(stats.betaQuantile(c.q, c.a, c.b), c.value, 1e-10, 1e-15, `beta.ppf(${c.q}, ${c.a}, ${c.b})`);
    for (const c of scipy.binomial_pmf) near(stats.binomialPmf(c.k, c.n, c.p), c.value, 1e-11, 0, `binom.pmf(${c.k}, ${c.n}, ${c.p})`);
  });
});

describe('rank tests against SciPy and R', () => {
  it('Mann-Whitney U and its two-sided p in both orders, continuity on and off, far tails included', () => {
    for (const [i, c] of scipy.mann_whitney.entries()) {
      for (const correct of [true, false]) {
        const xy = stats.mannWhitneyU(c.x, c.y, { correct });
        const yx = stats.mannWhitneyU(c.y, c.x, { correct });
        // SciPy reports U of its first sample.
        expect(xy.u, `case ${i}`).toBe(c.u);
        expect(yx.u, `case ${i}`).toBe(c.x.length * c.y.length - c.u);
        nearP(xy.p, correct ? c.p_correct : c.p, `case ${i} (x, y) correct=${correct}`);
        nearP(yx.p, correct ? c.p_correct : c.p, `case ${i} (y, x) correct=${correct}`);
      }
    }
    expect(stats.mannWhitneyU(scipy.mann_whitney_all_tied.x, scipy.mann_whitney_all_tied.y).p).toBe(scipy.mann_whitney_all_tied.p);
    for (const [i, c] of r.wilcox.entries()) {
      const w = stats.mannWhitneyU(c.x, c.y);
      expect(w.u, `R case ${i}`).toBe(c.u);
      nearP(w.p, c.p_correct, `R case ${i}`);
      nearP(stats.mannWhitneyU(c.x, c.y, { correct: false }).p, c.p, `R case ${i}`);
    }
  });

  it('Kendall tau-b with its tie-corrected p, by pairs (< 64) and by sorting (>= 64)', () => {
    for (const [i, c] of scipy.kendall.entries()) {
      const k = stats.kendallTauB(c.x, c.y);
      near(k.tau, c.tau, 1e-12, 1e-14, `case ${i}${c.noise ? ' (noise ties)' : ''}`);
      near(stats.kendallTau(c.x, c.y), c.tau, 1e-12, 1e-14, `case ${i} kendallTau`);
      nearP(k.p, c.p, `case ${i} p`);
    }
    for (const [i, c] of r.kendall.entries()) {
      const k = stats.kendallTauB(c.x, c.y);
      near(k.tau, c.tau, 1e-12, 1e-14, `R case ${i}`);
      near(k.z, c.z, 1e-12, 1e-14, `R case ${i} z`);
      nearP(k.p, c.p, `R case ${i} p`);
      near(k.zContinuity, c.z_continuity, 1e-12, 1e-14, `R case ${i} z with continuity`);
      nearP(k.pContinuity, c.p_continuity, `R case ${i} p with continuity`);
      near(stats.spearman(c.x, c.y), c.spearman, 1e-12, 1e-14, `R case ${i} Spearman`);
    }
  });

  it('Spearman and Pearson; values equal up to rounding noise tie (SciPy on the rounded values)', () => {
    for (const [i, c] of scipy.spearman.entries())
      near(stats.spearman(c.x, c.y), c.rho, 1e-12, 1e-14, `case ${i}${c.noise ? ' (noise ties)' : ''}`);
    // The noise cases are there because exact comparison gets them wrong.
    expect(
      scipy.spearman.filter((c: { noise?: boolean; rho: number; rho_unrounded: number }) => c.noise && c.rho !== c.rho_unrounded).length,
    ).toBeGreaterThan(5);
    for (const [i, c] of scipy.pearson.entries()) near(stats.pearson(c.x, c.y), c.r, 1e-12, 1e-14, `case ${i}`);
  });

  it('degenerate correlations are NaN with a reason where SciPy and R give NaN, refuse or give a number from two points or from noise', () => {
    for (const c of scipy.correlation_degenerate) {
      const k = stats.kendallTauB(c.x, c.y);
      expect(k.tau, c.name).toBeNaN();
      expect(k.p, c.name).toBeNaN();
      expect(k.reason, c.name).toMatch(/constant|pairs? of values/);
      expect(stats.kendallTau(c.x, c.y), c.name).toBeNaN();
      expect(stats.spearman(c.x, c.y), c.name).toBeNaN();
      expect(stats.pearson(c.x, c.y), c.name).toBeNaN();
      expect(stats.correlationUndefinedReason(c.x, c.y), c.name).toBe(k.reason);
    }
    // R agrees that tau from two pairs has no p, and that a constant x has no tau.
    expect(r.degenerate.kendall_two_pairs.p).toBeNull();
    expect(r.degenerate.kendall_x_constant.estimate).toBeNull();
  });
});

describe('partial Kendall (residual method) against NumPy least squares and SciPy tau-b', () => {
  it('estimate, statistic and p, with controls on scales from 0.01 to 10^4', () => {
    for (const [i, c] of scipy.partial_kendall_residual.entries()) {
      const p = stats.partialKendall(c.x, c.y, c.controls, 'residual');
      near(p.estimate, c.estimate, 1e-12, 1e-14, `case ${i} (n ${c.x.length}, ${c.controls.length} controls)`);
      near(p.statistic, c.statistic, 1e-11, 1e-13, `case ${i} statistic`);
      nearP(p.p, c.p, `case ${i} p`);
      expect(p.reason).toBeUndefined();
    }
  });
});

describe('tables against SciPy and R', () => {
  it('chi-square test of independence (Yates on 2 x 2) and Cramer V', () => {
    for (const [i, c] of scipy.chi_square_independence.entries()) {
      const y = stats.chiSquareIndependence(c.table);
      const u = stats.chiSquareIndependence(c.table, { correct: false });
      near(y.statistic, c.statistic_yates, 1e-11, 1e-12, `case ${i}`);
      nearP(y.p, c.p_yates, `case ${i}`);
      near(u.statistic, c.statistic, 1e-11, 1e-12, `case ${i}`);
      nearP(u.p, c.p, `case ${i}`);
      expect(u.df).toBe(c.df);
      near(stats.cramersV(c.table), c.cramers_v, 1e-12, 1e-14, `case ${i} V`);
    }
    for (const [i, c] of r.chisq.entries()) {
      const y = stats.chiSquareIndependence(c.table);
      near(y.statistic, c.statistic, 1e-12, 1e-12, `R case ${i}`);
      nearP(y.p, c.p, `R case ${i}`);
      nearP(stats.chiSquareIndependence(c.table, { correct: false }).p, c.p_uncorrected, `R case ${i}`);
    }
  });

  it('chi-square goodness of fit, uniform and given probabilities', () => {
    for (const [i, c] of scipy.chi_square_gof.entries()) {
      const g = stats.chiSquareGoodnessOfFit(c.observed, c.probabilities ?? undefined);
      near(g.statistic, c.statistic, 1e-10, 1e-12, `case ${i}`);
      nearP(g.p, c.p, `case ${i}`);
    }
  });

  it('McNemar (corrected, uncorrected, exact) and the exact binomial test', () => {
    for (const [i, c] of r.mcnemar.entries()) {
      const m = stats.mcnemar(c.table);
      near(m.statistic, c.statistic_corrected, 1e-12, 1e-12, `R case ${i}`);
      nearP(m.p, c.p_corrected, `R case ${i}`);
      nearP(m.pExact, c.p_exact, `R case ${i} exact`);
      nearP(stats.mcnemar(c.table, { correct: false }).p, c.p, `R case ${i} uncorrected`);
    }
    for (const c of [...r.binomial_test, ...scipy.binomial_test])
      nearP(stats.binomialTest(c.k, c.n, c.p), c.pvalue, `binomialTest(${c.k}, ${c.n}, ${c.p})`);
  });

  it('Holm, Benjamini-Hochberg and Bonferroni as p.adjust, with ties and missing values', () => {
    for (const [i, c] of r.p_adjust.entries()) {
      const p = (Array.isArray(c.p) ? c.p : [c.p]) as Array<number | null>;
      const asList = (v: unknown) => (Array.isArray(v) ? v : [v]) as Array<number | null>;
      for (const [name, f] of [
        ['holm', stats.holm],
        ['BH', stats.benjaminiHochberg],
        ['bonferroni', stats.bonferroni],
      ] as const) {
        const got = f(p);
        asList(c[name]).forEach((e, j) =>
          e === null ? expect(got[j], `${name} ${i}`).toBeNull() : near(got[j]!, e, 1e-12, 1e-15, `${name} ${i}.${j}`),
        );
      }
    }
  });
});

describe('intervals, quantiles, entropy and agreement', () => {
  it('Wilson and Clopper-Pearson intervals against SciPy (binomtest.proportion_ci)', () => {
    for (const c of scipy.proportion_intervals) {
      const w = stats.wilsonInterval(c.k, c.n);
      near(w.lower, c.wilson[0], 1e-12, 1e-15, `Wilson ${c.k}/${c.n}`);
      near(w.upper, c.wilson[1], 1e-12, 1e-15, `Wilson ${c.k}/${c.n}`);
      const e = stats.clopperPearsonInterval(c.k, c.n);
      near(e.lower, c.exact[0], 1e-10, 1e-15, `Clopper-Pearson ${c.k}/${c.n}`);
      near(e.upper, c.exact[1], 1e-10, 1e-15, `Clopper-Pearson ${c.k}/${c.n}`);
    }
  });

  it('type-7 quantiles (NumPy linear) and normalised entropy (SciPy)', () => {
    for (const c of scipy.quantile7)
      c.q.forEach((q: number, j: number) => near(stats.quantile7(c.x, q), c.value[j], 1e-14, 1e-15, `q ${q}`));
    for (const c of scipy.entropy) {
      const h = stats.normalizedEntropy(c.counts);
      near(h.nats, c.nats, 1e-13, 1e-15, `entropy of ${c.counts}`);
      near(h.normalized, c.normalized, 1e-13, 1e-15, `normalised entropy of ${c.counts}`);
    }
  });

  it("Cohen's kappa against psych::cohen.kappa", () => {
    for (const [i, c] of r.cohen_kappa.entries()) near(stats.twoRaterAgreement(c.a, c.b).kappa, c.kappa, 1e-12, 1e-14, `case ${i}`);
  });
});

describe('correlation matrices and factor analysis against R and psych', () => {
  it('correlations, squared multiple correlations, KMO, Bartlett, item-rest correlations and principal-axis communalities', () => {
    for (const [i, c] of r.factor.entries()) {
      const R = stats.correlationMatrix(c.data);
      R.forEach((row, a) => row.forEach((v, b) => near(v, c.cor[a][b], 1e-12, 1e-13, `case ${i} cor`)));
      stats.smc(R).forEach((v, a) => near(v, c.smc[a], 1e-9, 1e-12, `case ${i} smc`));
      const k = stats.kmo(R);
      near(k.msa, c.kmo, 1e-10, 1e-12, `case ${i} KMO`);
      k.msaItems.forEach((v, a) => near(v, c.kmo_items[a], 1e-10, 1e-12, `case ${i} KMO item ${a}`));
      const b = stats.bartlett(R, c.data.length);
      near(b.chisq, c.bartlett.chisq, 1e-10, 1e-10, `case ${i} Bartlett`);
      expect(b.df).toBe(c.bartlett.df);
      nearP(b.p, c.bartlett['p.value'], `case ${i} Bartlett p`);
      stats.itemRestCorrelation(c.data).forEach((v, a) => near(v!, c.item_rest[a], 1e-12, 1e-13, `case ${i} item-rest`));
      if (c.communality_1 !== null)
        stats
          .factorAnalysis(R, 1, 'none')
          .communalities.forEach((v, a) => near(v, c.communality_1[a], 1e-10, 1e-12, `case ${i} h2 (1 factor)`));
    }
  });
});
