// A drawn picture for the perspective-taking StoryTurn: an apple tree with a small, a medium
// and a big apple; a leaf hides one of them on Grandpa's side (right); the child stands left.
// Drawn with the small rasteriser in ../raster.ts: the same bytes for the same inputs.

import { Canvas, encodePng } from '../../../suites/index.js';

const W = 240;
const H = 200;

/** The tree picture as a PNG data URL; `hidden` is the apple the leaf hides from Grandpa. */
export function applePicture(hidden: 'small' | 'medium' | 'big'): string {
  const c = new Canvas(W, H);
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
