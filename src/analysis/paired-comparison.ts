// Paired comparison of subjects on the same items, which accuracy tables alone do not give:
// the accuracy difference with Newcombe's hybrid score interval for paired proportions (it
// keeps its width when every item is discordant the same way, where a bootstrap over items
// collapses to a point), McNemar's test on the discordant items (corrected, and exact), Holm
// across categories within each pair, and the minimum detectable difference at this size
// (alpha 0.05 two-sided, power 0.8; normal approximation for paired proportions:
// (z_0.975 + z_0.8) * sqrt(discordant share / n)).

import { ConfigError } from '../core/index.js';
import { holm, mcnemar, newcombePairedInterval } from '../stats/index.js';
import type { ResponseMatrix } from '../store/index.js';

export interface PairedCell {
  a: string;
  b: string;
  group: string;
  n: number;
  accuracyA: number;
  accuracyB: number;
  difference: number;
  /** Newcombe's hybrid score 95% interval of the difference (method 10, paired). */
  lower: number;
  upper: number;
  /** Why there is no interval, when there is none (no item both subjects answered). */
  note?: string;
  /** Items only A got right, and only B got right. */
  onlyA: number;
  onlyB: number;
  pMcnemar: number;
  pExact: number;
  pHolm: number;
  /** Null when no item is discordant: the subjects agree everywhere, and no difference is estimable. */
  minimumDetectableDifference: number | null;
}

const Z = 1.959963984540054 + 0.8416212335729143;

/** Two subjects on the same items: agreement counts, McNemar's test overall and per category (Holm-corrected), and the accuracy difference with Newcombe's paired interval. */
export function comparePaired(matrix: ResponseMatrix, opts: { subjects?: string[] } = {}): PairedCell[] {
  const subjects = opts.subjects ?? matrix.subjects;
  for (const s of subjects)
    if (!matrix.subjects.includes(s)) throw new ConfigError(`no subject "${s}" in the matrix (subjects: ${matrix.subjects.join(', ')})`);
  if (subjects.length < 2) throw new ConfigError('compare needs at least two subjects');
  const out: PairedCell[] = [];
  for (const [i, sa] of subjects.entries()) {
    for (const sb of subjects.slice(i + 1)) {
      const ca = matrix.subjects.indexOf(sa);
      const cb = matrix.subjects.indexOf(sb);
      // Items both subjects answered; a cell must be 0 or 1.
      const rows = matrix.items
        .map((it, k) => ({ category: it.category, a: matrix.cells[k]![ca]!, b: matrix.cells[k]![cb]!, id: it.itemId }))
        .filter((r) => r.a !== null && r.b !== null) as Array<{ category: string; a: number; b: number; id: string }>;
      for (const r of rows)
        if ((r.a !== 0 && r.a !== 1) || (r.b !== 0 && r.b !== 1))
          throw new ConfigError(`item ${r.id}: compare needs 1/0 cells (pick one replicate with --replicate)`);
      const groups = [...new Set(rows.map((r) => r.category))].sort();
      const cells = [...groups, 'all'].map((group) => {
        const g = group === 'all' ? rows : rows.filter((r) => r.category === group);
        const n = g.length;
        const accA = g.reduce((s, r) => s + r.a, 0) / n;
        const accB = g.reduce((s, r) => s + r.b, 0) / n;
        const onlyA = g.filter((r) => r.a === 1 && r.b === 0).length;
        const onlyB = g.filter((r) => r.a === 0 && r.b === 1).length;
        const both = g.filter((r) => r.a === 1 && r.b === 1).length;
        const ci = newcombePairedInterval({ both, onlyFirst: onlyA, onlySecond: onlyB, neither: n - both - onlyA - onlyB });
        const m = mcnemar([
          [0, onlyA],
          [onlyB, 0],
        ]);
        return {
          a: sa,
          b: sb,
          group,
          n,
          accuracyA: accA,
          accuracyB: accB,
          difference: ci.estimate,
          lower: ci.lower,
          upper: ci.upper,
          ...(ci.note ? { note: 'no item answered by both subjects' } : {}),
          onlyA,
          onlyB,
          pMcnemar: m.p,
          pExact: m.pExact,
          pHolm: Number.NaN,
          minimumDetectableDifference: onlyA + onlyB > 0 ? Z * Math.sqrt((onlyA + onlyB) / n / n) : null,
        };
      });
      const adjusted = holm(cells.filter((c) => c.group !== 'all').map((c) => c.pMcnemar));
      cells.filter((c) => c.group !== 'all').forEach((c, k) => (c.pHolm = adjusted[k] ?? Number.NaN));
      const all = cells.find((c) => c.group === 'all')!;
      all.pHolm = all.pMcnemar;
      out.push(...cells);
    }
  }
  return out;
}
