// Reading Director-Task answers. A reply's answer line ("Answer: red A, blue C") is read for
// block letters and for colour words of the closed vocabulary; letter level and colour level
// are judged apart, so that a model that names the right block by letter but calls blue
// "cyan" is letter-correct and colour-wrong (the paper's letter_only_correct).

import { BLOCK_COLORS, trapBlock, type DirectorScene } from '../world/index.js';
import type { DirectorAnswerMode } from './director-records.js';

const COLOR_WORDS = new RegExp(`\\b(${BLOCK_COLORS.join('|')})\\b`, 'g');

/**
 * Letters (of blocks in the scene) and colour words (any of the closed vocabulary, so a colour
 * the scene does not have counts against the answer) named in the answer line, or in the
 * whole reply when it has none.
 */
export function readBlocks(reply: string, scene: DirectorScene): { letters: string[]; colors: string[] } {
  const lines = [...reply.matchAll(/answer\s*:\s*([^\n]+)/gi)];
  const part = lines.at(-1)?.[1] ?? reply;
  const letters = [...new Set((part.match(/\b[A-D]\b/g) ?? []).filter((l) => scene.blocks.some((b) => b.letter === l)))];
  const colors = [...new Set(part.toLowerCase().match(COLOR_WORDS) ?? [])];
  return { letters, colors };
}

function sameSet(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((x) => b.includes(x));
}

export interface JudgedAnswer {
  letter: boolean;
  color: boolean;
  letters: string[];
  colors: string[];
  mode: DirectorAnswerMode;
  reply: string;
}

/** A multi-select visibility answer (a, c.Q1) against the letters the director sees. */
export function judgeSeen(reply: string, scene: DirectorScene, seen: string[]): JudgedAnswer {
  const r = readBlocks(reply, scene);
  const colorOf = (l: string) => scene.blocks.find((b) => b.letter === l)?.color ?? '';
  const letter = sameSet(r.letters, seen);
  const color = sameSet(r.colors, seen.map(colorOf));
  const hidden = trapBlock(scene);
  const mode: DirectorAnswerMode =
    r.letters.length === 0 && r.colors.length === 0
      ? 'no_answer'
      : letter && color
        ? 'correct'
        : letter
          ? 'letter_only_correct'
          : color
            ? 'color_only_correct'
            : hidden && (r.letters.includes(hidden.letter) || (r.letters.length === 0 && r.colors.includes(hidden.color)))
              ? 'includes_hidden'
              : 'wrong';
  return { letter, color, letters: r.letters, colors: r.colors, mode, reply };
}

/**
 * A single-select acting answer (b, c.Q2) against the target. The block picked is the one
 * letter named, or, with no letter, the one colour; picking the block the director cannot see
 * is the egocentric error.
 */
export function judgeMove(reply: string, scene: DirectorScene, target: string): JudgedAnswer & { egocentric: boolean } {
  const r = readBlocks(reply, scene);
  const t = scene.blocks.find((b) => b.letter === target)!;
  const letter = r.letters.length === 1 && r.letters[0] === t.letter;
  const color = r.colors.length === 1 && r.colors[0] === t.color;
  const picked =
    r.letters.length === 1
      ? r.letters[0]
      : r.letters.length === 0 && r.colors.length === 1
        ? scene.blocks.find((b) => b.color === r.colors[0])?.letter
        : undefined;
  const hidden = trapBlock(scene);
  const egocentric = hidden !== undefined && picked === hidden.letter;
  const mode: DirectorAnswerMode =
    r.letters.length === 0 && r.colors.length === 0
      ? 'no_answer'
      : letter && color
        ? 'correct'
        : letter
          ? 'letter_only_correct'
          : color && r.letters.length === 0
            ? 'color_only_correct'
            : egocentric
              ? 'egocentric'
              : color
                ? 'color_only_correct'
                : 'wrong';
  return { letter, color, letters: r.letters, colors: r.colors, mode, reply, egocentric };
}
