// Dataset statistics and review tallies of a StoryTurn file, as CoMMET reports them (Section
// 3.2.3: 591 StoryTurns, 1,976 questions, 844 images, 3.34 turns with questions on average, up to
// eight; Appendix B Table 6: the errors reviewers found, by type): stories by status, setting,
// mental state, category and task; turns, questions and images per story; "why" questions;
// rejected stories by error type (the types reviewers gave, or the type each review note of a
// one-status file starts with); and the reviewers' agreement (analysis/review-agreement.ts).

import { imageIds, type StoryTurnStory } from '../protocol/storyturn.js';
import { reviewAgreement, type ReviewAgreement } from '../analysis/review-agreement.js';
import { REVIEW_ERRORS } from './storyturn-authoring.js';
import { currentVerdicts } from './storyturn-reviews.js';

export interface Spread {
  total: number;
  mean: number;
  max: number;
}

export interface StoryTurnDatasetStats {
  stories: number;
  byStatus: Record<string, number>;
  bySetting: Record<string, number>;
  byState: Record<string, number>;
  byCategory: Record<string, number>;
  byTask: Record<string, number>;
  turns: Spread;
  /** Turns that ask a question. */
  questions: Spread;
  whyQuestions: number;
  /** Distinct images per story (an image used by two turns counts once). */
  images: Spread;
  /**
   * Rejected stories per error type (REVIEW_ERRORS; `other` for notes of no known type): the
   * types of the rejections that decide the status, and of every note and rejection given.
   */
  rejections: { stories: number; byType: Record<string, number>; notesByType: Record<string, number> };
  /** Reviewers and their agreement; null when no story has verdicts. */
  agreement: ReviewAgreement | null;
}

const spread = (xs: number[]): Spread => ({
  total: xs.reduce((a, b) => a + b, 0),
  mean: xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : Number.NaN,
  max: xs.length ? Math.max(...xs) : Number.NaN,
});

const tally = (xs: string[]) => {
  const out: Record<string, number> = {};
  for (const x of [...xs].sort()) out[x] = (out[x] ?? 0) + 1;
  return out;
};

/** The error type a review note names ("answer-revealed: ..." -> answer-revealed), or `other`. */
export function reviewErrorType(note: string): string {
  const type = note.split(':')[0]!.trim();
  return type in REVIEW_ERRORS ? type : 'other';
}

/** The error types of the rejections among these verdicts. */
const rejectionErrors = (verdicts: ReadonlyArray<{ verdict: string; errors?: string[] }>) =>
  verdicts.flatMap((v) => (v.verdict === 'reject' ? (v.errors ?? []) : []));

/** Statistics of a set of StoryTurns (all statuses; see the file comment). */
export function storyTurnDatasetStats(stories: readonly StoryTurnStory[]): StoryTurnDatasetStats {
  const rejected = stories.filter((s) => s.status === 'rejected');
  return {
    stories: stories.length,
    byStatus: tally(stories.map((s) => s.status)),
    bySetting: tally(stories.map((s) => s.setting)),
    byState: tally(stories.map((s) => s.state)),
    byCategory: tally(stories.map((s) => s.category ?? s.state)),
    byTask: tally(stories.map((s) => s.task ?? '-')),
    turns: spread(stories.map((s) => s.turns.length)),
    questions: spread(stories.map((s) => s.turns.filter((t) => t.question.trim()).length)),
    whyQuestions: stories.reduce((n, s) => n + s.turns.filter((t) => /^\s*why\b/i.test(t.question)).length, 0),
    images: spread(stories.map((s) => new Set(s.turns.flatMap(imageIds)).size)),
    rejections: {
      stories: rejected.length,
      // A story rejected for several reasons counts once per distinct type.
      byType: tally(
        rejected.flatMap((s) => [...new Set([...(s.review ?? []), ...rejectionErrors(currentVerdicts(s))].map(reviewErrorType))]),
      ),
      notesByType: tally(stories.flatMap((s) => [...(s.review ?? []), ...rejectionErrors(s.reviews ?? [])].map(reviewErrorType))),
    },
    agreement: reviewAgreement(stories),
  };
}
