// The leading eigenpairs of a symmetric operator known only through products with vectors:
// Lanczos with full reorthogonalisation. Krylov vectors are kept and orthogonalised twice
// against all earlier ones (and against given deflation vectors), so the Ritz values are as
// accurate as a dense decomposition once their residuals are small; every few steps the small
// tridiagonal matrix is diagonalised (eigenvalues and the last row of its eigenvectors only,
// O(m^2)) and the run stops when the wanted Ritz pairs' residual bounds |beta_m s_mi| fall
// below tol * |theta_1|. An exhausted Krylov space restarts from a new seeded vector, so the
// method also finds eigenvalues whose eigenvectors the start vector misses. A run can be taken
// on to more eigenvalues than it first stopped at (lanczosRun), and forms only the eigenvectors
// asked for.

import { createRng } from '../core/random.js';

export interface LeadingEigen {
  /** The k largest eigenvalues, descending. */
  values: number[];
  /** Their unit eigenvectors (the first `vectors` of them when that option is given). */
  vectors: Float64Array[];
  /** Operator products used. */
  products: number;
}

/**
 * Eigenvalues (descending) of the symmetric tridiagonal matrix with diagonal d and
 * off-diagonal e (e[i] couples i and i + 1), and the given rows of its eigenvectors
 * (rows[r][j]: component rows[r] of eigenvector j). Implicit QL (tql2 of EISPACK / JAMA).
 */
export function tridiagonalEigen(d0: ArrayLike<number>, e0: ArrayLike<number>, rows: number[]): { values: number[]; rows: Float64Array[] } {
  const n = d0.length;
  const d = Float64Array.from(d0);
  const e = new Float64Array(n);
  for (let i = 0; i + 1 < n; i++) e[i] = e0[i]!;
  const V = rows.map((r) => {
    const v = new Float64Array(n);
    v[r] = 1;
    return v;
  });
  let f = 0;
  let tst1 = 0;
  const eps = Number.EPSILON;
  for (let l = 0; l < n; l++) {
    tst1 = Math.max(tst1, Math.abs(d[l]!) + Math.abs(e[l]!));
    let m = l;
    while (m < n && Math.abs(e[m]!) > eps * tst1) m++;
    if (m > l) {
      for (let guard = 0; ; guard++) {
        if (guard > 60) throw new Error('tridiagonalEigen: no convergence');
        let g = d[l]!;
        let p = (d[l + 1]! - g) / (2 * e[l]!);
        let r = Math.hypot(p, 1);
        if (p < 0) r = -r;
        d[l] = e[l]! / (p + r);
        d[l + 1] = e[l]! * (p + r);
        const dl1 = d[l + 1]!;
        let h = g - d[l]!;
        for (let i = l + 2; i < n; i++) d[i]! -= h;
        f += h;
        p = d[m]!;
        let c = 1;
        let c2 = c;
        let c3 = c;
        const el1 = e[l + 1]!;
        let s = 0;
        let s2 = 0;
        for (let i = m - 1; i >= l; i--) {
          c3 = c2;
          c2 = c;
          s2 = s;
          g = c * e[i]!;
          h = c * p;
          r = Math.hypot(p, e[i]!);
          e[i + 1] = s * r;
          s = e[i]! / r;
          c = p / r;
          p = c * d[i]! - s * g;
          d[i + 1] = h + s * (c * g + s * d[i]!);
          for (const v of V) {
            const t = v[i + 1]!;
            v[i + 1] = s * v[i]! + c * t;
            v[i] = c * v[i]! - s * t;
          }
        }
        p = (-s * s2 * c3 * el1 * e[l]!) / dl1;
        e[l] = s * p;
        d[l] = c * p;
        if (!(Math.abs(e[l]!) > eps * tst1)) break;
      }
    }
    d[l] = d[l]! + f;
    e[l] = 0;
  }
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => d[b]! - d[a]! || a - b);
  return { values: order.map((i) => d[i]!), rows: V.map((v) => Float64Array.from(order, (i) => v[i]!)) };
}

