// Plain-text tables for the terminal.

import type { AccuracyTable } from '../analysis/index.js';
import { cellOf } from '../analysis/index.js';

/** A plain-text table with aligned columns, for terminal output. */
export function formatTextTable(header: string[], rows: string[][], opts: { leftAligned?: boolean } = {}): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  // Numbers right-aligned after the first column; `leftAligned` for tables of words (the last column unpadded).
  const cell = (c: string, i: number) =>
    opts.leftAligned ? (i === header.length - 1 ? c : c.padEnd(widths[i]!)) : i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!);
  const line = (cells: string[]) => cells.map(cell).join('  ');
  const rule = widths.map((w, i) => '-'.repeat(opts.leftAligned && i === header.length - 1 ? header[i]!.length : w)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** Accuracy (percent) per subject and group, the overall interval, and parse failures. */
export function accuracyTextTable(t: AccuracyTable): string {
  const header = ['subject', ...t.groups.filter((g) => g !== 'all'), 'all', '95% CI', 'n', 'parse fail'];
  const rows = t.subjects.map((s) => {
    const all = cellOf(t, s, 'all')!;
    return [
      s,
      ...t.groups
        .filter((g) => g !== 'all')
        .map((g) => {
          const c = cellOf(t, s, g);
          return c ? (c.accuracy * 100).toFixed(1) : '-';
        }),
      (all.accuracy * 100).toFixed(1),
      `[${(all.lower * 100).toFixed(1)}, ${(all.upper * 100).toFixed(1)}]`,
      String(all.items),
      String(all.parseFailures),
    ];
  });
  return formatTextTable(header, rows);
}
