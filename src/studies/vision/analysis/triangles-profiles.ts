// The paper's aggregation of animated-triangles scores (Section 3.2, Appendices E, J, K): each
// (subject, clip, judge) cell is the judge's mean over trials, rounded to the rubric's integer
// scale; a clip's score is the median over judges; a subject's profile in a condition is the
// mean over that condition's clips. Per arm (numbered grid, its reversed and still controls,
// the plain grid, the frame sequence, native video), and per clip set (the generated clips, or
// the user's own): every subject's profile per condition with its distances to the human
// groups of that condition, the strict Intent rank ToM > GD > Random per subject, and the
// panel figures (median Intent per condition over all judge cells, the panel-mean profile and
// its nearest group per condition).

import { profileOf, type TriangleProfile } from './vision-profiles.js';
import { type ReferenceGroups, TRIANGLE_CONDITIONS } from './human-references.js';
import type { TriangleCell } from './triangles-cells.js';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The median (the mean of the two middle values for an even count). */
export function medianOf(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** One clip's score for one subject in one arm. */
export interface ClipScore {
  subject: string;
  clipSet: string;
  arm: string;
  clip: string;
  condition: string;
  /** Median over judges of the judge cells. */
  intent: number;
  approp: number;
  /** Each judge's cell: its mean over trials, rounded to the integer scale. */
  judgeCells: Array<{ judge: string; intent: number; approp: number }>;
  trials: number;
}

/** Clip scores from cells: per judge the mean over trials (rounded), then the median over judges. */
export function clipScores(cells: TriangleCell[]): ClipScore[] {
  const groups = new Map<string, TriangleCell[]>();
  for (const c of cells) {
    const k = [c.subject, c.clipSet, c.arm, c.clip].join('\u0000');
    groups.set(k, [...(groups.get(k) ?? []), c]);
  }
  return [...groups.values()].map((xs) => {
    const { subject, clipSet, arm, clip, condition } = xs[0]!;
    const byJudge = new Map<string, Array<{ intent: number; approp: number }>>();
    for (const c of xs) for (const j of c.judges) byJudge.set(j.judge, [...(byJudge.get(j.judge) ?? []), j]);
    const judgeCells = [...byJudge.entries()].map(([judge, vs]) => ({
      judge,
      intent: Math.round(mean(vs.map((v) => v.intent))),
      approp: Math.round(mean(vs.map((v) => v.approp))),
    }));
    return {
      subject,
      clipSet,
      arm,
      clip,
      condition,
      intent: medianOf(judgeCells.map((j) => j.intent)),
      approp: medianOf(judgeCells.map((j) => j.approp)),
      judgeCells,
      trials: new Set(xs.map((c) => c.replicate)).size,
    };
  });
}

export interface ConditionProfile extends TriangleProfile {
  clipSet: string;
  arm: string;
  clips: number;
}

/** Every subject's profile per clip set, arm and condition, with distances to that condition's human groups. */
export function conditionProfiles(scores: ClipScore[], refs: ReferenceGroups): ConditionProfile[] {
  const groups = new Map<string, ClipScore[]>();
  for (const s of scores) {
    const k = [s.subject, s.clipSet, s.arm, s.condition].join('\u0000');
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  return [...groups.values()].map((xs) => {
    const { subject, clipSet, arm, condition } = xs[0]!;
    const p = profileOf(subject, mean(xs.map((x) => x.intent)), mean(xs.map((x) => x.approp)), refs, condition);
    return { ...p, clipSet, arm, clips: xs.length };
  });
}

/** Whether a subject's Intent is strictly ordered ToM > goal-directed > random (null when a condition is missing). */
export function strictIntentRank(profiles: ConditionProfile[]): boolean | null {
  const of = (c: string) => profiles.find((p) => p.condition === c)?.intent;
  const [t, g, r] = TRIANGLE_CONDITIONS.map(of);
  if (t === undefined || g === undefined || r === undefined) return null;
  return t > g && g > r;
}

export interface TrianglesArmSummary {
  clipSet: string;
  arm: string;
  subjects: string[];
  /** Per condition: the median Intent over every (subject, clip, judge) cell. */
  panelMedianIntent: Record<string, number>;
  /** Per subject: whether Intent is strictly ToM > GD > random (null: a condition is missing). */
  strictRank: Record<string, boolean | null>;
  strictRankCount: number;
  /** Per condition: the mean over subjects of their profiles, its distances and nearest human group. */
  panelMean: Record<
    string,
    { intent: number; approp: number; distances: Array<{ group: string; distance: number }>; nearest: string | null }
  >;
}

const ARM_ORDER = [
  'grid',
  'reversed',
  'still',
  'static-grid',
  'plain-grid',
  'frames',
  'video',
  'frames-32',
  'frames-64',
  'grid-4x4',
  'grid-4x8',
  'grid-8x8',
  'grid-4x4-fullres',
  'grid-8x8-fullres',
];

/** The panel figures of every clip set and arm (the paper's Tables 6, 9 and 10), generated clips first, canonical arm first. */
export function armSummaries(scores: ClipScore[], profiles: ConditionProfile[], refs: ReferenceGroups): TrianglesArmSummary[] {
  const arms = [...new Set(scores.map((s) => `${s.clipSet}\u0000${s.arm}`))]
    .map((k) => k.split('\u0000') as [string, string])
    .sort(
      ([sa, a], [sb, b]) =>
        sa.localeCompare(sb) || (ARM_ORDER.indexOf(a) + 1 || 99) - (ARM_ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b),
    );
  return arms.map(([clipSet, arm]) => {
    const here = scores.filter((s) => s.clipSet === clipSet && s.arm === arm);
    const ps = profiles.filter((p) => p.clipSet === clipSet && p.arm === arm);
    const subjects = [...new Set(here.map((s) => s.subject))].sort();
    const conditions = [...new Set(here.map((s) => s.condition))].sort(
      (a, b) =>
        ((TRIANGLE_CONDITIONS as readonly string[]).indexOf(a) + 1 || 9) - ((TRIANGLE_CONDITIONS as readonly string[]).indexOf(b) + 1 || 9),
    );
    const strictRank = Object.fromEntries(subjects.map((s) => [s, strictIntentRank(ps.filter((p) => p.subject === s))]));
    return {
      clipSet,
      arm,
      subjects,
      panelMedianIntent: Object.fromEntries(
        conditions.map((c) => [c, medianOf(here.filter((s) => s.condition === c).flatMap((s) => s.judgeCells.map((j) => j.intent)))]),
      ),
      strictRank,
      strictRankCount: Object.values(strictRank).filter((x) => x === true).length,
      panelMean: Object.fromEntries(
        conditions.map((c) => {
          const cp = ps.filter((p) => p.condition === c);
          const p = profileOf('panel', mean(cp.map((x) => x.intent)), mean(cp.map((x) => x.approp)), refs, c);
          return [c, { intent: p.intent, approp: p.approp, distances: p.distances, nearest: p.nearest }];
        }),
      ),
    };
  });
}
