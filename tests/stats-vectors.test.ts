// mindscope/stats against the reference vectors in tests/fixtures/vectors (R, scipy, statsmodels,
// irrCAC); tolerance 1e-4 as the vectors' README states, tighter where the values are exact.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as stats from '../src/stats/index.js';
import { parseCsv } from '../src/core/index.js';

const V = join(__dirname, 'fixtures', 'vectors');
const json = (name: string) => JSON.parse(readFileSync(join(V, name), 'utf8'));
function csv(name: string): { header: string[]; rows: string[][] } {
  const [header, ...rows] = parseCsv(readFileSync(join(V, name), 'utf8')).map((r) => r.fields);
  if (!header) throw new Error(`${name} is empty`);
  return { header, rows };
}
const numericColumns = (name: string) => {
  const { header, rows } = csv(name);
  return header.map((_, j) => rows.map((r) => Number(r[j])));
};
type Columns<N extends number, A extends number[][] = []> = A['length'] extends N ? A : Columns<N, [...A, number[]]>;
/** The first `n` columns of a vector file, for destructuring; throws where it has fewer. */
function leadingColumns<N extends number>(name: string, n: N): Columns<N> {
  const cols = numericColumns(name);
  if (cols.length < n) throw new Error(`${name} has ${cols.length} columns, not ${n}`);
  return cols.slice(0, n) as Columns<N>;
}
const close = (actual: number, expected: number, tol = 1e-4) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol);

describe('correlation', () => {
  it('Kendall tau-b with ties, z and p (R cor.test, exact = FALSE)', () => {
    const [x, y] = leadingColumns('kendall_taub_ties.csv', 2);
    const e = json('kendall_taub_ties.expected.json');
    const r = stats.kendallTauB(x, y);
    close(r.tau, e.tau_b, 1e-12);
    close(r.z, e.z, 1e-9);
    close(r.p, e.p_two_sided, 1e-12);
    close(r.zContinuity, e.z_continuity, 1e-9);
    close(r.pContinuity, e.p_two_sided_continuity, 1e-12);
  });

  it('partial Kendall: ppcor inverse method with one and two controls', () => {
    const [a, b, size, recency] = leadingColumns('partial_kendall.csv', 4);
    const e = json('partial_kendall.expected.json');
    const one = stats.partialKendall(a, b, [size], 'inverse');
    close(one.estimate, e.partial_given_size.estimate, 1e-10);
    close(one.statistic, e.partial_given_size.statistic, 1e-8);
    close(one.p, e.partial_given_size.p_value, 1e-10);
    const two = stats.partialKendall(a, b, [size, recency], 'inverse');
    close(two.estimate, e.partial_given_size_recency.estimate, 1e-10);
    close(two.statistic, e.partial_given_size_recency.statistic, 1e-8);
    close(two.p, e.partial_given_size_recency.p_value, 1e-10);
    // The pairwise tau matrix the inverse method starts from.
    const cols = [a, b, size, recency];
    e.tau_matrix.forEach((row: number[], i: number) =>
      row.forEach((t, j) => i !== j && close(stats.kendallTauB(cols[i]!, cols[j]!).tau, t, 1e-12)),
    );
  });

  it('partial Kendall, residual method: tau-b of OLS residuals', () => {
    const [a, b, size] = leadingColumns('partial_kendall.csv', 3);
    const ra = stats.olsResiduals(a, [size]);
    const rb = stats.olsResiduals(b, [size]);
    // Residuals are orthogonal to the control and sum to zero.
    close(
      ra.reduce((s, v, i) => s + v * size[i]!, 0),
      0,
      1e-9,
    );
    close(
      ra.reduce((s, v) => s + v, 0),
      0,
      1e-9,
    );
    expect(stats.partialKendall(a, b, [size], 'residual').estimate).toBe(stats.kendallTauB(ra, rb).tau);
  });

  it('Pearson and Spearman', () => {
    expect(stats.pearson([1, 2, 3, 4], [2, 4, 6, 8])).toBeCloseTo(1, 12);
    expect(stats.spearman([1, 2, 3, 4, 5], [5, 6, 7, 8, 7])).toBeCloseTo(0.8207826816681233, 12); // scipy.stats.spearmanr
    expect(Number.isNaN(stats.pearson([1, 1, 1], [1, 2, 3]))).toBe(true);
  });
});