/** a . b in four interleaved sums (four independent chains of additions rather than one). */
function dot(a: Float64Array, b: Float64Array): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  const n = a.length;
  let i = 0;
  for (; i + 3 < n; i += 4) {
    s0 += a[i]! * b[i]!;
    s1 += a[i + 1]! * b[i + 1]!;
    s2 += a[i + 2]! * b[i + 2]!;
    s3 += a[i + 3]! * b[i + 3]!;
  }
  for (; i < n; i++) s0 += a[i]! * b[i]!;
  return s0 + s1 + (s2 + s3);
}

/** Orthogonalise v against the unit vectors in `basis` (twice: classical Gram-Schmidt, reorthogonalised). */
function orthogonalise(v: Float64Array, basis: Float64Array[]): void {
  for (let pass = 0; pass < 2; pass++) {
    for (const q of basis) {
      const c = dot(v, q);
      if (c !== 0) for (let i = 0; i < v.length; i++) v[i]! -= c * q[i]!;
    }
  }
}

export interface LanczosOptions {
  start?: ArrayLike<number>;
  deflate?: Float64Array[];
  tol?: number;
  seed?: number | string;
  /** How many of the k eigenvectors to form (default all; 0 for the values alone). */
  vectors?: number;
}

/**
 * The k largest eigenvalues and eigenvectors of the symmetric n x n operator `apply` (y = A x),
 * restricted to the orthogonal complement of the unit vectors in `deflate` (which must span an
 * invariant subspace, e.g. known null vectors). `start` warm-starts the run (a vector close to
 * the leading eigenvector saves products); otherwise the start is a seeded random vector.
 */
export function lanczosLeading(
  apply: (x: Float64Array, y: Float64Array) => void,
  n: number,
  k: number,
  opts: LanczosOptions = {},
): LeadingEigen {
  const dim = n - (opts.deflate?.length ?? 0);
  if (k < 1 || k > dim) throw new Error(`lanczosLeading: k = ${k} outside 1..${dim}`);
  return lanczosRun(apply, n, opts).leading(k, opts.vectors);
}

/**
 * A Lanczos run that can be taken further: leading(k) iterates until the k largest Ritz pairs
 * have converged and returns them; a later leading(k2) with k2 > k continues the same Krylov
 * space (no product is repeated) until k2 pairs have. One call gives what lanczosLeading gives.
 */
