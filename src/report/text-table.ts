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

/** Accuracy (percent) per subject and group, the overall interval, and parse failures; a footnote says how replicates count and why an interval has zero width. */
export function accuracyTextTable(t: AccuracyTable): string {
  const header = ['subject', ...t.groups.filter((g) => g !== 'all'), 'all', t.replicated ? '95% CI *' : '95% CI', 'n', 'parse fail'];
  const notes: string[] = [];
  const rows = t.subjects.map((s) => {
    const all = cellOf(t, s, 'all')!;
    if (all.note && !notes.includes(all.note)) notes.push(all.note);
    const mark = all.note ? ` ${'*'.repeat(notes.indexOf(all.note) + 2)}` : '';
    return [
      s,
      ...t.groups
        .filter((g) => g !== 'all')
        .map((g) => {
          const c = cellOf(t, s, g);
          return c ? (c.accuracy * 100).toFixed(1) : '-';
        }),
      (all.accuracy * 100).toFixed(1),
      `[${(all.lower * 100).toFixed(1)}, ${(all.upper * 100).toFixed(1)}]${mark}`,
      String(all.items),
      String(all.parseFailures),
    ];
  });
  const footnotes = [
    ...(t.replicated
      ? [
          "* over items (n): an item's replicates are not independent, so the interval is Wilson's with the items' effective number of trials",
        ]
      : []),
    ...notes.map((n, i) => `${'*'.repeat(i + 2)} ${n}`),
  ];
  return [formatTextTable(header, rows), ...footnotes].join('\n');
}
