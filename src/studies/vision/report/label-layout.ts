// Labels beside the points of a scatter that do not overlap: each label, in turn, takes the first
// place around its point (right, left, above, below, then the diagonals, then the same further
// out) where its box stays inside the plot and clears every label placed before and every point;
// a point whose label could go nowhere free takes the place with the least overlap. Sizes are in
// pixels; a label's width is estimated from its length (CHAR_WIDTH of the font size a character,
// wide enough for DejaVu Sans and Helvetica). Labels set away from their point get a leader.

/** The estimated width of a character, as a share of the font size. */
export const CHAR_WIDTH = 0.62;

export interface LabelBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface PlacedLabel {
  /** The anchor of the text: its left end (align left) or right end (align right), on its middle line. */
  x: number;
  y: number;
  align: 'left' | 'right';
  box: LabelBox;
  /** Whether the label is set away from its point (a leader line joins them). */
  leader: boolean;
}

/** The box of a label of `text` anchored at (x, y) with this alignment. */
export function labelBox(text: string, x: number, y: number, align: 'left' | 'right', fontSize: number): LabelBox {
  const w = text.length * fontSize * CHAR_WIDTH;
  const h = fontSize * 1.25;
  return align === 'left' ? { x0: x, y0: y - h / 2, x1: x + w, y1: y + h / 2 } : { x0: x - w, y0: y - h / 2, x1: x, y1: y + h / 2 };
}

/** The area two boxes share (0: they do not overlap). */
export function overlapArea(a: LabelBox, b: LabelBox): number {
  return Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0)) * Math.max(0, Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0));
}

/** Place a label for every point (pixel coordinates in a plot of width x height), in the points' order. */
export function placeLabels(
  points: Array<{ x: number; y: number; text: string }>,
  opts: { width: number; height: number; fontSize: number; pointRadius?: number },
): PlacedLabel[] {
  const r = opts.pointRadius ?? 6;
  const f = opts.fontSize;
  const discs = points.map((p) => ({ x0: p.x - r, y0: p.y - r, x1: p.x + r, y1: p.y + r }));
  const placed: PlacedLabel[] = [];
  // Directions around the point, nearest first, then the same rings further out.
  const around: Array<[number, number, 'left' | 'right']> = [
    [1, 0, 'left'],
    [-1, 0, 'right'],
    [0, -1, 'left'],
    [0, 1, 'left'],
    [1, -1, 'left'],
    [1, 1, 'left'],
    [-1, -1, 'right'],
    [-1, 1, 'right'],
    [0, -1, 'right'],
    [0, 1, 'right'],
  ];
  for (const p of points) {
    let best: { label: PlacedLabel; cost: number } | undefined;
    for (let ring = 1; ring <= 8 && !(best && best.cost === 0); ring++) {
      const step = ring * (r + 2);
      for (const [dx, dy, align] of around) {
        const x = p.x + dx * step + (dx === 0 ? (align === 'left' ? -r : r) : 0);
        const y = p.y + dy * (ring * f * 0.75 + r);
        const box = labelBox(p.text, x, y, align, f);
        const outside = Math.max(0, -box.x0) + Math.max(0, box.x1 - opts.width) + Math.max(0, -box.y0) + Math.max(0, box.y1 - opts.height);
        const cost =
          outside * 1000 + placed.reduce((s, l) => s + overlapArea(box, l.box), 0) + discs.reduce((s, d) => s + overlapArea(box, d), 0);
        if (!best || cost < best.cost) best = { label: { x, y, align, box, leader: ring > 1 }, cost };
        if (cost === 0) break;
      }
    }
    placed.push(best!.label);
  }
  return placed;
}
