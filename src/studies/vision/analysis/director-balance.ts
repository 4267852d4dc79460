// The Director Task by counterbalancing factor: for each subject and arm, (b) accuracy at
// letter and colour level and the egocentric rate on (b) and c.Q2, split by palette, polarity,
// target slot and trap slot. A colour-position shortcut would show as accuracy that depends on
// one of these; a perspective failure as a flat egocentric rate across all of them.

import { DIRECTOR_PALETTES } from '../world/index.js';
import type { DirectorSceneOutcome } from './director-run.js';

export type DirectorFactor = 'palette' | 'polarity' | 'targetSlot' | 'trapSlot';

export interface DirectorFactorRow {
  subject: string;
  arm: string;
  factor: DirectorFactor;
  level: string;
  scenes: number;
  bLetter: number;
  /** Null when no scene of the level has colour-level outcomes. */
  bColor: number | null;
  egocentricB: number;
  egocentricCQ2: number | null;
}

const SLOT = ['left', 'middle', 'right', 'far right'];

function levelOf(o: DirectorSceneOutcome, f: DirectorFactor): string | undefined {
  const d = o.design;
  if (f === 'polarity') return o.extremum;
  if (!d) return undefined;
  if (f === 'palette') return DIRECTOR_PALETTES[d.palette]?.join('/') ?? String(d.palette);
  const slot = f === 'targetSlot' ? d.targetSlot : d.trapSlot;
  // Letters stand in slot order, so slot s carries letter A + s.
  return `${'ABCD'[slot]} (${SLOT[slot] ?? slot})`;
}

/** Rows per subject, arm, factor and level, in that order (levels sorted). */
export function directorByFactor(outcomes: DirectorSceneOutcome[]): DirectorFactorRow[] {
  const groups = new Map<string, { subject: string; arm: string; factor: DirectorFactor; level: string; xs: DirectorSceneOutcome[] }>();
  const factors: DirectorFactor[] = ['palette', 'polarity', 'targetSlot', 'trapSlot'];
  for (const o of outcomes)
    for (const factor of factors) {
      const level = levelOf(o, factor);
      if (level === undefined) continue;
      const key = [o.subject, o.arm, factor, level].join('\u0000');
      const g = groups.get(key) ?? { subject: o.subject, arm: o.arm, factor, level, xs: [] };
      g.xs.push(o);
      groups.set(key, g);
    }
  const rate = (xs: DirectorSceneOutcome[], f: (o: DirectorSceneOutcome) => boolean | undefined) => {
    const known = xs.filter((o) => f(o) !== undefined);
    return known.length ? known.filter((o) => f(o)).length / known.length : null;
  };
  return [...groups.values()]
    .sort(
      (x, y) =>
        x.subject.localeCompare(y.subject) ||
        x.arm.localeCompare(y.arm) ||
        factors.indexOf(x.factor) - factors.indexOf(y.factor) ||
        x.level.localeCompare(y.level),
    )
    .map(({ subject, arm, factor, level, xs }) => ({
      subject,
      arm,
      factor,
      level,
      scenes: xs.length,
      bLetter: rate(xs, (o) => o.letter.b)!,
      bColor: rate(xs, (o) => o.color?.b),
      egocentricB: rate(xs, (o) => o.egocentricB)!,
      egocentricCQ2: rate(xs, (o) => o.egocentricCQ2),
    }));
}