describe('multiple comparisons', () => {
  it('Holm, Bonferroni and Benjamini-Hochberg as p.adjust, missing values kept missing', () => {
    const e = json('holm.expected.json');
    stats.holm(e.p).forEach((v, i) => close(v!, e.holm[i], 1e-12));
    stats.bonferroni(e.p).forEach((v, i) => close(v!, e.bonferroni[i], 1e-12));
    stats.benjaminiHochberg(e.p).forEach((v, i) => close(v!, e.BH[i], 1e-12));
    const withNa = stats.holm(e.with_NA.p);
    expect(withNa.map((v) => (v === null ? null : Number(v.toFixed(12))))).toEqual(e.with_NA.holm);
  });
});

describe('bootstrap', () => {
  it('reproduces the given item resamples, their taus and the type-7 percentile interval', () => {
    const e = json('bootstrap_tau.expected.json');
    const A = numericColumns('binary_A_27x200.csv'); // columns = items
    const B = numericColumns('binary_B_27x150.csv');
    const acc = (cols: number[][], idx: number[]) =>
      Array.from({ length: 27 }, (_, m) => idx.reduce((s, j) => s + cols[j]![m]!, 0) / idx.length);
    close(stats.kendallTauB(e.accA, e.accB).tau, e.tau_b_point, 1e-12);
    const reps = e.idxA.map((ia: number[], b: number) => stats.kendallTauB(acc(A, ia), acc(B, e.idxB[b])).tau);
    reps.forEach((t: number, b: number) => close(t, e.replicate_tau[b], 1e-12));
    close(stats.quantile7(reps, 0.025), e.ci95_percentile[0], 1e-12);
    close(stats.quantile7(reps, 0.975), e.ci95_percentile[1], 1e-12);
  });

  it('is seeded: same seed, same replicates', () => {
    const x = [3, 1, 4, 1, 5, 9, 2, 6];
    const f = (idx: Int32Array) => Array.from(idx).reduce((s, i) => s + x[i]!, 0) / idx.length;
    const a = stats.bootstrap(x.length, f, { seed: 7, iterations: 200 });
    const b = stats.bootstrap(x.length, f, { seed: 7, iterations: 200 });
    expect(Array.from(a.replicates)).toEqual(Array.from(b.replicates));
    expect(a.lower).toBeLessThan(a.estimate);
    expect(a.upper).toBeGreaterThan(a.estimate);
  });
});

describe('classical test theory', () => {
  it('item-rest correlations, null for zero-variance items', () => {
    const e = json('ctt_pointbiserial.expected.json');
    const cols = numericColumns('binary_A_27x200.csv');
    const matrix = Array.from({ length: 27 }, (_, i) => cols.map((c) => c[i]!));
    const r = stats.itemRestCorrelation(matrix);
    r.forEach((v, j) => (e.r_drop[j] === null ? expect(v).toBeNull() : close(v!, e.r_drop[j], 1e-10)));
    expect(r.map((v, j) => (v === null ? j + 1 : 0)).filter(Boolean)).toEqual(e.zero_variance_items_1based);
  });
});

