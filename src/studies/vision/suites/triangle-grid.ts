// Animated-triangles frames as pictures: one frame (the field, the enclosure with its door, the
// large and the small triangle pointing along their headings) at any size, and a clip's frames
// tiled row-major into a grid (4 x 4 of 150 x 112 cells by default; any columns and cell size),
// with an order badge (1..N, growing with the cell) in each cell's corner or without (the plain
// grid of the paper's Appendix K).

import { FIELD, type Pose, type TriangleFrame } from '../world/index.js';
import { Canvas } from '../../../suites/index.js';

/** A grid cell's size (pixels) in the canonical grid. */
export const CELL_W = 150;
export const CELL_H = 112;
/** The per-cell size of the paper's frame-representation grids (Appendix L: grid_4x4, 4x8, 8x8). */
export const PAPER_CELL = { width: 320, height: 240 } as const;
/** The generated clips' source resolution: a full-resolution grid cell, and the single still. */
export const SOURCE_FRAME = { width: 640, height: 480 } as const;

const INK: [number, number, number] = [40, 40, 40];

function triangle(c: Canvas, ox: number, oy: number, sx: number, sy: number, p: Pose, size: number, color: [number, number, number]): void {
  const pt = (a: number, r: number): [number, number] => [
    ox + (p.x + r * Math.cos(p.heading + a)) * sx,
    oy + (p.y + r * Math.sin(p.heading + a)) * sy,
  ];
  c.polygon([pt(0, size), pt((2 * Math.PI) / 3, size * 0.6), pt((-2 * Math.PI) / 3, size * 0.6)], color);
}

/** Draw one frame into the box (ox, oy, w, h) of a canvas; lines scale with the box. */
export function drawTriangleFrame(c: Canvas, ox: number, oy: number, w: number, h: number, f: TriangleFrame): void {
  const sx = w / FIELD.w;
  const sy = h / FIELD.h;
  const t = Math.max(1, Math.round(w / 150));
  const X = (x: number) => ox + x * sx;
  const Y = (y: number) => oy + y * sy;
  // Frame border and enclosure walls (door gap on the left wall).
  c.rect(ox, oy, ox + w, oy + t, INK);
  c.rect(ox, oy + h - t, ox + w, oy + h, INK);
  c.rect(ox, oy, ox + t, oy + h, INK);
  c.rect(ox + w - t, oy, ox + w, oy + h, INK);
  const e = FIELD.enclosure;
  c.rect(X(e.x0), Y(e.y0), X(e.x1), Y(e.y0) + 2 * t, INK);
  c.rect(X(e.x0), Y(e.y1) - 2 * t, X(e.x1), Y(e.y1), INK);
  c.rect(X(e.x1) - 2 * t, Y(e.y0), X(e.x1), Y(e.y1), INK);
  c.rect(X(e.x0), Y(e.y0), X(e.x0) + 2 * t, Y(FIELD.door.y0), INK);
  c.rect(X(e.x0), Y(FIELD.door.y1), X(e.x0) + 2 * t, Y(e.y1), INK);
  triangle(c, ox, oy, sx, sy, f.big, 7, [200, 50, 50]);
  triangle(c, ox, oy, sx, sy, f.small, 4.5, [50, 80, 200]);
}

/** One frame as its own picture (a PNG data URL), e.g. 320 x 240 for a frame sequence or 640 x 480 for a still. */
export function triangleFrameImage(f: TriangleFrame, opts: { width?: number; height?: number } = {}): string {
  const w = opts.width ?? 320;
  const h = opts.height ?? 240;
  const c = new Canvas(w, h);
  drawTriangleFrame(c, 4, 4, w - 8, h - 8, f);
  return `data:image/png;base64,${c.png().toString('base64')}`;
}

/** The frame as raw RGB (width x height x 3), for encoding a clip as video. */
export function triangleFrameRgb(f: TriangleFrame, width: number, height: number): Uint8Array {
  const c = new Canvas(width, height);
  drawTriangleFrame(c, 4, 4, width - 8, height - 8, f);
  return c.px;
}

/** A clip's frames tiled row-major into a grid (a PNG data URL), with order badges unless `badges` is false. */
export function triangleGrid(
  frames: TriangleFrame[],
  opts: { columns?: number; badges?: boolean; cellWidth?: number; cellHeight?: number } = {},
): string {
  const cols = opts.columns ?? 4;
  const rows = Math.ceil(frames.length / cols);
  const w = opts.cellWidth ?? CELL_W;
  const h = opts.cellHeight ?? CELL_H;
  // Badges and margins grow with the cell (the canonical cell keeps scale 1 and 5 px).
  const scale = Math.max(1, Math.round(w / CELL_W));
  const margin = 5 * scale;
  const c = new Canvas(cols * w, rows * h);
  frames.forEach((f, i) => {
    const ox = (i % cols) * w + margin;
    const oy = Math.floor(i / cols) * h + margin;
    drawTriangleFrame(c, ox, oy, w - 2 * margin, h - 2 * margin, f);
    if (opts.badges !== false) {
      const label = String(i + 1);
      [...label].forEach((d, k) => c.letter(d, ox + 4 * scale + k * 8 * scale, oy + 4 * scale, scale, INK));
    }
  });
  return `data:image/png;base64,${c.png().toString('base64')}`;
}
