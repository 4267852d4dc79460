// One item's expected complete-data log likelihood over the quadrature nodes, with its gradient
// and Fisher information in (alpha = log a, b, gamma = logit c): what each Fisher-scoring step
// of the M-step (item-step.ts) evaluates.
//   Logistic items (c = 0, not estimated) read the item's sufficient statistics: the expected
//     correct answers enter only through R0 = sum_q r_q and R1 = sum_q r_q theta_q, since
//     sum_q r_q z_q = a (R1 - b R0) (see e-step.ts); the nodes contribute n_q softplus(z_q).
//   Items with a guessing floor read the full expected counts r_q.

/** Where one item's expected counts are: set per item by the caller, read by itemQuadStats. */
export interface ItemCounts {
  nodes: Float64Array;
  /** Whether the nodes are equally spaced (normalQuadrature's are). */
  equallySpaced: boolean;
  /** Expected observed answers per node, read at [nOffset, nOffset + Q). */
  n: Float64Array;
  nOffset: number;
  /** Expected correct answers per node, read at [rOffset, rOffset + Q) (items with a floor). */
  r: Float64Array;
  rOffset: number;
  /** Logistic items: sum of the answers and of the answers times the posterior mean ability. */
  R0: number;
  R1: number;
}

/** Sufficient statistics of one item's expected log likelihood at given parameters. */
export interface ItemQuadStats {
  ll: number;
  /** Gradient in (alpha, b, gamma). */
  g: Float64Array;
  /** Fisher information in (alpha, b, gamma), row-major 3 x 3. */
  info: Float64Array;
}

export function newQuadStats(): ItemQuadStats {
  return { ll: 0, g: new Float64Array(3), info: new Float64Array(9) };
}

function softplus(x: number): number {
  return x > 0 ? x + Math.log1p(Math.exp(-x)) : Math.log1p(Math.exp(x));
}

/**
 * Expected log likelihood, gradient and Fisher information of one item over the quadrature
 * nodes. `general` selects the formulas with a floor (c > 0 or c estimated), read from the full
 * counts; otherwise the logistic ones, read from the sufficient statistics, which stay finite for
 * extreme z.
 */
export function itemQuadStats(a: number, b: number, c: number, general: boolean, counts: ItemCounts, out: ItemQuadStats): ItemQuadStats {
  if (!general) return logisticStats(a, b, counts, out);
  const { nodes, r, n, rOffset, nOffset } = counts;
  let ll = 0;
  let ga = 0;
  let gb = 0;
  let gc = 0;
  let iaa = 0;
  let iab = 0;
  let ibb = 0;
  let iac = 0;
  let ibc = 0;
  let icc = 0;
  const Q = nodes.length;
  const lc = Math.log1p(-c);
  const dc = c * (1 - c);
  for (let q = 0; q < Q; q++) {
    const rq = r[rOffset + q]!;
    const nq = n[nOffset + q]!;
    if (nq <= 0) continue;
    const z = a * (nodes[q]! - b);
    const ps = 1 / (1 + Math.exp(-z));
    const P = c + (1 - c) * ps;
    ll += rq * Math.log(P) + (nq - rq) * (lc - softplus(z));
    const res = rq - nq * P;
    const uz = (res * ps) / P;
    const uc = res / (P * (1 - c));
    const wzz = (nq * (1 - c) * ps * ps * (1 - ps)) / P;
    const wzc = (nq * ps * (1 - ps)) / P;
    const wcc = (nq * (1 - ps)) / (P * (1 - c));
    ga += uz * z;
    gb -= uz * a;
    gc += uc * dc;
    iaa += wzz * z * z;
    iab -= wzz * z * a;
    ibb += wzz * a * a;
    iac += wzc * z * dc;
    ibc -= wzc * a * dc;
    icc += wcc * dc * dc;
  }
  return writeStats(out, ll, ga, gb, gc, iaa, iab, ibb, iac, ibc, icc);
}

function writeStats(
  out: ItemQuadStats,
  ll: number,
  ga: number,
  gb: number,
  gc: number,
  iaa: number,
  iab: number,
  ibb: number,
  iac: number,
  ibc: number,
  icc: number,
): ItemQuadStats {
  out.ll = ll;
  out.g[0] = ga;
  out.g[1] = gb;
  out.g[2] = gc;
  const I = out.info;
  I[0] = iaa;
  I[1] = iab;
  I[2] = iac;
  I[3] = iab;
  I[4] = ibb;
  I[5] = ibc;
  I[6] = iac;
  I[7] = ibc;
  I[8] = icc;
  return out;
}

/**
 * The logistic item's statistics from R0, R1 and n. On equally spaced nodes exp(-z_q) is a
 * geometric sequence (ratio exp(-a h)), so one item costs two exponentials and one log1p per
 * node; where |z| could overflow the sequence, each node takes its own exponential.
 */
function logisticStats(a: number, b: number, counts: ItemCounts, out: ItemQuadStats): ItemQuadStats {
  const { nodes, n, nOffset, R0, R1 } = counts;
  const Q = nodes.length;
  const x0 = nodes[0]!;
  const h = (nodes[Q - 1]! - x0) / (Q - 1);
  const geometric = counts.equallySpaced && a * (Math.abs(b) + Math.max(-x0, nodes[Q - 1]!)) < 600;
  let E = geometric ? Math.exp(-a * (x0 - b)) : 0;
  const ratio = geometric ? Math.exp(-a * h) : 0;
  let sp = 0;
  let snp = 0;
  let snpz = 0;
  let w0 = 0;
  let w1 = 0;
  let w2 = 0;
  for (let q = 0; q < Q; q++, E *= ratio) {
    const nq = n[nOffset + q]!;
    if (nq <= 0) continue;
    const z = a * (nodes[q]! - b);
    // e = exp(-|z|): P and softplus(z) = log(1 + e^z) from it.
    const e = geometric ? (z > 0 ? E : 1 / E) : Math.exp(z > 0 ? -z : z);
    const inv = 1 / (1 + e);
    const p = z > 0 ? inv : e * inv;
    sp += nq * (Math.max(z, 0) + Math.log1p(e));
    const np = nq * p;
    snp += np;
    snpz += np * z;
    const w = np * (z > 0 ? e * inv : inv);
    w0 += w;
    w1 += w * z;
    w2 += w * z * z;
  }
  const rz = a * (R1 - b * R0);
  return writeStats(out, rz - sp, rz - snpz, -a * (R0 - snp), 0, w2, -a * w1, a * a * w0, 0, 0, 0);
}
