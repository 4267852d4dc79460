// The Director Task's perceptual and instruction floor (the paper's Appendix C): on the control
// arms (no occluder; the director on the addressee's side) the (b) target is the addressee's own
// visual extremum, so a subject that sees the blocks and understands "largest"/"smallest" gets
// it right. The pre-registered pass criterion is control (b) at letter level (the right letter,
// whatever colour is named) >= 11/12 on each control arm; with another number of scenes, the
// same share. A subject passes the floor when it passes on every control arm it was run on;
// its canonical (b) stands beside, so that a canonical collapse over a passed floor reads as
// perspective-taking, not perception or instruction following.

import type { DirectorSceneOutcome } from './director-run.js';

/** The control arms of the floor, in the paper's order. */
export const FLOOR_ARMS = ['no-occluder', 'same-side'] as const;

/** The pass criterion: at least 11 of 12 scenes right on (b) at letter level. */
export const FLOOR_CRITERION = { right: 11, of: 12 } as const;

export interface FloorArm {
  arm: string;
  /** Scenes with (b) right at letter level (majority over trials). */
  right: number;
  scenes: number;
  pass: boolean;
}

export interface FloorRow {
  subject: string;
  /** Canonical (b) at letter level, for comparison (null: no canonical scenes). */
  canonicalB: { right: number; scenes: number } | null;
  arms: FloorArm[];
  /** Passed on every control arm it was run on; null when it ran on none. */
  pass: boolean | null;
}

/** Whether `right` of `scenes` meets the criterion's share (11/12 by default). */
export function meetsFloor(right: number, scenes: number, criterion: { right: number; of: number } = FLOOR_CRITERION): boolean {
  return scenes > 0 && right * criterion.of >= criterion.right * scenes;
}

/** The floor per subject from a run's scene outcomes (subjects in the order they first appear). */
export function directorFloor(outcomes: DirectorSceneOutcome[], criterion: { right: number; of: number } = FLOOR_CRITERION): FloorRow[] {
  const subjects = [...new Set(outcomes.map((o) => o.subject))];
  const count = (subject: string, arm: string) => {
    const here = outcomes.filter((o) => o.subject === subject && o.arm === arm);
    return { right: here.filter((o) => o.letter.b).length, scenes: here.length };
  };
  return subjects.map((subject) => {
    const canonical = count(subject, 'canonical');
    const arms = FLOOR_ARMS.map((arm) => ({ arm, ...count(subject, arm) }))
      .filter((a) => a.scenes > 0)
      .map((a) => ({ ...a, pass: meetsFloor(a.right, a.scenes, criterion) }));
    return {
      subject,
      canonicalB: canonical.scenes ? canonical : null,
      arms,
      pass: arms.length ? arms.every((a) => a.pass) : null,
    };
  });
}

/** The floor as a table, the same for text and HTML: its header and a row of cells per subject; `none` marks a missing count. */
export function floorTableCells(rows: FloorRow[], none: string): { header: string[]; cells: string[][] } {
  const frac = (x: { right: number; scenes: number } | null | undefined) => (x ? `${x.right}/${x.scenes}` : none);
  return {
    header: ['subject', 'canonical b', ...FLOOR_ARMS.map((a) => `${a} b`), 'floor'],
    cells: rows.map((r) => [
      r.subject,
      frac(r.canonicalB),
      ...FLOOR_ARMS.map((a) => {
        const x = r.arms.find((y) => y.arm === a);
        return x ? `${frac(x)} ${x.pass ? 'pass' : 'FAIL'}` : none;
      }),
      r.pass === null ? 'no control arm' : r.pass ? 'pass' : 'FAIL',
    ]),
  };
}