describe('tests of independence and fit', () => {
  const e = json('chisq_cramer.expected.json');
  it('chi-square on 3x3 and 2x2 (Yates by default), Cramer V', () => {
    const t3 = stats.chiSquareIndependence(e.t3x3.table);
    close(t3.statistic, e.t3x3.X2, 1e-10);
    expect(t3.df).toBe(4);
    close(t3.p, e.t3x3.p, 1e-12);
    close(stats.cramersV(e.t3x3.table), e.t3x3.cramers_v, 1e-12);
    const y = stats.chiSquareIndependence(e.t2x2.table);
    expect(y.yates).toBe(true);
    close(y.statistic, e.t2x2.X2_yates, 1e-10);
    close(y.p, e.t2x2.p_yates, 1e-12);
    const u = stats.chiSquareIndependence(e.t2x2.table, { correct: false });
    close(u.statistic, e.t2x2.X2_uncorrected, 1e-10);
    close(u.p, e.t2x2.p_uncorrected, 1e-12);
    close(stats.cramersV(e.t2x2.table), e.t2x2.cramers_v_uncorrected, 1e-12);
  });
  it('goodness of fit, uniform and given probabilities', () => {
    const a = stats.chiSquareGoodnessOfFit(e.gof_uniform.observed);
    close(a.statistic, e.gof_uniform.X2, 1e-12);
    close(a.p, e.gof_uniform.p, 1e-12);
    const b = stats.chiSquareGoodnessOfFit(e.gof_given_p.observed, e.gof_given_p.p_null);
    close(b.statistic, e.gof_given_p.X2, 1e-12);
    close(b.p, e.gof_given_p.p, 1e-12);
  });
  it('Mann-Whitney U with ties and the rank-biserial r', () => {
    const e2 = json('mannwhitney.expected.json');
    const { rows } = csv('mannwhitney.csv');
    const x = rows.filter((r) => r[0] === 'x').map((r) => Number(r[1]));
    const y = rows.filter((r) => r[0] === 'y').map((r) => Number(r[1]));
    const r = stats.mannWhitneyU(x, y);
    expect(r.u).toBe(e2.U_x);
    expect(r.uOther).toBe(e2.U_y);
    close(r.p, e2.p_two_sided_continuity, 1e-12);
    close(stats.mannWhitneyU(x, y, { correct: false }).p, e2.p_two_sided_no_continuity, 1e-12);
    close(r.rankBiserial, e2.rank_biserial_effectsize, 1e-12);
  });
  it('McNemar corrected, uncorrected and exact', () => {
    const e3 = json('mcnemar.expected.json');
    const r = stats.mcnemar(e3.table);
    close(r.statistic, e3.chi2_corrected, 1e-12);
    close(r.p, e3.p_corrected, 1e-12);
    close(r.pExact, e3.p_exact_binomial, 1e-12);
    const u = stats.mcnemar(e3.table, { correct: false });
    close(u.statistic, e3.chi2_uncorrected, 1e-12);
    close(u.p, e3.p_uncorrected, 1e-12);
    const t2 = stats.mcnemar(e3.table2);
    close(t2.statistic, e3.table2_chi2_corrected, 1e-12);
    close(t2.p, e3.table2_p_corrected, 1e-12);
    close(t2.pExact, e3.table2_p_exact, 1e-12);
  });
});

describe('closed forms', () => {
  it('normalised entropy', () => {
    for (const c of json('entropy.expected.json').cases) {
      const r = stats.normalizedEntropy(c.counts, c.K);
      close(r.nats, c.H_nats, 1e-12);
      close(r.bits, c.H_bits, 1e-12);
      close(r.normalized, c.H_normalized, 1e-12);
    }
  });
  it('pass@k and pass^k', () => {
    for (const c of json('passk.expected.json').cases) {
      close(stats.passAtK(c.n, c.c, c.k), c.pass_at_k, 1e-12);
      close(stats.passHatK(c.n, c.c, c.k), c.pass_hat_k, 1e-12);
    }
  });
  it('binomial standard errors agree with the Wald form the vectors give', () => {
    for (const c of json('binomial_se.expected.json').cases) {
      close(Math.sqrt((c.p * (1 - c.p)) / c.n), c.se_mle, 1e-15);
    }
  });
});

describe('agreement', () => {
  const e = json('agreement.expected.json');
  const read = (name: string) => csv(name).rows.map((r) => r.map((v) => (v === 'NA' || v === '' ? null : v)));
  it.each([
    ['agree_cac_raw4raters.csv', 'cac_raw4raters'],
    ['agree_binary_30x3.csv', 'binary_30x3'],
    ['agree_skewed_20x4.csv', 'skewed_20x4'],
  ])('Gwet AC1 and Fleiss kappa on %s', (file, key) => {
    const d = read(file);
    const ac1 = stats.gwetAC1(d);
    close(ac1.pa, e[key].ac1.pa, 1e-12);
    close(ac1.pe, e[key].ac1.pe, 1e-12);
    close(ac1.coefficient, e[key].ac1.coeff, 1e-12);
    const k = stats.fleissKappa(d);
    close(k.pe, e[key].fleiss.pe, 1e-12);
    close(k.coefficient, e[key].fleiss.coeff, 1e-12);
  });
});

