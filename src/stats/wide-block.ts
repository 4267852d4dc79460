// Wide data (variables far outnumbering observations, as items x models): the n x p block is
// kept row-major (each observation's p values contiguous) and standardised with the scale
// 1/sqrt(n-1), so that the p x p correlation matrix is R = Z'Z and never has to be formed.
// Everything the wide factor methods need reduces to n x n weighted Gram matrices
// G_k = sum_j d_j^k z_j z_j', each entry a contiguous dot product of two rows.

import type { Matrix } from 'ml-matrix';
import { mlMatrix } from './ml-matrix.js';
import { blockGramWasm, gramOfWrittenRows, pairDotsWasm } from './pair-dots-wasm.js';

/**
 * Columns are visited in chunks small enough that all n rows of a chunk (of z and of a scaled
 * copy) stay in cache while every pair of rows is multiplied: otherwise each of the n^2/2 dot
 * products streams two whole rows from memory.
 */
const CHUNK = 256;

let scratch = new Float64Array(0);

/** A standardised wide data matrix with the n x n Gram products that PCA and factor analysis of wide data need. */
export class WideBlock {
  private constructor(
    /** z[i * p + j]: observation i, variable j, standardised and scaled by 1/sqrt(n-1). */
    readonly z: Float64Array,
    readonly n: number,
    readonly p: number,
  ) {}

