// A small rasteriser for generated pictures: filled rectangles, ellipses and polygons, and a
// 5 x 7 bitmap font for the capitals A-D and the digits, into RGB, written as a PNG (zlib from Node, CRC by
// table). No image library is needed, and the same drawing gives the same bytes.

import { deflateSync } from 'node:zlib';

export type RGB = [number, number, number];

const FONT: Record<string, string[]> = {
  A: ['.###.', '#...#', '#...#', '#####', '#...#', '#...#', '#...#'],
  B: ['####.', '#...#', '#...#', '####.', '#...#', '#...#', '####.'],
  C: ['.####', '#....', '#....', '#....', '#....', '#....', '.####'],
  D: ['####.', '#...#', '#...#', '#...#', '#...#', '#...#', '####.'],
  '0': ['.###.', '#...#', '#..##', '#.#.#', '##..#', '#...#', '.###.'],
  '1': ['..#..', '.##..', '..#..', '..#..', '..#..', '..#..', '.###.'],
  '2': ['.###.', '#...#', '....#', '...#.', '..#..', '.#...', '#####'],
  '3': ['####.', '....#', '....#', '.###.', '....#', '....#', '####.'],
  '4': ['...#.', '..##.', '.#.#.', '#..#.', '#####', '...#.', '...#.'],
  '5': ['#####', '#....', '####.', '....#', '....#', '#...#', '.###.'],
  '6': ['.###.', '#....', '#....', '####.', '#...#', '#...#', '.###.'],
  '7': ['#####', '....#', '...#.', '..#..', '.#...', '.#...', '.#...'],
  '8': ['.###.', '#...#', '#...#', '.###.', '#...#', '#...#', '.###.'],
  '9': ['.###.', '#...#', '#...#', '.####', '....#', '....#', '.###.'],
};

/** A small RGBA canvas with shapes and a 5x7 font, for drawing item pictures. */
export class Canvas {
  readonly px: Uint8Array;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.px = new Uint8Array(width * height * 3).fill(255);
  }
  /** Paint the pixels whose centres pass `test`, looking only inside the box [x0, x1) x [y0, y1). */
  fill(test: (x: number, y: number) => boolean, color: RGB, box: [number, number, number, number] = [0, 0, this.width, this.height]): void {
    const xa = Math.max(0, Math.floor(box[0]));
    const ya = Math.max(0, Math.floor(box[1]));
    const xb = Math.min(this.width, Math.ceil(box[2]));
    const yb = Math.min(this.height, Math.ceil(box[3]));
    for (let y = ya; y < yb; y++) for (let x = xa; x < xb; x++) if (test(x + 0.5, y + 0.5)) this.px.set(color, (y * this.width + x) * 3);
  }
  rect(x0: number, y0: number, x1: number, y1: number, c: RGB): void {
    this.fill((x, y) => x >= x0 && x < x1 && y >= y0 && y < y1, c, [x0, y0, x1, y1]);
  }
  ellipse(cx: number, cy: number, rx: number, ry: number, c: RGB): void {
    this.fill((x, y) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1, c, [cx - rx, cy - ry, cx + rx + 1, cy + ry + 1]);
  }
  /** A convex polygon (points in order). */
  polygon(points: Array<[number, number]>, c: RGB): void {
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const box: [number, number, number, number] = [Math.min(...xs), Math.min(...ys), Math.max(...xs) + 1, Math.max(...ys) + 1];
    this.fill(
      (x, y) => {
        let sign = 0;
        for (let i = 0; i < points.length; i++) {
          const [x0, y0] = points[i]!;
          const [x1, y1] = points[(i + 1) % points.length]!;
          const cross = (x1 - x0) * (y - y0) - (y1 - y0) * (x - x0);
          if (cross !== 0) {
            if (sign === 0) sign = Math.sign(cross);
            else if (Math.sign(cross) !== sign) return false;
          }
        }
        return true;
      },
      c,
      box,
    );
  }
  /** A capital letter from the bitmap font, `scale` pixels per dot, top-left at (x, y). */
  letter(ch: string, x: number, y: number, scale: number, c: RGB): void {
    const glyph = FONT[ch];
    if (!glyph) throw new Error(`no glyph for "${ch}"`);
    glyph.forEach((row, r) =>
      [...row].forEach((dot, k) => dot === '#' && this.rect(x + k * scale, y + r * scale, x + (k + 1) * scale, y + (r + 1) * scale, c)),
    );
  }
  png(): Buffer {
    return encodePng(this.px, this.width, this.height);
  }
}

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  Buffer.from(data).copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Encode RGBA pixels as PNG bytes (deterministic across Node versions). */
export function encodePng(px: Uint8Array, width: number, height: number): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) Buffer.from(px.subarray(y * width * 3, (y + 1) * width * 3)).copy(raw, y * (width * 3 + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}
