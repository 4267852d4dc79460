// Confirmatory factor analysis by maximum likelihood on a correlation matrix: a pattern of
// loadings (which indicator loads on which factor), factors with unit variance that are either
// correlated (free correlations) or orthogonal (a bifactor model), and free residual variances.
// Sigma = Lambda Phi Lambda' + Psi; the fit function is lavaan's ML discrepancy
// F = log|Sigma| + tr(S Sigma^-1) - log|S| - p, minimised by Fisher scoring (the expected
// information tr(Sigma^-1 dSigma_a Sigma^-1 dSigma_b)) with step halving; the statistic is N F.
// ML is invariant to the scale of the indicators, so fitting the correlation matrix gives the
// chi-square and the standardised solution that fitting the covariance matrix gives. Residual
// variances are not bounded (as lavaan's default): a negative one is a Heywood case, reported.

import { mlMatrix } from './ml-matrix.js';
import { cfaFitIndices, type CfaFitIndices } from './cfa-fit-indices.js';

export interface CfaModel {
  /** For each factor, the indices of the indicators that load on it. */
  factors: Array<{ name: string; indicators: number[] }>;
  /** Factors uncorrelated (a bifactor model); otherwise every pair of factors has a free correlation. */
  orthogonal: boolean;
}

export interface CfaResult extends CfaFitIndices {
  converged: boolean;
  iterations: number;
  /** The minimum of the ML fit function (chisq / N). */
  fmin: number;
  /** Free parameters. */
  parameters: number;
  /** Standardised loadings, indicators x factors (0 where the pattern fixes a loading at 0). */
  loadings: number[][];
  /** Factor correlations (the identity for orthogonal factors). */
  factorCorrelations: number[][];
  /** Standardised residual variances; a negative one is a Heywood case. */
  residualVariances: number[];
  /** Indicators whose residual variance is negative. */
  heywood: number[];
}

type Mat = number[][];

export interface CfaOptions {
  /** Fisher-scoring iterations at most (default 300). */
  maxIter?: number;
  /** Starting loadings (indicators x factors, in the matrix's metric; a 0 in a free place starts at 0.2). */
  start?: { loadings?: number[][] };
}

const zeros = (r: number, c: number): Mat => Array.from({ length: r }, () => new Array<number>(c).fill(0));

function multiply(a: Mat, b: Mat): Mat {
  const out = zeros(a.length, b[0]!.length);
  for (let i = 0; i < a.length; i++)
    for (let k = 0; k < b.length; k++) {
      const v = a[i]![k]!;
      if (v !== 0) for (let j = 0; j < b[0]!.length; j++) out[i]![j]! += v * b[k]![j]!;
    }
  return out;
}

/** Inverse and log-determinant of a symmetric matrix by Cholesky; null when it is not positive definite. */
function cholInverse(m: Mat): { inverse: Mat; logDet: number } | null {
  const { Matrix, CholeskyDecomposition } = mlMatrix();
  const c = new CholeskyDecomposition(new Matrix(m));
  if (!c.isPositiveDefinite()) return null;
  const L = c.lowerTriangularMatrix;
  let logDet = 0;
  for (let i = 0; i < m.length; i++) logDet += 2 * Math.log(L.get(i, i));
  return { inverse: c.solve(Matrix.eye(m.length)).to2DArray(), logDet };
}

/** One free parameter: a loading (indicator, factor), a factor correlation (f, g) or a residual variance (indicator). */
type Param = { kind: 'loading'; i: number; f: number } | { kind: 'correlation'; f: number; g: number } | { kind: 'residual'; i: number };

