// The counterbalanced Director-Task scene set of the VLM paper (Appendix I): against a
// colour-position shortcut, a block of twelve scenes rotates the colour palette across three
// triples (yellow/red/blue; purple/green/orange; red/cyan/green), the letter-colour mapping
// (A, B, C bind to different colours in different scenes), the slot that carries the target
// block, and the instruction's polarity (largest/smallest). Letters stand left to right
// (A, B, C), so the target's slot is also its letter position.
//
// Three blocks, scene i of a block of twelve: palette p = i mod 3, k = floor(i / 3); polarity
// largest for even k; target slot (p + k) mod 3; trap slot one (k < 2) or two (k >= 2) slots
// to its right, cyclically; the trap is the addressee's own extremum, the target the middle
// size, the third block the other extreme. Each polarity then has every target slot twice and
// every trap slot twice, and each palette two scenes of each polarity. Colours: within each
// palette the trap's colour and the target's colour rotate, so that every colour is the trap
// and the target at least once, and the letter-colour mapping changes from scene to scene.
//
// Four blocks (Appendix D: six largest, six smallest, the trap balanced over the four slots):
// trap slot i mod 4, polarity alternating so that each polarity has six scenes, target one to
// three slots right of the trap. The paper names no four-colour palettes: each triple gets a
// fourth colour that is not confusable with its own (green, blue, yellow).

import type { DirectorArm, DirectorBlock, DirectorScene } from './director-scene.js';
import { withArm } from './director-scene.js';

/** The three palettes of the paper's canonical set. */
export const DIRECTOR_PALETTES: readonly (readonly string[])[] = [
  ['yellow', 'red', 'blue'],
  ['purple', 'green', 'orange'],
  ['red', 'cyan', 'green'],
];

/** The fourth colour of each palette in four-block scenes (our choice; the paper gives none). */
export const FOURTH_COLORS: readonly string[] = ['green', 'blue', 'yellow'];

/** Scenes per balanced block. */
export const DESIGN_BLOCK = 12;

/**
 * Scene `index` of the counterbalanced set (index mod 12 places it in a block of twelve;
 * `offset`, from the run's seed, rotates which colour plays which part, so seeds differ in the
 * letter-colour mapping but keep the balance). The arm changes the partition and the director's
 * place only, so control arms see the same scenes as the canonical arm.
 */
export function counterbalancedScene(index: number, opts: { id: string; blocks: 3 | 4; arm: DirectorArm; offset?: number }): DirectorScene {
  const i = index % DESIGN_BLOCK;
  const round = Math.floor(index / DESIGN_BLOCK);
  const n = opts.blocks;
  const palette = i % 3;
  // The k-th scene of its palette (0..3).
  const k = Math.floor(i / 3);
  const o = (opts.offset ?? 0) + round;
  let extremum: 'largest' | 'smallest';
  let targetSlot: number;
  let trapSlot: number;
  if (n === 3) {
    extremum = k % 2 === 0 ? 'largest' : 'smallest';
    targetSlot = (palette + k) % 3;
    trapSlot = (targetSlot + 1 + (k >> 1)) % 3;
  } else {
    trapSlot = i % 4;
    extremum = (i + Math.floor(i / 4)) % 2 === 0 ? 'largest' : 'smallest';
    targetSlot = (trapSlot + 1 + Math.floor(i / 4)) % 4;
  }
  const colors = n === 3 ? DIRECTOR_PALETTES[palette]! : [...DIRECTOR_PALETTES[palette]!, FOURTH_COLORS[palette]!];
  // Within a palette the trap's colour and the target's colour rotate over the palette, so every
  // colour is the trap and the target at least once (three blocks: (0,1), (1,2), (2,0), (0,2)).
  const trapColor = colors[(k + o) % n]!;
  const targetColor = colors[(k + 1 + o + (n === 3 && k === 3 ? 1 : 0)) % n]!;
  const others = colors.filter((c) => c !== trapColor && c !== targetColor);
  // Sizes: the trap is the addressee's extremum, the target the extremum of the rest, the others fill in.
  const big = extremum === 'largest';
  const sizeOf = new Array<number>(n);
  const colorOf = new Array<string>(n);
  sizeOf[trapSlot] = big ? n : 1;
  sizeOf[targetSlot] = big ? n - 1 : 2;
  colorOf[trapSlot] = trapColor;
  colorOf[targetSlot] = targetColor;
  const rest = big ? [1, 2] : [3, 4];
  const free = Array.from({ length: n }, (_, s) => s).filter((s) => s !== trapSlot && s !== targetSlot);
  // Four blocks: which free slot gets the smaller remaining size, and which colour, alternates.
  if (i % 2 === 1) free.reverse();
  free.forEach((s, j) => {
    sizeOf[s] = rest[j]!;
    colorOf[s] = others[(j + o) % others.length]!;
  });
  const blocks: DirectorBlock[] = Array.from({ length: n }, (_, slot) => ({
    letter: 'ABCD'[slot]!,
    color: colorOf[slot]!,
    size: sizeOf[slot]!,
    slot,
  }));
  const scene: DirectorScene = {
    id: opts.id,
    arm: 'canonical',
    blocks,
    hidden: blocks[trapSlot]!.letter,
    director: 'across',
    extremum,
    design: { palette, mapping: [...colorOf], targetSlot, trapSlot },
  };
  return withArm(scene, opts.arm);
}
