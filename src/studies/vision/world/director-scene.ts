// The Director Task (Keysar et al. 2000), as a scene graph: three or four blocks of distinct
// sizes and colours on a table, each with a letter; a director across the table (or, in a
// control arm, on the addressee's side); an opaque partition that hides one block from the
// director only. The director asks for the largest (or smallest) block: from the director's
// view the answer is the extremum among the blocks it can see; the trap is the hidden block,
// which is the extremum from the addressee's own view.

import type { Rng } from '../../../core/index.js';

/** The closed colour vocabulary: every colour a block can have (the union of the palettes). */
export const BLOCK_COLORS = ['yellow', 'red', 'blue', 'purple', 'green', 'orange', 'cyan'] as const;
export const BLOCK_LETTERS = ['A', 'B', 'C', 'D'] as const;

export interface DirectorBlock {
  letter: string;
  color: string;
  /** 1 (smallest) .. n (largest). */
  size: number;
  /** Left-to-right position on the table. */
  slot: number;
}

export type DirectorArm = 'canonical' | 'no-occluder' | 'same-side';

/** Where a scene sits in the counterbalanced design (absent for freely drawn scenes). */
export interface DirectorDesign {
  /** Index of the colour palette (DIRECTOR_PALETTES). */
  palette: number;
  /** The colours of the blocks A, B, C(, D) in letter order: the letter-colour mapping. */
  mapping: string[];
  /** Slot (0 = left) of the block the director means in the canonical arm. */
  targetSlot: number;
  /** Slot of the block the partition hides in the canonical arm: the egocentric trap. */
  trapSlot: number;
}

export interface DirectorScene {
  id: string;
  arm: DirectorArm;
  blocks: DirectorBlock[];
  /** The block the partition hides from the director (null: no partition). */
  hidden: string | null;
  director: 'across' | 'same-side';
  extremum: 'largest' | 'smallest';
  design?: DirectorDesign;
}

/** A freely drawn scene (seeded): sizes, colours and slots shuffled; see counterbalancedScene for the paper's balanced set. */
export function makeDirectorScene(rng: Rng, id: string, opts: { blocks: 3 | 4; arm: DirectorArm }): DirectorScene {
  const n = opts.blocks;
  const letters = rng.shuffle([...BLOCK_LETTERS].slice(0, n));
  const colors = rng.shuffle(['red', 'blue', 'green', 'yellow'].slice(0, n));
  const sizes = rng.shuffle(Array.from({ length: n }, (_, i) => i + 1));
  const slots = rng.shuffle(Array.from({ length: n }, (_, i) => i));
  const blocks = letters
    .map((letter, i) => ({ letter, color: colors[i]!, size: sizes[i]!, slot: slots[i]! }))
    .sort((a, b) => a.slot - b.slot);
  const extremum = rng.next() < 0.5 ? 'largest' : 'smallest';
  // The partition hides the addressee's own extremum, so that taking one's own view is the error.
  const own = blocks.reduce((m, b) => ((extremum === 'largest' ? b.size > m.size : b.size < m.size) ? b : m));
  return withArm({ id, arm: 'canonical', blocks, hidden: own.letter, director: 'across', extremum }, opts.arm);
}

/** The same scene under another arm: no partition, or the director on the addressee's side. */
export function withArm(s: DirectorScene, arm: DirectorArm): DirectorScene {
  const own = s.blocks.reduce((m, b) => ((s.extremum === 'largest' ? b.size > m.size : b.size < m.size) ? b : m));
  return {
    ...s,
    arm,
    hidden: arm === 'no-occluder' ? null : own.letter,
    director: arm === 'same-side' ? 'same-side' : 'across',
  };
}

/** Letters the director can see (the partition hides only from across the table). */
export function directorView(s: DirectorScene): string[] {
  return s.blocks.filter((b) => !(s.hidden === b.letter && s.director === 'across')).map((b) => b.letter);
}

/** The block meant: the extremum among the blocks seen from the given view. */
export function targetBlock(s: DirectorScene, view: 'director' | 'addressee'): DirectorBlock {
  const seen = view === 'director' ? s.blocks.filter((b) => directorView(s).includes(b.letter)) : s.blocks;
  return seen.reduce((m, b) => ((s.extremum === 'largest' ? b.size > m.size : b.size < m.size) ? b : m));
}

/** The block the director cannot see (the egocentric choice), if any. */
export function trapBlock(s: DirectorScene): DirectorBlock | undefined {
  const seen = directorView(s);
  return s.blocks.find((b) => !seen.includes(b.letter));
}

/** The blocks as "colour letter", left to right. */
export function blockDescription(s: DirectorScene): string {
  return s.blocks.map((b) => `${b.color} ${b.letter}`).join(', ');
}
