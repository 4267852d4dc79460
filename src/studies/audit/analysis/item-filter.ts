// Stage 2, the CTT item filter: an item is flagged when it has (near-)zero variance across
// models or its leave-one-out point-biserial (item-rest correlation within its benchmark) is
// below a threshold (0.15 by default). Retention per benchmark and category.

import { flatten, type AuditBenchmark, type AuditPanel } from './benchmark-matrix.js';
import { itemRestCorrelationOfItems } from '../../../stats/index.js';

export interface ItemFlag {
  id: string;
  category: string;
  pointBiserial: number | null;
  kept: boolean;
  reason?: 'zero-variance' | 'low-discrimination';
}

export interface FilterResult {
  threshold: number;
  benchmarks: Array<{
    name: string;
    flags: ItemFlag[];
    retention: Array<{ category: string; kept: number; total: number; share: number }>;
    kept: number;
    total: number;
  }>;
}

/** Items whose proportion correct is within `epsilon` of 0 or 1 count as zero variance. */
export function filterItems(panel: AuditPanel, opts: { threshold?: number; epsilon?: number } = {}): FilterResult {
  const threshold = opts.threshold ?? 0.15;
  const epsilon = opts.epsilon ?? 0;
  const M = panel.models.length;
  return {
    threshold,
    benchmarks: panel.benchmarks.map((b: AuditBenchmark) => {
      const r = itemRestCorrelationOfItems(flatten(b.items, M), M, b.items.length);
      // One correlation per item, in item order.
      const flags = r.map((pointBiserial, k): ItemFlag => {
        const it = b.items[k]!;
        const p = it.responses.reduce((s, v) => s + v, 0) / M;
        if (p <= epsilon || p >= 1 - epsilon || pointBiserial === null)
          return { id: it.id, category: it.category, pointBiserial, kept: false, reason: 'zero-variance' };
        if (pointBiserial < threshold)
          return { id: it.id, category: it.category, pointBiserial, kept: false, reason: 'low-discrimination' };
        return { id: it.id, category: it.category, pointBiserial, kept: true };
      });
      const cats = [...new Set(flags.map((f) => f.category))].sort();
      const retention = cats.map((c) => {
        const inCat = flags.filter((f) => f.category === c);
        const kept = inCat.filter((f) => f.kept).length;
        return { category: c, kept, total: inCat.length, share: kept / inCat.length };
      });
      const kept = flags.filter((f) => f.kept).length;
      return { name: b.name, flags, retention, kept, total: flags.length };
    }),
  };
}
