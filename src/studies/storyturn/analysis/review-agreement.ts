// How StoryTurn reviewers agree (storyturn-reviews.ts): each story's verdicts on its current
// version, and the reviewers' agreement on approve/reject. The units agreed on are story
// versions (a story as it was between two corrections) that two or more reviewers judged, each
// reviewer's latest verdict on that version counting once: the independent verdicts CoMMET's
// three experts gave before a correction, and again after it. Fleiss' kappa and Gwet's AC1 over
// those units (AC1 stays defined where nearly every verdict is an approval and kappa does not).

import { fleissKappa, gwetAC1 } from '../../../stats/index.js';
import type { StoryTurnStory } from '../protocol/storyturn.js';
import { currentVerdicts, REQUIRED_REVIEWERS, storyContentHash } from '../suites/storyturn-reviews.js';

export interface StoryReviewSummary {
  id: string;
  status: StoryTurnStory['status'];
  /** Reviewers approving the current version. */
  approvals: string[];
  /** Reviewers rejecting the current version, with the error types they found. */
  rejections: Array<{ reviewer: string; errors: string[]; note?: string }>;
  /** Approvals the current version still needs (0 once approved by REQUIRED_REVIEWERS reviewers). */
  needed: number;
  /** Verdicts given on earlier versions (the story was corrected since). */
  earlier: number;
}

export interface ReviewAgreement {
  reviewers: string[];
  /** Story versions judged by two or more reviewers: the units agreed on. */
  versions: number;
  /** The verdicts on those versions (each reviewer's latest on a version). */
  verdicts: number;
  /** The share of agreeing reviewer pairs, averaged over versions. */
  percentAgreement: number;
  fleissKappa: number;
  gwetAC1: number;
  /** Why a coefficient is NaN (no version judged twice; one verdict only, for kappa). */
  reason?: string;
  /** Each reviewer's latest verdicts, one per story version judged. */
  byReviewer: Array<{ reviewer: string; approve: number; reject: number }>;
}

/** Each reviewed story's verdicts on its current version (stories without verdicts are left out). */
export function reviewSummaries(stories: readonly StoryTurnStory[]): StoryReviewSummary[] {
  return stories
    .filter((s) => s.reviews?.length)
    .map((s) => {
      const current = currentVerdicts(s);
      const hash = storyContentHash(s);
      const approvals = current.filter((v) => v.verdict === 'approve').map((v) => v.reviewer);
      return {
        id: s.id,
        status: s.status,
        approvals,
        rejections: current
          .filter((v) => v.verdict === 'reject')
          .map((v) => ({ reviewer: v.reviewer, errors: v.errors ?? [], ...(v.note ? { note: v.note } : {}) })),
        needed: Math.max(0, REQUIRED_REVIEWERS - approvals.length),
        earlier: s.reviews!.filter((r) => r.content !== hash).length,
      };
    });
}

/** The reviewers' agreement on approve/reject (see the file comment); null when no story has verdicts. */
export function reviewAgreement(stories: readonly StoryTurnStory[]): ReviewAgreement | null {
  // story version -> reviewer -> latest verdict
  const versions = new Map<string, Map<string, 'approve' | 'reject'>>();
  for (const s of stories)
    for (const r of s.reviews ?? []) {
      const key = `${s.id}\u0000${r.content}`;
      const v = versions.get(key) ?? new Map();
      v.set(r.reviewer, r.verdict);
      versions.set(key, v);
    }
  if (versions.size === 0) return null;
  const reviewers = [...new Set([...versions.values()].flatMap((v) => [...v.keys()]))].sort();
  const judged = [...versions.values()].filter((v) => v.size >= 2);
  const byReviewer = reviewers.map((reviewer) => {
    const mine = [...versions.values()].map((v) => v.get(reviewer)).filter((x) => x !== undefined);
    return { reviewer, approve: mine.filter((x) => x === 'approve').length, reject: mine.filter((x) => x === 'reject').length };
  });
  if (judged.length === 0)
    return {
      reviewers,
      versions: 0,
      verdicts: 0,
      percentAgreement: Number.NaN,
      fleissKappa: Number.NaN,
      gwetAC1: Number.NaN,
      reason: 'no story version was judged by two or more reviewers',
      byReviewer,
    };
  const ratings = judged.map((v) => reviewers.map((r) => v.get(r) ?? null));
  const kappa = fleissKappa(ratings);
  const ac1 = gwetAC1(ratings);
  return {
    reviewers,
    versions: judged.length,
    verdicts: judged.reduce((n, v) => n + v.size, 0),
    percentAgreement: ac1.pa,
    fleissKappa: kappa.coefficient,
    gwetAC1: ac1.coefficient,
    ...(kappa.reason ? { reason: kappa.reason } : {}),
    byReviewer,
  };
}
