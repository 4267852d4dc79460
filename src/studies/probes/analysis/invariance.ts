// Invariance: per item, how consistent a subject's answers are across variants; per subject,
// accuracy on the original and on each kind of variant, robust accuracy (right on every variant),
// flip rate (variants answered with another option than the original), the spread of accuracy
// across paraphrased templates, and positional bias: the positions chosen over each item's
// rotation set against a uniform spread (chi-square goodness of fit, one test per option count).

import { chiSquareGoodnessOfFit } from '../../../stats/index.js';
import { bySubject, share, type ProbeRow } from './probe-rows.js';

export interface PositionalBias {
  options: number;
  /** How often each position was chosen over the rotation sets (original and permutations). */
  counts: number[];
  statistic: number;
  df: number;
  p: number;
}

export interface InvarianceSubject {
  subject: string;
  items: number;
  originalAccuracy: number;
  variantAccuracy: number;
  robustAccuracy: number;
  flipRate: number;
  /** Mean share of an item's variants answered with its most common answer. */
  consistency: number;
  byKind: Record<string, { n: number; accuracy: number }>;
  paraphrase: { templates: Record<string, number>; min: number; max: number; spread: number; sd: number };
  positional: PositionalBias[];
}

export interface InvarianceItem {
  subject: string;
  itemId: string;
  replicate: number;
  consistency: number;
  robust: boolean;
  answers: Record<string, string | null>;
}

/** The invariance probe's summary of a run's invariance trials. */
export function invarianceSummary(rows: readonly ProbeRow[]): { subjects: InvarianceSubject[]; items: InvarianceItem[] } {
  const trials = rows.filter((r) => r.detail.family === 'invariance');
  const items: InvarianceItem[] = trials.map((r) => {
    const answers = r.detail.variants.map((v) => v.chosenText);
    const counts = new Map<string | null, number>();
    for (const a of answers) counts.set(a, (counts.get(a) ?? 0) + 1);
    return {
      subject: r.subject,
      itemId: r.itemId,
      replicate: r.replicate,
      consistency: Math.max(...counts.values()) / answers.length,
      robust: r.detail.variants.every((v) => v.correct),
      answers: Object.fromEntries(r.detail.variants.map((v) => [v.name, v.chosenText])),
    };
  });
  const subjects = [...bySubject(trials)].map(([subject, rs]): InvarianceSubject => {
    const variants = rs.flatMap((r) => r.detail.variants);
    const originals = variants.filter((v) => v.kind === 'original');
    const others = rs.flatMap((r) => {
      const o = r.detail.variants.find((v) => v.kind === 'original');
      return r.detail.variants.filter((v) => v.kind !== 'original').map((v) => ({ v, flipped: v.chosenText !== (o?.chosenText ?? null) }));
    });
    const kinds = [...new Set(variants.map((v) => v.kind))];
    const byKind = Object.fromEntries(
      kinds.map((k) => {
        const vs = variants.filter((v) => v.kind === k);
        return [k, { n: vs.length, accuracy: share(vs.filter((v) => v.correct).length, vs.length) }];
      }),
    );
    const templateNames = [...new Set(variants.filter((v) => v.kind === 'paraphrase').map((v) => v.name))];
    const templates: Record<string, number> = {};
    if (templateNames.length) templates.original = share(originals.filter((v) => v.correct).length, originals.length);
    for (const name of templateNames) {
      const vs = variants.filter((v) => v.name === name);
      templates[name] = share(vs.filter((v) => v.correct).length, vs.length);
    }
    const accs = Object.values(templates);
    const mean = accs.reduce((s, a) => s + a, 0) / (accs.length || 1);
    const positional: PositionalBias[] = [];
    const byK = new Map<number, number[]>();
    for (const r of rs)
      for (const v of r.detail.variants.filter((x) => x.kind === 'original' || x.kind === 'permutation')) {
        if (v.chosenPosition === null) continue;
        const counts = byK.get(v.presented.length) ?? Array(v.presented.length).fill(0);
        counts[v.chosenPosition]++;
        byK.set(v.presented.length, counts);
      }
    for (const [k, counts] of [...byK].sort((a, b) => a[0] - b[0])) {
      if (counts.reduce((s, c) => s + c, 0) === 0) continue;
      const t = chiSquareGoodnessOfFit(counts);
      positional.push({ options: k, counts, statistic: t.statistic, df: t.df, p: t.p });
    }
    const mine = items.filter((i) => i.subject === subject);
    return {
      subject,
      items: rs.length,
      originalAccuracy: share(originals.filter((v) => v.correct).length, originals.length),
      variantAccuracy: share(variants.filter((v) => v.correct).length, variants.length),
      robustAccuracy: share(mine.filter((i) => i.robust).length, mine.length),
      flipRate: share(others.filter((o) => o.flipped).length, others.length),
      consistency: mine.reduce((s, i) => s + i.consistency, 0) / (mine.length || 1),
      byKind,
      paraphrase: {
        templates,
        min: accs.length ? Math.min(...accs) : Number.NaN,
        max: accs.length ? Math.max(...accs) : Number.NaN,
        spread: accs.length ? Math.max(...accs) - Math.min(...accs) : Number.NaN,
        sd: accs.length > 1 ? Math.sqrt(accs.reduce((s, a) => s + (a - mean) ** 2, 0) / (accs.length - 1)) : Number.NaN,
      },
      positional,
    };
  });
  return { subjects, items };
}
