// A drawn picture for the perspective-taking StoryTurn: an apple tree with a small, a medium
// and a big apple; a leaf hides one of them on Grandpa's side (right); the child stands left.
// Filled shapes rasterised into RGB and written as a PNG (zlib from Node; CRC by table), so the
// picture needs no image library and is the same bytes for the same inputs.

import { deflateSync } from 'node:zlib';

const W = 240;
const H = 200;

type RGB = [number, number, number];

class Canvas {
  readonly px = new Uint8Array(W * H * 3).fill(255);
  fill(test: (x: number, y: number) => boolean, color: RGB): void {
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (test(x + 0.5, y + 0.5)) this.px.set(color, (y * W + x) * 3);
  }
  rect(x0: number, y0: number, x1: number, y1: number, c: RGB): void {
    this.fill((x, y) => x >= x0 && x < x1 && y >= y0 && y < y1, c);
  }
  ellipse(cx: number, cy: number, rx: number, ry: number, c: RGB): void {
    this.fill((x, y) => ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 <= 1, c);
  }
}

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC[(c ^ b) & 0xff] ^ (c >>> 8);
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

export function encodePng(px: Uint8Array, width: number, height: number): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) Buffer.from(px.subarray(y * width * 3, (y + 1) * width * 3)).copy(raw, y * (width * 3 + 1) + 1);
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0))]);
}

/** The tree picture as a PNG data URL; `hidden` is the apple the leaf hides from Grandpa. */
export function applePicture(hidden: 'small' | 'medium' | 'big'): string {
  const c = new Canvas();
  c.rect(0, 170, W, H, [200, 230, 180]); // grass
  c.rect(112, 100, 128, 172, [120, 80, 40]); // trunk
  c.ellipse(120, 80, 62, 52, [90, 170, 80]); // crown
  const apples = { small: { x: 92, y: 70, r: 7 }, medium: { x: 120, y: 100, r: 11 }, big: { x: 148, y: 70, r: 17 } };
  for (const a of Object.values(apples)) c.ellipse(a.x, a.y, a.r, a.r, [210, 30, 30]);
  const h = apples[hidden];
  c.ellipse(h.x + h.r * 0.9, h.y, h.r * 0.9, h.r * 1.6, [40, 120, 40]); // the leaf, on Grandpa's side
  c.ellipse(30, 138, 9, 9, [240, 200, 160]); // child: head
  c.rect(23, 147, 37, 172, [60, 110, 210]);
  c.ellipse(212, 122, 11, 11, [240, 200, 160]); // Grandpa: head
  c.rect(202, 133, 222, 172, [120, 120, 120]);
  c.rect(200, 109, 224, 113, [230, 230, 230]); // white hair band
  return `data:image/png;base64,${encodePng(c.px, W, H).toString('base64')}`;
}
