// Sensitivity: per subject and alteration, accuracy on the altered stories (by belief order),
// split into flips (the alteration changes the answer) and holds (it must not), and the shortcut
// flags: trials answered right on the original and wrong on the alteration.

import { bySubject, share, type ProbeRow } from './probe-rows.js';

export interface AlterationResult {
  alteration: string;
  n: number;
  flips: number;
  accuracy: number;
  flipAccuracy: number;
  holdAccuracy: number;
  byOrder: Record<string, { n: number; accuracy: number }>;
  /** Right on the original, wrong on this alteration. */
  shortcut: number;
  shortcutShare: number;
}

export interface SensitivitySubject {
  subject: string;
  items: number;
  originalAccuracy: number;
  alterations: AlterationResult[];
  /** Items flagged on some alteration (right on the original, wrong on the alteration). */
  flaggedItems: string[];
}

/** The sensitivity probe's summary of a run's sensitivity trials. */
export function sensitivitySummary(rows: readonly ProbeRow[]): SensitivitySubject[] {
  const trials = rows.filter((r) => r.detail.family === 'sensitivity');
  return [...bySubject(trials)].map(([subject, rs]) => {
    const pairs = rs.flatMap((r) => {
      const o = r.detail.variants.find((v) => v.kind === 'original')!;
      return r.detail.variants.filter((v) => v.kind !== 'original').map((v) => ({ r, o, v }));
    });
    const names = [...new Set(pairs.map((p) => p.v.kind))];
    const alterations = names.map((alteration): AlterationResult => {
      const ps = pairs.filter((p) => p.v.kind === alteration);
      const flips = ps.filter((p) => p.v.flips);
      const holds = ps.filter((p) => !p.v.flips);
      const orders = [...new Set(ps.map((p) => p.v.order ?? 0))].sort();
      const shortcut = ps.filter((p) => p.o.correct && !p.v.correct).length;
      return {
        alteration,
        n: ps.length,
        flips: flips.length,
        accuracy: share(ps.filter((p) => p.v.correct).length, ps.length),
        flipAccuracy: share(flips.filter((p) => p.v.correct).length, flips.length),
        holdAccuracy: share(holds.filter((p) => p.v.correct).length, holds.length),
        byOrder: Object.fromEntries(
          orders.map((k) => {
            const at = ps.filter((p) => (p.v.order ?? 0) === k);
            return [String(k), { n: at.length, accuracy: share(at.filter((p) => p.v.correct).length, at.length) }];
          }),
        ),
        shortcut,
        shortcutShare: share(shortcut, ps.filter((p) => p.o.correct).length),
      };
    });
    const originals = rs.map((r) => r.detail.variants.find((v) => v.kind === 'original')!);
    return {
      subject,
      items: rs.length,
      originalAccuracy: share(originals.filter((v) => v.correct).length, originals.length),
      alterations,
      flaggedItems: [...new Set(pairs.filter((p) => p.o.correct && !p.v.correct).map((p) => p.r.itemId))].sort(),
    };
  });
}