describe('text overlap', () => {
  const e = json('bleu.expected.json');
  it('13a tokenisation', () => {
    e.hyps.forEach((h: string, i: number) => expect(stats.tokenize13a(h)).toBe(e.tokenized_13a.hyps[i]));
    e.refs1.forEach((r: string, i: number) => expect(stats.tokenize13a(r)).toBe(e.tokenized_13a.refs1[i]));
  });
  it('corpus BLEU with one and two references', () => {
    const one = stats.bleu(e.hyps, [e.refs1]);
    close(one.score, e.corpus_1ref.score, 1e-10);
    expect(one.counts).toEqual(e.corpus_1ref.counts);
    expect(one.totals).toEqual(e.corpus_1ref.totals);
    close(one.bp, e.corpus_1ref.bp, 1e-12);
    expect([one.sysLen, one.refLen]).toEqual([e.corpus_1ref.sys_len, e.corpus_1ref.ref_len]);
    const two = stats.bleu(e.hyps, [e.refs1, e.refs2]);
    close(two.score, e.corpus_2ref.score, 1e-10);
    expect(two.refLen).toBe(e.corpus_2ref.ref_len);
  });
  it('sentence BLEU, with and without effective order', () => {
    e.hyps.forEach((h: string, i: number) => {
      const s = stats.sentenceBleu(h, [e.refs1[i]]);
      close(s.score, e.sentence_bleu[i].score, 1e-10);
      expect(s.counts).toEqual(e.sentence_bleu[i].counts);
      close(s.bp, e.sentence_bleu[i].bp, 1e-12);
      close(stats.sentenceBleu(h, [e.refs1[i]], { effectiveOrder: false }).score, e.sentence_bleu_effective_order_false[i], 1e-10);
    });
  });
  it('ROUGE-L as rouge_score, non-ASCII and empty cases included', () => {
    for (const c of json('rougeL.expected.json').cases) {
      const r = stats.rougeL(c.target, c.prediction);
      close(r.precision, c.precision, 1e-12);
      close(r.recall, c.recall, 1e-12);
      close(r.fmeasure, c.fmeasure, 1e-12);
      expect(r.lcs).toBe(c.lcs);
      if (c.target_tokens) expect(stats.rougeTokens(c.target)).toEqual(c.target_tokens);
    }
  });
});

describe('Dawid-Skene', () => {
  it('matches crowd-kit: posteriors, priors, confusion matrices, labels and iterations', () => {
    const e = json('dawid_skene.expected.json');
    const data = csv('dawid_skene_long.csv').rows.map(([task, worker, label]) => ({ task: task!, worker: worker!, label: Number(label) }));
    const r = stats.dawidSkene(data);
    expect(r.tasks).toEqual(e.tasks);
    r.probas.forEach((row, i) => row.forEach((p, k) => close(p, e.probas[i][k], 1e-6)));
    r.priors.forEach((p, k) => close(p, e.priors[k], 1e-6));
    for (const [w, byLabel] of Object.entries(e.errors as Record<string, Record<string, number[]>>)) {
      for (const [l, row] of Object.entries(byLabel)) row.forEach((v, k) => close(r.errors[w]![l]![k]!, v, 1e-6));
    }
    expect(r.aggregated).toEqual(e.labels);
    expect(r.iterations).toBe(e.n_em_iterations_run);
    r.lossHistory.forEach((v, i) => close(v, e.loss_history_elbo_per_label[i], 1e-8));
  });
});

