// Shortcut baselines: accuracy of each subject on every baseline, and the items answerable
// without their story. The test, per item and subject: each no-story variant (question-only,
// options-only in two orders) counts once, right when most of its replicates are right (a
// replicate repeats its variant: a deterministic subject answers it alike every time, so
// replicates are not independent evidence and pooling them would flag every item it gets right).
// The item is flagged when P(X >= k) < alpha for X ~ Binomial(variants, 1/options), chance being a
// uniform guess among the options (a one-sided exact binomial test, uncorrected; the share of
// items a uniform guesser would get flagged is reported beside the flags). With three no-story
// variants a two-option item cannot be flagged (at best p = 1/8): the suite-level test is the
// evidence there. An item is flagged for the run when some subject flags it. The
// answer-length-only baseline needs no subject: the share of items whose answer is the unique
// longest option, against its chance share.

import { binomialPmf, normalCdf } from '../../../stats/index.js';
import { NO_STORY_KINDS } from '../variants/shortcut.js';
import { bySubject, share, type ProbeRow } from './probe-rows.js';

/** P(X >= k) for X ~ Binomial(n, p). */
export function binomialUpperTail(k: number, n: number, p: number): number {
  let sum = 0;
  for (let i = k; i <= n; i++) sum += binomialPmf(i, n, p);
  return Math.min(1, sum);
}

/** The probability that a uniform guesser is flagged on an item of n variants and `options` options at level alpha. */
export function chanceFlagRate(n: number, options: number, alpha: number): number {
  for (let k = 0; k <= n; k++) if (binomialUpperTail(k, n, 1 / options) < alpha) return binomialUpperTail(k, n, 1 / options);
  return 0;
}

export interface ShortcutFlag {
  suite: string;
  id: string;
  subject: string;
  correct: number;
  trials: number;
  chance: number;
  p: number;
}

export interface ShortcutSuite {
  suite: string;
  items: number;
  /** By subject: the items flagged and their share. */
  subjects: Array<{
    subject: string;
    flagged: number;
    share: number;
    /** The share of items a subject guessing uniformly would get flagged (the test's false-flag rate on this suite's items). */
    chanceShare: number;
    byKind: Record<string, number>;
    /** The suite as a whole without its story: accuracy on the no-story trials, the chance accuracy, and the one-sided p of the excess (normal approximation over items of different option counts). */
    noStory: { accuracy: number; chance: number; p: number };
  }>;
  /** Items flagged by some subject. */
  flagged: number;
  share: number;
  /** The answer-length-only baseline: answers that are the unique longest option, and the share expected by chance (mean 1/options). */
  longestAnswer: number;
  longestChance: number;
}

export interface ShortcutSummary {
  alpha: number;
  test: string;
  suites: ShortcutSuite[];
  flags: ShortcutFlag[];
}

const isNoStory = (kind: string) => (NO_STORY_KINDS as readonly string[]).includes(kind);

/** The shortcut baselines' summary of a run's shortcut trials. */
export function shortcutSummary(rows: readonly ProbeRow[], alpha = 0.05): ShortcutSummary {
  const trials = rows.filter((r) => r.detail.family === 'shortcut');
  const flags: ShortcutFlag[] = [];
  // Per (subject, item): per no-story variant, its replicates' right answers and count.
  const tested = new Map<
    string,
    { suite: string; id: string; subject: string; variants: Map<number, { right: number; n: number }>; options: number }
  >();
  for (const r of trials) {
    const key = `${r.subject}\u0000${r.detail.baseSuite}\u0000${r.detail.baseId}`;
    const t = tested.get(key) ?? { suite: r.detail.baseSuite, id: r.detail.baseId, subject: r.subject, variants: new Map(), options: 0 };
    r.detail.variants.forEach((v, index) => {
      if (!isNoStory(v.kind)) return;
      const c = t.variants.get(index) ?? { right: 0, n: 0 };
      c.n++;
      if (v.correct) c.right++;
      t.variants.set(index, c);
      t.options = v.presented.length;
    });
    tested.set(key, t);
  }
  const chanceRate = new Map<string, number>();
  for (const t of tested.values()) {
    const n = t.variants.size;
    const k = [...t.variants.values()].filter((c) => c.right * 2 > c.n).length;
    const chance = 1 / t.options;
    const p = binomialUpperTail(k, n, chance);
    chanceRate.set(`${t.subject}\u0000${t.suite}\u0000${t.id}`, n > 0 ? chanceFlagRate(n, t.options, alpha) : 0);
    if (n > 0 && p < alpha) flags.push({ suite: t.suite, id: t.id, subject: t.subject, correct: k, trials: n, chance, p });
  }
  const suites = [...new Set(trials.map((r) => r.detail.baseSuite))].sort().map((suite): ShortcutSuite => {
    const rs = trials.filter((r) => r.detail.baseSuite === suite);
    const ids = new Set(rs.map((r) => r.detail.baseId));
    const firstOf = new Map(rs.map((r) => [r.detail.baseId, r]));
    const subjects = [...bySubject(rs)].map(([subject, mine]) => {
      const flagged = flags.filter((f) => f.suite === suite && f.subject === subject).length;
      const variants = mine.flatMap((r) => r.detail.variants);
      const kinds = [...new Set(variants.map((v) => v.kind))];
      const byKind = Object.fromEntries(
        kinds.map((k) => {
          const vs = variants.filter((v) => v.kind === k);
          return [k, share(vs.filter((v) => v.correct).length, vs.length)];
        }),
      );
      const noStory = variants.filter((v) => isNoStory(v.kind));
      const right = noStory.filter((v) => v.correct).length;
      const expected = noStory.reduce((a, v) => a + 1 / v.presented.length, 0);
      const variance = noStory.reduce((a, v) => a + (1 / v.presented.length) * (1 - 1 / v.presented.length), 0);
      const chanceFlags = [...ids].reduce((a, id) => a + (chanceRate.get(`${subject}\u0000${suite}\u0000${id}`) ?? 0), 0);
      return {
        subject,
        flagged,
        share: share(flagged, ids.size),
        chanceShare: share(chanceFlags, ids.size),
        byKind,
        noStory: {
          accuracy: share(right, noStory.length),
          chance: share(expected, noStory.length),
          p: variance > 0 ? 1 - normalCdf((right - expected) / Math.sqrt(variance)) : Number.NaN,
        },
      };
    });
    const flagged = new Set(flags.filter((f) => f.suite === suite).map((f) => f.id)).size;
    const firsts = [...firstOf.values()];
    return {
      suite,
      items: ids.size,
      subjects,
      flagged,
      share: share(flagged, ids.size),
      longestAnswer: share(firsts.filter((r) => r.detail.lengthOnly?.longest).length, firsts.length),
      longestChance: firsts.reduce((s, r) => s + 1 / r.detail.variants[0]!.presented.length, 0) / (firsts.length || 1),
    };
  });
  return {
    alpha,
    test: `one-sided exact binomial test per item and subject: the no-story variants (${NO_STORY_KINDS.join(', ')}) right on most of their replicates, against a uniform guess (1/options), flagged at p < ${alpha} (uncorrected; chanceShare is the share a uniform guesser would get flagged)`,
    suites,
    flags,
  };
}