  /** From raw row-major values (raw[i * p + j]); a constant variable is an error. */
  static standardize(raw: ArrayLike<number>, n: number, p: number, out = new Float64Array(n * p)): WideBlock {
    const mean = new Float64Array(p);
    const ss = new Float64Array(p);
    for (let i = 0; i < n; i++) for (let j = 0; j < p; j++) mean[j]! += raw[i * p + j]!;
    for (let j = 0; j < p; j++) mean[j]! /= n;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < p; j++) {
        const c = raw[i * p + j]! - mean[j]!;
        out[i * p + j] = c;
        ss[j]! += c * c;
      }
    }
    for (let j = 0; j < p; j++) {
      if (!(ss[j]! > 0)) throw new Error(`variable ${j} is constant; drop it first`);
      ss[j] = 1 / Math.sqrt(ss[j]!);
    }
    for (let i = 0; i < n; i++) for (let j = 0; j < p; j++) out[i * p + j]! *= ss[j]!;
    return new WideBlock(out, n, p);
  }

  /** From n rows of p values (observations x variables). */
  static fromRows(data: ArrayLike<ArrayLike<number>>): WideBlock {
    const n = data.length;
    const p = data[0]!.length;
    const raw = new Float64Array(n * p);
    for (let i = 0; i < n; i++) for (let j = 0; j < p; j++) raw[i * p + j] = data[i]![j]!;
    return WideBlock.standardize(raw, n, p);
  }

  /** Wraps an already standardised row-major block (each variable mean 0, sum of squares 1). */
  static ofStandardized(z: Float64Array, n: number, p: number): WideBlock {
    return new WideBlock(z, n, p);
  }

  /** G_0 = ZZ' (n x n), whose non-zero eigenvalues are those of R. */
  gram(): Matrix {
    return symmetricFrom(this.#pairDots(), this.n);
  }

  /** G_0 = ZZ' as a full row-major n x n array. */
  gramArray(): Float64Array {
    return mirror(this.#pairDots(), this.n);
  }

  /** G_1 = sum_j d_j z_j z_j' as a full row-major n x n array. */
  weightedGramArray(d: Float64Array): Float64Array {
    return mirror(this.#pairDots(d), this.n);
  }

  /** G_1 = sum_j d_j z_j z_j' alone. */
  weightedGram(d: Float64Array): Matrix {
    return symmetricFrom(this.#pairDots(d), this.n);
  }

  /** Pair dots of z with z (or with z diag(d)): the rows stay in the kernel's memory for the block's next call. */
  #pairDots(d?: Float64Array): Float64Array {
    const { z, n, p } = this;
    return blockGramWasm(this, z, n, p, CHUNK, d) ?? pairDotsJs(z, d ? this.#scaled(d) : z, n, p);
  }

  #scaled(d: Float64Array): Float64Array {
    const { z, n, p } = this;
    // One scratch buffer for all blocks: parallel analysis makes forty blocks of the same size.
    if (scratch.length < n * p) scratch = new Float64Array(n * p);
    const y = scratch;
    for (let i = 0; i < n; i++) for (let j = 0; j < p; j++) y[i * p + j] = z[i * p + j]! * d[j]!;
    return y;
  }

  /** G_1, G_2, G_3 for weights d (G_k = sum_j d_j^k z_j z_j'), in one pass per pair of rows. */
  weightedGrams(d: Float64Array): [Matrix, Matrix, Matrix] {
    const { z, n, p } = this;
    const y = this.#scaled(d);
    const g1 = new Float64Array(n * n);
    const g2 = new Float64Array(n * n);
    const g3 = new Float64Array(n * n);
    for (let lo = 0; lo < p; lo += CHUNK) {
      const hi = Math.min(p, lo + CHUNK);
      for (let a = 0; a < n; a++) {
        const ra = a * p;
        for (let b = a; b < n; b++) {
          const rb = b * p;
          let s1 = 0;
          let s2 = 0;
          let s3 = 0;
          for (let j = lo; j < hi; j++) {
            const yb = y[rb + j]!;
            const yy = y[ra + j]! * yb;
            s1 += z[ra + j]! * yb;
            s2 += yy;
            s3 += yy * d[j]!;
          }
          g1[a * n + b]! += s1;
          g2[a * n + b]! += s2;
          g3[a * n + b]! += s3;
        }
      }
    }
    return [symmetricFrom(g1, n), symmetricFrom(g2, n), symmetricFrom(g3, n)];
  }

  /** Per variable j: z_j . y_0 + d_j (z_j . y_1) (coordinates of a vector in the basis [Z', diag(d) Z']). */
  combine(y0: ArrayLike<number>, y1?: ArrayLike<number>, d?: Float64Array): Float64Array {
    const { z, n, p } = this;
    const a = new Float64Array(p);
    if (!y1) {
      // Z' y0 alone (the second sum would be all zeros).
      for (let i = 0; i < n; i++) {
        const c0 = y0[i]!;
        const row = i * p;
        for (let j = 0; j < p; j++) a[j]! += z[row + j]! * c0;
      }
      return a;
    }
    const b = new Float64Array(p);
    for (let i = 0; i < n; i++) {
      const c0 = y0[i]!;
      const c1 = y1[i]!;
      const row = i * p;
      for (let j = 0; j < p; j++) {
        a[j]! += z[row + j]! * c0;
        b[j]! += z[row + j]! * c1;
      }
    }
    if (d) for (let j = 0; j < p; j++) a[j]! += d[j]! * b[j]!;
    return a;
  }
}

/**
 * Z Z' as a full row-major n x n array, for the n rows of p values that `write` puts into the
 * row-major array it is given (in the Gram kernel's own memory where it runs): the same sums
 * as WideBlock's gramArray, with no array of the rows kept or allocated.
 */
export function gramOfRows(n: number, p: number, write: (rows: Float64Array) => void): Float64Array {
  const fast = gramOfWrittenRows(n, p, CHUNK, write);
  if (fast) return mirror(fast, n);
  const z = new Float64Array(n * p);
  write(z);
  return mirror(pairDotsJs(z, z, n, p), n);
}

/** M M' as a full row-major n x n array, for rows of p values (M row-major); M may be any matrix, its rows are not kept. */
export function rowGram(M: Float64Array, n: number, p: number): Float64Array {
  return mirror(pairDots(M, M, n, p), n);
}

/**
 * out[a * n + b] = sum_j left[a, j] right[b, j] for a <= b (rows of length p, row-major), in
 * cache-sized chunks of columns. Two left rows meet four right rows at a time, so each value
 * loaded serves two to four products and eight sums stay in registers. Every entry is summed
 * in column order within a chunk and chunk by chunk, whatever the blocking.
 */
function pairDots(left: Float64Array, right: Float64Array, n: number, p: number): Float64Array {
  // The same sums two columns at a time in WebAssembly SIMD, where it runs.
  const fast = pairDotsWasm(left, right, n, p, CHUNK);
  if (fast) return fast;
  return pairDotsJs(left, right, n, p);
}

/** The JavaScript kernel (and the reference the WebAssembly one is tested against). */
export function pairDotsJs(left: Float64Array, right: Float64Array, n: number, p: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let lo = 0; lo < p; lo += CHUNK) {
    const hi = Math.min(p, lo + CHUNK);
    let a = 0;
    for (; a + 1 < n; a += 2) {
      const ra = a * p;
      const ra1 = ra + p;
      // Rows a and a + 1 against b >= a (the entry (a + 1, a) is computed and not used).
      let b = a;
      for (; b + 3 < n; b += 4) {
        const r0 = b * p;
        const r1 = r0 + p;
        const r2 = r1 + p;
        const r3 = r2 + p;
        let s00 = 0;
        let s01 = 0;
        let s02 = 0;
        let s03 = 0;
        let s10 = 0;
        let s11 = 0;
        let s12 = 0;
        let s13 = 0;
        for (let j = lo; j < hi; j++) {
          const x = left[ra + j]!;
          const y = left[ra1 + j]!;
          const w0 = right[r0 + j]!;
          const w1 = right[r1 + j]!;
          const w2 = right[r2 + j]!;
          const w3 = right[r3 + j]!;
          s00 += x * w0;
          s01 += x * w1;
          s02 += x * w2;
          s03 += x * w3;
          s10 += y * w0;
          s11 += y * w1;
          s12 += y * w2;
          s13 += y * w3;
        }
        const o = a * n + b;
        out[o]! += s00;
        out[o + 1]! += s01;
        out[o + 2]! += s02;
        out[o + 3]! += s03;
        out[o + n]! += s10;
        out[o + n + 1]! += s11;
        out[o + n + 2]! += s12;
        out[o + n + 3]! += s13;
      }
      for (; b < n; b++) {
        const rb = b * p;
        let s0 = 0;
        let s1 = 0;
        for (let j = lo; j < hi; j++) {
          const w = right[rb + j]!;
          s0 += left[ra + j]! * w;
          s1 += left[ra1 + j]! * w;
        }
        out[a * n + b]! += s0;
        out[(a + 1) * n + b]! += s1;
      }
    }
    for (; a < n; a++) {
      const ra = a * p;
      for (let b = a; b < n; b++) {
        const rb = b * p;
        let s0 = 0;
        for (let j = lo; j < hi; j++) s0 += left[ra + j]! * right[rb + j]!;
        out[a * n + b]! += s0;
      }
    }
  }
  return out;
}

/** A full symmetric row-major n x n array from the upper triangle of `acc` (in place). */
function mirror(acc: Float64Array, n: number): Float64Array {
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) acc[b * n + a] = acc[a * n + b]!;
  return acc;
}

/** An n x n Matrix from the upper triangle of a row-major n x n array. */
function symmetricFrom(acc: Float64Array, n: number): Matrix {
  const m = new (mlMatrix().Matrix)(n, n);
  for (let a = 0; a < n; a++) {
    for (let b = a; b < n; b++) {
      m.set(a, b, acc[a * n + b]!);
      m.set(b, a, acc[a * n + b]!);
    }
  }
  return m;
}