describe('factor analysis', () => {
  const e = json('fa_harman74.expected.json');
  const { rows } = csv('harman74_cor.csv');
  const R = rows.map((r) => r.slice(1).map(Number));
  it('squared multiple correlations, PA loadings, communalities and reduced eigenvalues (psych::fa, fm = "pa")', () => {
    stats.smc(R).forEach((v, i) => close(v, e.smc_start[i], 1e-10));
    const fa = stats.factorAnalysis(R, 4, 'none');
    fa.loadings.forEach((row, i) => row.forEach((v, j) => close(v, e.unrotated_loadings[i][j], 1e-6)));
    fa.communalities.forEach((v, i) => close(v, e.communality[i], 1e-6));
    fa.reducedEigenvalues.forEach((v, i) => close(v, e.reduced_eigenvalues_values[i], 1e-6));
  });
  it('varimax with psych sign and order rules, rotation matrix and SS loadings', () => {
    const fa = stats.factorAnalysis(R, 4, 'varimax');
    fa.loadings.forEach((row, i) => row.forEach((v, j) => close(v, e.varimax_loadings_psych[i][j], 1e-6)));
    fa.ssLoadings.forEach((v, j) => close(v, e.ss_loadings_varimax[j], 1e-6));
    fa.proportionVar.forEach((v, j) => close(v, e.proportion_var_varimax[j], 1e-6));
    // The rotation matrix itself depends on the signs the eigen-solver gives the unrotated
    // factors (LAPACK's in R, ml-matrix's here), so it is checked for being a rotation only.
    const T = fa.rotationMatrix!;
    T.forEach((row, i) =>
      T.forEach((row2, j) =>
        close(
          row.reduce((s, v, k) => s + v * row2[k]!, 0),
          i === j ? 1 : 0,
          1e-10,
        ),
      ),
    );
  });
  it('KMO, Bartlett and PCA variance', () => {
    const k = stats.kmo(R);
    close(k.msa, e.KMO.MSA, 1e-10);
    k.msaItems.forEach((v, i) => close(v, e.KMO.MSAi[i], 1e-10));
    const b = stats.bartlett(R, 145);
    close(b.chisq, e.bartlett.chisq, 1e-6);
    expect(b.df).toBe(276);
    expect(b.p / e.bartlett.p_value).toBeCloseTo(1, 6);
    expect(stats.hasFullRank(R)).toBe(true);
  });
  it('on raw data (bfi, 10 items): loadings, KMO, Bartlett, PCA through the correlation matrix and the Gram matrix', () => {
    const f = json('fa_bfi10.expected.json');
    const data = csv('bfi10_complete.csv').rows.map((r) => r.map(Number));
    const Rb = stats.correlationMatrix(data);
    Rb.forEach((row, i) => row.forEach((v, j) => close(v, f.cor[i][j], 1e-12)));
    const fa = stats.factorAnalysis(Rb, 2, 'varimax');
    fa.loadings.forEach((row, i) => row.forEach((v, j) => close(v, f.varimax_loadings[i][j], 1e-6)));
    close(stats.kmo(Rb).msa, f.KMO_MSA, 1e-10);
    close(stats.bartlett(Rb, data.length).chisq, f.bartlett.chisq, 1e-6);
    const pca = stats.pcaVariance(data);
    pca.proportion.forEach((v, i) => close(v, f.pca_variance_explained[i], 1e-10));
    // Items outnumbering subjects: the Gram-matrix path gives the same non-zero eigenvalues.
    const wide = data.slice(0, 8);
    const viaGram = stats.pcaVariance(wide).eigenvalues;
    const direct = stats.symmetricEigen(new (require('ml-matrix').Matrix)(stats.correlationMatrix(wide))).values;
    viaGram.forEach((v, i) => close(v, Math.max(0, direct[i]!), 1e-8));
  });
});

describe('parallel analysis', () => {
  it('observed eigenvalues exactly, and the same decision as psych (2 factors, 2 components) for several seeds', () => {
    const e = json('parallel_binary.expected.json');
    const data = csv('parallel_binary_400x16.csv').rows.map((r) => r.map(Number));
    for (const seed of [1, 2, 3, 4, 5]) {
      const r = stats.parallelAnalysis(data, { seed, iterations: 20 });
      r.observedPc.forEach((v, i) => close(v, e.observed_pc_values[i], 1e-8));
      r.observedFa.forEach((v, i) => close(v, e.observed_fa_values_pa_1factor[i], 1e-6));
      expect([r.nFactors, r.nComponents]).toEqual([2, 2]);
    }
    // Simulated curves depend on the generator: within 0.05 of psych's 100-iteration means.
    const r = stats.parallelAnalysis(data, { seed: 1, iterations: 100 });
    r.simulatedPcMean.forEach((v, i) => close(v, e.seed1_niter100.simulated_pc_mean[i], 0.05));
    r.resampledPcMean.forEach((v, i) => close(v, e.seed1_niter100.resampled_pc_mean[i], 0.05));
  });
});

describe('principal axes for wide data', () => {
  it('reaches the same communalities as the p x p algorithm (bfi, 150 rows, run to convergence)', () => {
    // The Gram path is meant for wide data; on these 150 x 10 rows it must agree all the same.
    const data = csv('bfi10_complete.csv')
      .rows.slice(0, 150)
      .map((r) => r.map(Number));
    const full = stats.paf(stats.correlationMatrix(data), 2, { minErr: 1e-10, maxIter: 1000 });
    const wide = stats.pafWide(data, 2, { minErr: 1e-10, maxIter: 1000 });
    wide.communalities.forEach((h, i) => close(h, full.communalities[i]!, 1e-7));
    expect(wide.startingCommunalities).toBe('principal-components');
  });
});
