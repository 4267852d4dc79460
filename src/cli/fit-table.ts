// Plain-text tables that fit a terminal's width (100 columns by default): the widest columns
// that may give way are narrowed until the table fits, their text wrapped at spaces (or cut
// with an ellipsis) onto further lines of the row. A cell may hold several lines of its own.

/** A column: its header, how it aligns, and how its text gives way when the table is too wide. */
export interface FitColumn {
  header: string;
  /** Numbers: right-aligned. */
  right?: boolean;
  /** wrap: onto further lines, at spaces where possible; cut: one line, ending in an ellipsis; keep (default): never narrowed. */
  shrink?: 'wrap' | 'cut' | 'keep';
  /** The narrowest the column may become (default: its header's width, at least 6; a wrapped column's longest word, up to 16). */
  min?: number;
}

/**
 * Where a line of `text` longer than `width` ends: at the last space that fits when it leaves
 * the line at least half full, else after the last , ; / @ or - that fits (or that space); else at `width`.
 */
function breakAt(text: string, width: number): number {
  let space = 0;
  let mark = 0;
  for (let p = width; p > 0 && !(space && mark); p--) {
    if (!space && text[p] === ' ') space = p;
    if (!mark && ',;/@-'.includes(text[p - 1]!)) mark = p;
  }
  if (space * 2 >= width) return space;
  return Math.max(space, mark) || width;
}

/** Lines of at most `width` characters, broken at spaces or after punctuation where possible, else within a word. */
export function wrapText(text: string, width: number): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > width) {
    const cut = breakAt(rest, width);
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  out.push(rest);
  return out;
}

/** `text` cut to `width` characters, the last an ellipsis when cut. */
function cutText(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}\u2026`;
}

/** The table, its columns narrowed (largest first) until each line fits `width`, where the columns allow. */
export function fitTable(columns: readonly FitColumn[], rows: readonly string[][], width = 100): string {
  const lines = (cell: string | undefined) => (cell ?? '').split('\n');
  const widths = columns.map((c, i) => Math.max(c.header.length, ...rows.flatMap((r) => lines(r[i]).map((l) => l.length))));
  const longestWord = (i: number) => Math.min(16, Math.max(0, ...rows.flatMap((r) => (r[i] ?? '').split(/\s+/).map((w) => w.length))));
  const floor = columns.map((c, i) =>
    Math.min(widths[i]!, c.min ?? Math.max(c.header.length, 6, c.shrink === 'wrap' ? longestWord(i) : 0)),
  );
  const total = () => widths.reduce((n, w) => n + w, 0) + 2 * (columns.length - 1);
  while (total() > width) {
    let widest = -1;
    for (const [i, c] of columns.entries())
      if ((c.shrink ?? 'keep') !== 'keep' && widths[i]! > floor[i]! && (widest < 0 || widths[i]! > widths[widest]!)) widest = i;
    if (widest < 0) break;
    widths[widest]!--;
  }
  const fitCell = (cell: string | undefined, i: number) =>
    lines(cell).flatMap((l) =>
      l.length <= widths[i]! ? [l] : columns[i]!.shrink === 'wrap' ? wrapText(l, widths[i]!) : [cutText(l, widths[i]!)],
    );
  const pad = (text: string, i: number) => (columns[i]!.right ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
  const render = (cells: string[][]) => {
    const height = Math.max(...cells.map((c) => c.length));
    return Array.from({ length: height }, (_, k) =>
      cells
        .map((c, i) => pad(c[k] ?? '', i))
        .join('  ')
        .trimEnd(),
    );
  };
  return [
    ...render(columns.map((c) => [c.header])),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.flatMap((r) => render(columns.map((_, i) => fitCell(r[i], i)))),
  ].join('\n');
}
