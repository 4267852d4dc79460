// The Director-Task schematic of the VLM paper's Figure 1, drawn from a scene as SVG: the table
// seen from above as a row of cells (one per slot, left to right as the letters run), each with
// its block (side growing with size, its paint, its letter); the director's side across the table
// and the participant's side (the tested model) nearest the reader; the partition on the
// director's side of the hidden block, whose cell is hatched as occluded; the director's sight
// lines to the blocks it sees; the request, the block it means (target) and the egocentric
// choice (trap); and beside it the picture the tested model is shown. In the same-side arm the
// director stands with the participant and the partition hides nothing; without an occluder
// there is none. Elements carry classes (cell, block, occluder, side, ...) and data attributes.

import { escapeHtml } from '../../../report/index.js';
import { directorView, targetBlock, trapBlock, type DirectorScene } from '../world/index.js';
import { BLOCK_PAINT } from '../suites/director-picture.js';

const W = 480;
const H = 450;
const TABLE = { x0: 60, x1: 420, y0: 160, y1: 250 };
const FAR = { y0: 40, y1: 118 };
const NEAR = { y0: 290, y1: 356 };

const hex = (rgb: readonly number[]) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const text = (x: number, y: number, cls: string, s: string, extra = '') =>
  `<text class="${cls}" x="${x}" y="${y}"${extra}>${escapeHtml(s)}</text>`;

function figure(cls: string, x: number, y: number, label: string): string {
  return `<g class="${cls}"><circle cx="${x}" cy="${y - 14}" r="9" fill="#f0c8a0" stroke="#333"/><rect x="${x - 10}" y="${y - 4}" width="20" height="26" rx="4" fill="${cls === 'director' ? '#5a5a96' : '#3b6fb6'}"/>${text(x, y + 38, 'figure-label', label, ' text-anchor="middle"')}</g>`;
}

