// A clip as one picture: its frames tiled into a grid (4 x 4 by default), each frame showing
// the field, the enclosure with its door, the large and the small triangle pointing along
// their headings, and optionally an order badge (1-16) in its corner.

import { FIELD, type Pose, type TriangleFrame } from '../../worlds/index.js';
import { Canvas } from '../raster.js';

const CELL_W = 150;
const CELL_H = 112;

function triangle(c: Canvas, ox: number, oy: number, sx: number, sy: number, p: Pose, size: number, color: [number, number, number]): void {
  const pt = (a: number, r: number): [number, number] => [
    ox + (p.x + r * Math.cos(p.heading + a)) * sx,
    oy + (p.y + r * Math.sin(p.heading + a)) * sy,
  ];
  c.polygon([pt(0, size), pt((2 * Math.PI) / 3, size * 0.6), pt((-2 * Math.PI) / 3, size * 0.6)], color);
}

export function triangleGrid(frames: TriangleFrame[], opts: { columns?: number; badges?: boolean } = {}): string {
  const cols = opts.columns ?? 4;
  const rows = Math.ceil(frames.length / cols);
  const c = new Canvas(cols * CELL_W, rows * CELL_H);
  const sx = (CELL_W - 10) / FIELD.w;
  const sy = (CELL_H - 10) / FIELD.h;
  const ink: [number, number, number] = [40, 40, 40];
  frames.forEach((f, i) => {
    const ox = (i % cols) * CELL_W + 5;
    const oy = Math.floor(i / cols) * CELL_H + 5;
    // Frame border and enclosure walls (door gap on the left wall).
    c.rect(ox, oy, ox + FIELD.w * sx, oy + 1, ink);
    c.rect(ox, oy + FIELD.h * sy - 1, ox + FIELD.w * sx, oy + FIELD.h * sy, ink);
    c.rect(ox, oy, ox + 1, oy + FIELD.h * sy, ink);
    c.rect(ox + FIELD.w * sx - 1, oy, ox + FIELD.w * sx, oy + FIELD.h * sy, ink);
    const e = FIELD.enclosure;
    const X = (x: number) => ox + x * sx;
    const Y = (y: number) => oy + y * sy;
    c.rect(X(e.x0), Y(e.y0), X(e.x1), Y(e.y0) + 2, ink);
    c.rect(X(e.x0), Y(e.y1) - 2, X(e.x1), Y(e.y1), ink);
    c.rect(X(e.x1) - 2, Y(e.y0), X(e.x1), Y(e.y1), ink);
    c.rect(X(e.x0), Y(e.y0), X(e.x0) + 2, Y(FIELD.door.y0), ink);
    c.rect(X(e.x0), Y(FIELD.door.y1), X(e.x0) + 2, Y(e.y1), ink);
    triangle(c, ox, oy, sx, sy, f.big, 7, [200, 50, 50]);
    triangle(c, ox, oy, sx, sy, f.small, 4.5, [50, 80, 200]);
    if (opts.badges !== false) {
      const label = String(i + 1);
      [...label].forEach((d, k) => c.letter(d, ox + 4 + k * 8, oy + 4, 1, ink));
    }
  });
  return `data:image/png;base64,${c.png().toString('base64')}`;
}