export function lanczosRun(
  apply: (x: Float64Array, y: Float64Array) => void,
  n: number,
  opts: Omit<LanczosOptions, 'vectors'> = {},
): { leading(k: number, vectors?: number): LeadingEigen } {
  const deflate = opts.deflate ?? [];
  const dim = n - deflate.length;
  const tol = opts.tol ?? 1e-10;
  const rng = createRng(opts.seed ?? 'lanczos');
  const Q: Float64Array[] = [];
  const alpha: number[] = [];
  const beta: number[] = [];
  let products = 0;
  const fresh = (from?: ArrayLike<number>): Float64Array | undefined => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const v = Float64Array.from({ length: n }, () => rng.next() - 0.5);
      if (from && attempt === 0) {
        // A warm start keeps a trace of a random vector: an exact eigenvector alone would make
        // the Krylov space invariant after one product and hide the other directions.
        const size = Math.sqrt(dot(v, v));
        let norm = 0;
        for (let i = 0; i < n; i++) norm += from[i]! * from[i]!;
        norm = Math.sqrt(norm);
        for (let i = 0; i < n; i++) v[i] = from[i]! / norm + (1e-4 * v[i]!) / size;
      }
      orthogonalise(v, deflate);
      orthogonalise(v, Q);
      const norm = Math.sqrt(dot(v, v));
      if (norm > 1e-8) {
        for (let i = 0; i < n; i++) v[i]! /= norm;
        return v;
      }
    }
    return undefined;
  };
  let q: Float64Array | undefined = fresh(opts.start);
  if (!q) throw new Error('lanczosLeading: no start vector outside the deflated space');
  const w = new Float64Array(n);
  let scale = 0;
  let checkAt = 0;
  // Where a returned run stopped: the residual r and its norm b, not yet turned into the next vector.
  let pending: { r: Float64Array; b: number; invariant: boolean } | undefined;
  // The next Krylov vector from the last residual (a new direction when the space is invariant); undefined when none is left.
  const advance = (p: { r: Float64Array; b: number; invariant: boolean }): Float64Array | undefined => {
    if (p.invariant) {
      const next = fresh();
      if (next) beta.push(0);
      return next;
    }
    beta.push(p.b);
    for (let i = 0; i < n; i++) p.r[i]! /= p.b;
    return p.r;
  };
  const leading = (k: number, vectors = k): LeadingEigen => {
    if (k < 1 || k > dim) throw new Error(`lanczosLeading: k = ${k} outside 1..${dim}`);
    const wanted = Math.min(k, vectors);
    if (checkAt === 0) checkAt = Math.max(k + 2, 8);
    if (pending) {
      const m = Q.length;
      if (m >= dim) return ritz(Q, alpha, beta, Math.min(k, m), Math.min(wanted, m), products);
      q = advance(pending);
      pending = undefined;
      if (!q) return ritz(Q, alpha, beta, Math.min(k, Q.length), Math.min(wanted, Q.length), products);
    }
    for (;;) {
      Q.push(q!);
      apply(q!, w);
      products++;
      const a = dot(w, q!);
      alpha.push(a);
      scale = Math.max(scale, Math.abs(a));
      const r = Float64Array.from(w);
      orthogonalise(r, deflate);
      orthogonalise(r, Q);
      const b = Math.sqrt(dot(r, r));
      const m = Q.length;
      const exhausted = m >= dim;
      const invariant = b <= 1e-12 * Math.max(scale, b);
      if (exhausted || m >= checkAt || invariant) {
        const t = tridiagonalEigen(alpha, beta, [m - 1]);
        const bottom = t.rows[0]!;
        const top = Math.max(Math.abs(t.values[0]!), Number.MIN_VALUE);
        const converged = m >= k && t.values.slice(0, k).every((_, i) => Math.abs(b * bottom[i]!) <= tol * top);
        if (exhausted || converged) {
          pending = { r, b, invariant };
          return ritz(Q, alpha, beta, k, wanted, products);
        }
        checkAt = m + Math.max(4, Math.ceil(m / 4));
      }
      // An invariant Krylov space continues from a new direction (the matrix splits here).
      q = advance({ r, b, invariant });
      if (!q) return ritz(Q, alpha, beta, Math.min(k, Q.length), Math.min(wanted, Q.length), products);
    }
  };
  return { leading };
}

/** Ritz pairs from the Lanczos basis Q and its tridiagonal matrix: k values, the first `wanted` vectors. */
function ritz(Q: Float64Array[], alpha: number[], beta: number[], k: number, wanted: number, products: number): LeadingEigen {
  const m = Q.length;
  // Without vectors the eigenvector rows are not tracked (the values do not depend on them).
  const t = tridiagonalEigen(alpha, beta.slice(0, m - 1), wanted > 0 ? Array.from({ length: m }, (_, i) => i) : []);
  const n = Q[0]!.length;
  const vectors = Array.from({ length: wanted }, (_, j) => {
    const v = new Float64Array(n);
    for (let i = 0; i < m; i++) {
      const c = t.rows[i]![j]!;
      const qi = Q[i]!;
      for (let x = 0; x < n; x++) v[x]! += c * qi[x]!;
    }
    return v;
  });
  return { values: t.values.slice(0, k), vectors, products };
}