/** Figure 1 for a scene, as an SVG document; `picture` (the scene's PNG data URL) is shown beside it. */
export function directorFigure1(scene: DirectorScene, opts: { picture?: string } = {}): string {
  const n = scene.blocks.length;
  const cw = (TABLE.x1 - TABLE.x0) / n;
  const across = scene.director === 'across';
  const seen = new Set(directorView(scene));
  const hidden = across ? scene.hidden : null;
  const target = targetBlock(scene, 'director');
  const trap = trapBlock(scene);
  const colourOf = (letter: string) => scene.blocks.find((b) => b.letter === letter)!.color;
  const named = (letters: string[]) => letters.map((l) => `${colourOf(l)} ${l}`).join(', ');
  const dir = across ? { x: (TABLE.x0 + TABLE.x1) / 2, y: FAR.y0 + 38 } : { x: 330, y: NEAR.y0 + 20 };
  const cellX = (slot: number) => TABLE.x0 + slot * cw;
  // The request, beside the director: right of it across the table, left of it on the near side.
  const bubble = across ? { x: dir.x + 24, y: dir.y - 38 } : { x: 40, y: NEAR.y0 + 28 };
  const parts: string[] = [];
  parts.push(
    `<defs><pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><line x1="0" y1="0" x2="0" y2="8" stroke="#777" stroke-width="2"/></pattern></defs>`,
    `<rect x="0" y="0" width="${W + (opts.picture ? 400 : 0)}" height="${H}" fill="#ffffff"/>`,
    text(20, 24, 'title', `Director Task, scene ${scene.id} (${scene.arm} arm)`, ' font-weight="bold"'),
    `<g class="side far" data-side="${across ? 'director' : 'none'}"><rect x="20" y="${FAR.y0}" width="440" height="${FAR.y1 - FAR.y0}" fill="#eef3fb"/>${text(28, FAR.y0 + 16, 'side-label', across ? "director's side" : 'far side (nobody stands here)')}</g>`,
    `<g class="side near" data-side="participant"><rect x="20" y="${NEAR.y0}" width="440" height="${NEAR.y1 - NEAR.y0}" fill="#f2f7ee"/>${text(28, NEAR.y0 + 16, 'side-label', "participant's side (the tested model)")}</g>`,
    `<rect class="table" x="${TABLE.x0 - 10}" y="${TABLE.y0 - 10}" width="${TABLE.x1 - TABLE.x0 + 20}" height="${TABLE.y1 - TABLE.y0 + 20}" rx="6" fill="#d2a46e"/>`,
  );
  // Sight lines from the director to the blocks it sees (drawn under the blocks).
  for (const b of scene.blocks)
    if (seen.has(b.letter))
      parts.push(
        `<line class="sight" data-letter="${b.letter}" x1="${dir.x}" y1="${dir.y}" x2="${cellX(b.slot) + cw / 2}" y2="${(TABLE.y0 + TABLE.y1) / 2}" stroke="#5a5a96" stroke-dasharray="3 4" stroke-width="1"/>`,
      );
  for (const b of scene.blocks) {
    const x = cellX(b.slot);
    const side = Math.min(cw - 16, 22 + 12 * b.size);
    const bx = x + (cw - side) / 2;
    const by = (TABLE.y0 + TABLE.y1) / 2 - side / 2;
    const paint = BLOCK_PAINT[b.color];
    if (!paint) throw new Error(`no paint for the block colour "${b.color}"`);
    const light = 0.299 * paint[0] + 0.587 * paint[1] + 0.114 * paint[2] > 150;
    const occluded = hidden === b.letter;
    const roles = [b.letter === target.letter ? 'target' : '', trap && b.letter === trap.letter ? 'trap' : ''].filter(Boolean);
    parts.push(
      `<g class="cell${occluded ? ' occluded' : ''}" data-slot="${b.slot}" data-letter="${b.letter}"${roles.length ? ` data-role="${roles.join(' ')}"` : ''}>`,
      `<rect class="cell-frame" x="${x}" y="${TABLE.y0}" width="${cw}" height="${TABLE.y1 - TABLE.y0}" fill="none" stroke="#8a6a44"/>`,
      `<rect class="block" data-letter="${b.letter}" data-color="${b.color}" data-size="${b.size}" x="${bx}" y="${by}" width="${side}" height="${side}" fill="${hex(paint)}" stroke="#222"/>`,
      text(
        x + cw / 2,
        by + side / 2 + 6,
        'block-label',
        b.letter,
        ` text-anchor="middle" font-size="16" font-weight="bold" fill="${light ? '#141414' : '#ffffff'}"`,
      ),
      occluded
        ? `<rect class="hatch" x="${x}" y="${TABLE.y0}" width="${cw}" height="${TABLE.y1 - TABLE.y0}" fill="url(#hatch)" opacity="0.5"/>`
        : '',
      b.letter === target.letter
        ? `<rect class="target" x="${x + 3}" y="${TABLE.y0 + 3}" width="${cw - 6}" height="${TABLE.y1 - TABLE.y0 - 6}" fill="none" stroke="#2e8b57" stroke-width="3"/>`
        : '',
      trap && b.letter === trap.letter
        ? `<rect class="trap" x="${x + 7}" y="${TABLE.y0 + 7}" width="${cw - 14}" height="${TABLE.y1 - TABLE.y0 - 14}" fill="none" stroke="#c0392b" stroke-width="2" stroke-dasharray="6 3"/>`
        : '',
      `</g>`,
    );
    // The partition stands on the director's side of the hidden block (inert when the director is on the near side).
    if (scene.hidden === b.letter)
      parts.push(
        `<rect class="occluder${across ? '' : ' inert'}" data-letter="${b.letter}" x="${x + 4}" y="${TABLE.y0 - 22}" width="${cw - 8}" height="12" fill="#3c3c3c"/>`,
        text(
          x + cw / 2,
          TABLE.y0 - 27,
          'occluder-label',
          across ? 'partition: hidden from the director' : 'partition: hides nothing here',
          ' text-anchor="middle" font-size="10"',
        ),
      );
  }
  parts.push(
    figure('director', dir.x, dir.y, 'director'),
    figure('participant', 400, NEAR.y0 + 20, 'participant'),
    `<g class="utterance"><rect x="${bubble.x}" y="${bubble.y}" width="186" height="24" rx="10" fill="#ffffff" stroke="#5a5a96"/>${text(bubble.x + 93, bubble.y + 17, 'utterance-text', `“Move the ${scene.extremum} block.”`, ' text-anchor="middle" font-size="12"')}</g>`,
  );
  const legend = [
    `(a) the director sees: ${named([...seen])}`,
    `(b) the director means: ${named([target.letter])} (green frame)${trap ? `; the egocentric choice: ${named([trap.letter])} (red dashes)` : ''}`,
    'x = P(a right) - P(b right): the explicit-implicit gap',
  ];
  parts.push(`<g class="legend">${legend.map((l, i) => text(24, 384 + i * 20, 'legend-line', l, ' font-size="12"')).join('')}</g>`);
  if (opts.picture)
    parts.push(
      `<g class="stimulus">${text(500, 52, 'stimulus-label', 'what the tested model sees')}<image x="500" y="64" width="360" height="240" href="${opts.picture}"/></g>`,
    );
  const width = W + (opts.picture ? 400 : 0);
  return `<svg xmlns="http://www.w3.org/2000/svg" class="director-figure1" width="${width}" height="${H}" viewBox="0 0 ${width} ${H}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="13">${parts.join('')}</svg>\n`;
}
