// The Director-Task scene as a picture: a table seen obliquely from the addressee's side, the
// blocks in their slots (side growing with size, colour, white letter), the director's figure
// across the table (or at the addressee's side in the same-side arm), and a dark partition on
// the director's side of the hidden block, tall enough to hide it from across the table.

import type { DirectorScene } from '../world/index.js';
import { Canvas, type RGB } from '../../../suites/index.js';

/** The paint of each colour word of the closed vocabulary: one clearly distinct hue each (blue and cyan far apart). */
export const BLOCK_PAINT: Readonly<Record<string, RGB>> = {
  yellow: [225, 190, 30],
  red: [210, 40, 40],
  blue: [40, 70, 210],
  purple: [130, 50, 170],
  green: [40, 150, 60],
  orange: [240, 130, 20],
  cyan: [30, 200, 215],
};

/** The scene as a PNG data URL (360 x 240). */
export function directorPicture(s: DirectorScene): string {
  const W = 360;
  const H = 240;
  const c = new Canvas(W, H);
  c.polygon(
    [
      [70, 90],
      [290, 90],
      [340, 200],
      [20, 200],
    ],
    [190, 150, 100],
  ); // table top, far edge up
  c.rect(30, 200, 40, 235, [150, 110, 70]);
  c.rect(320, 200, 330, 235, [150, 110, 70]);
  const n = s.blocks.length;
  const slotX = (slot: number) => 40 + ((slot + 0.5) * 280) / n;
  for (const b of s.blocks) {
    const side = 18 + 9 * b.size;
    const x = slotX(b.slot) - side / 2;
    const y = 170 - side;
    if (s.hidden === b.letter) c.rect(x - 6, y - 38, x + side + 6, y - 4, [60, 60, 60]); // the partition, between block and director
    const color = BLOCK_PAINT[b.color];
    if (!color) throw new Error(`no paint for the block colour "${b.color}"`);
    c.rect(x, y, x + side, y + side, color);
    const scale = Math.max(2, Math.floor(side / 12));
    // Dark letters on light paint (yellow, cyan, orange), white on the others.
    const light = 0.299 * color[0] + 0.587 * color[1] + 0.114 * color[2] > 150;
    c.letter(b.letter, x + side / 2 - 2.5 * scale, y + side / 2 - 3.5 * scale, scale, light ? [20, 20, 20] : [255, 255, 255]);
  }
  const [dx, dy] = s.director === 'across' ? [180, 40] : [345, 150];
  c.ellipse(dx, dy - 18, 10, 10, [240, 200, 160]); // the director
  c.rect(dx - 11, dy - 8, dx + 11, dy + 22, [90, 90, 150]);
  return `data:image/png;base64,${c.png().toString('base64')}`;
}