/** Fit a confirmatory factor model to a correlation (or covariance) matrix S of n observations by ML. */
export function fitCfa(S: Mat, n: number, model: CfaModel, opts: CfaOptions = {}): CfaResult {
  const p = S.length;
  const m = model.factors.length;
  const params: Param[] = [];
  model.factors.forEach((fac, f) => {
    for (const i of fac.indicators) {
      if (!(i >= 0 && i < p)) throw new RangeError(`fitCfa: factor ${fac.name} names indicator ${i}, outside 0..${p - 1}`);
      params.push({ kind: 'loading', i, f });
    }
  });
  if (!model.orthogonal) for (let f = 0; f < m; f++) for (let g = 0; g < f; g++) params.push({ kind: 'correlation', f, g });
  for (let i = 0; i < p; i++) params.push({ kind: 'residual', i });
  const q = params.length;
  const df = (p * (p + 1)) / 2 - q;
  const sample = cholInverse(S);
  if (!sample)
    throw new RangeError(
      `fitCfa: the ${p} x ${p} sample matrix is not positive definite (ML needs more observations than indicators, and no indicator a combination of others)`,
    );

  // Start: loadings 0.5 (the first factor of an orthogonal model 0.6), or those given (a 0 in a
  // free place 0.2); correlations 0; residual variances the variance less the communality.
  const theta = params.map((par) => {
    if (par.kind !== 'loading') return 0;
    const given = opts.start?.loadings?.[par.i]?.[par.f];
    if (given !== undefined) return given === 0 ? 0.2 : given;
    return (model.orthogonal && par.f === 0 ? 0.6 : 0.5) * Math.sqrt(S[par.i]![par.i]!);
  });
  params.forEach((par, k) => {
    if (par.kind !== 'residual') return;
    const h = params.reduce((s, x, j) => s + (x.kind === 'loading' && x.i === par.i ? theta[j]! ** 2 : 0), 0);
    theta[k] = Math.max(0.05 * S[par.i]![par.i]!, S[par.i]![par.i]! - h);
  });
  const unpack = (th: number[]) => {
    const L = zeros(p, m);
    const Phi = zeros(m, m);
    for (let f = 0; f < m; f++) Phi[f]![f] = 1;
    const psi = new Array<number>(p).fill(0);
    params.forEach((par, k) => {
      if (par.kind === 'loading') L[par.i]![par.f] = th[k]!;
      else if (par.kind === 'correlation') Phi[par.f]![par.g] = Phi[par.g]![par.f] = th[k]!;
      else psi[par.i] = th[k]!;
    });
    return { L, Phi, psi };
  };
  const sigmaOf = (th: number[]) => {
    const { L, Phi, psi } = unpack(th);
    const LPhi = multiply(L, Phi);
    const Sigma = zeros(p, p);
    for (let i = 0; i < p; i++)
      for (let j = 0; j <= i; j++) {
        let v = 0;
        for (let f = 0; f < m; f++) v += LPhi[i]![f]! * L[j]![f]!;
        Sigma[i]![j] = Sigma[j]![i] = v + (i === j ? psi[i]! : 0);
      }
    return { Sigma, L, LPhi };
  };
  const objective = (th: number[]) => {
    const { Sigma } = sigmaOf(th);
    const inv = cholInverse(Sigma);
    if (!inv) return { f: Number.POSITIVE_INFINITY, Sigma, inv: null };
    let tr = 0;
    for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) tr += S[i]![j]! * inv.inverse[j]![i]!;
    return { f: inv.logDet + tr - sample.logDet - p, Sigma, inv };
  };
  /** The gradient tr(G dSigma_a), G = Sigma^-1 (Sigma - S) Sigma^-1, and the expected information. */
  const scoring = (th: number[], Si: Mat) => {
    const { L, LPhi } = sigmaOf(th);
    const unit = (i: number) => Array.from({ length: p }, (_, j) => (j === i ? 1 : 0));
    const column = (A: Mat, f: number) => A.map((row) => row[f]!);
    // dSigma_a as a sum of outer products x y'.
    const dSigma = params.map((par): Array<[number[], number[]]> => {
      if (par.kind === 'loading') {
        const u = column(LPhi, par.f);
        return [
          [unit(par.i), u],
          [u, unit(par.i)],
        ];
      }
      if (par.kind === 'correlation') {
        const a = column(L, par.f);
        const b = column(L, par.g);
        return [
          [a, b],
          [b, a],
        ];
      }
      return [[unit(par.i), unit(par.i)]];
    });
    // Sigma^-1 dSigma_a, dense.
    const M = dSigma.map((terms) => {
      const out = zeros(p, p);
      for (const [x, y] of terms) {
        const sx = Si.map((row) => row.reduce((s, v, k) => s + v * x[k]!, 0));
        for (let i = 0; i < p; i++) if (sx[i] !== 0) for (let j = 0; j < p; j++) out[i]![j]! += sx[i]! * y[j]!;
      }
      return out;
    });
    const SiSSi = multiply(multiply(Si, S), Si);
    const G = Si.map((row, i) => row.map((v, j) => v - SiSSi[i]![j]!));
    const grad = dSigma.map((terms) =>
      terms.reduce(
        (s, [x, y]) => s + x.reduce((t, xi, i) => (xi === 0 ? t : t + xi * y.reduce((u, yj, j) => u + G[i]![j]! * yj, 0)), 0),
        0,
      ),
    );
    const info = zeros(q, q);
    for (let a = 0; a < q; a++)
      for (let b = 0; b <= a; b++) {
        let t = 0;
        const Ma = M[a]!;
        const Mb = M[b]!;
        for (let i = 0; i < p; i++) for (let j = 0; j < p; j++) t += Ma[i]![j]! * Mb[j]![i]!;
        info[a]![b] = info[b]![a] = t;
      }
    return { grad, info };
  };

  const maxIter = opts.maxIter ?? 300;
  let current = objective(theta);
  if (!current.inv) throw new RangeError('fitCfa: the starting model-implied matrix is not positive definite');
  let iterations = 0;
  let converged = false;
  // Levenberg-Marquardt damping of the information matrix, raised while a step fails to lower F.
  let damping = 0;
  const { Matrix, solve } = mlMatrix();
  while (iterations < maxIter && !converged) {
    iterations++;
    const { grad, info } = scoring(theta, current.inv!.inverse);
    if (Math.max(...grad.map(Math.abs)) < 1e-10) {
      converged = true;
      break;
    }
    let accepted = false;
    while (!accepted && damping <= 1e8) {
      const damped = info.map((row, a) => row.map((v, b) => (a === b ? v * (1 + damping) + 1e-12 : v)));
      const step = solve(new Matrix(damped), Matrix.columnVector(grad)).to1DArray();
      if (step.every(Number.isFinite))
        for (let halving = 0, scale = 1; halving < 12 && !accepted; halving++, scale /= 2) {
          const next = theta.map((v, k) => v - scale * step[k]!);
          const trial = objective(next);
          if (trial.f <= current.f) {
            const change = current.f - trial.f;
            const moved = Math.max(...step.map((x) => Math.abs(x * scale)));
            theta.splice(0, q, ...next);
            current = trial;
            accepted = true;
            if (change < 1e-14 && moved < 1e-8) converged = true;
          }
        }
      damping = accepted ? (damping < 1e-6 ? 0 : damping / 10) : Math.max(1e-4, damping * 10);
    }
    if (!accepted) {
      // No step lowers F any more: converged when the gradient is all but zero.
      converged = Math.max(...grad.map(Math.abs)) < 1e-6;
      break;
    }
  }

  // The standardised solution: each factor's sign turned so its loadings sum to a positive number.
  const { L, Phi, psi } = unpack(theta);
  const Sigma = current.Sigma;
  const sign = Array.from({ length: m }, (_, f) => (L.reduce((s, row) => s + row[f]!, 0) < 0 ? -1 : 1));
  const sd = Sigma.map((row, i) => Math.sqrt(row[i]!));
  const loadings = L.map((row, i) => row.map((v, f) => (sign[f]! * v) / sd[i]!));
  const factorCorrelations = Phi.map((row, f) => row.map((v, g) => sign[f]! * sign[g]! * v));
  const residualVariances = psi.map((v, i) => v / sd[i]! ** 2);
  const chisq = n * current.f;
  // The independence model: F = sum log S_ii - log|S|.
  const baselineF = S.reduce((s, row, i) => s + Math.log(row[i]!), 0) - sample.logDet;
  return {
    converged,
    iterations,
    fmin: current.f,
    parameters: q,
    loadings,
    factorCorrelations,
    residualVariances,
    heywood: residualVariances.flatMap((v, i) => (v < 0 ? [i] : [])),
    ...cfaFitIndices({ chisq, df, baselineChisq: n * baselineF, baselineDf: (p * (p - 1)) / 2, n, sample: S, implied: Sigma }),
  };
}
