// Expert review of StoryTurns as CoMMET did it (Section 3.2.2, Dataset Validation): one expert
// reviews a story's text and images, then two more review it independently; text is corrected
// and images redrawn until all three agree the story is free of errors. Each verdict names its
// reviewer and the story's content hash at the time (text, images' bytes, state, setting,
// category, task): a corrected story is a new version, and verdicts on an older one no longer
// count. The status follows from the verdicts on the current version, the latest of each
// reviewer: any rejection makes it `rejected`; approvals by REQUIRED_REVIEWERS reviewers and no
// rejection make it `approved`; otherwise it is `generated` (awaiting review). A story without
// verdicts keeps the status its file gives.

import { contentHash, InputError } from '../../../core/index.js';
import { imageIds, type StoryReview, type StoryTurnStory } from '../protocol/storyturn.js';
import { REVIEW_ERRORS, type ReviewError } from './storyturn-authoring.js';

/** Reviewers who must approve a story's current version (CoMMET: three experts). */
export const REQUIRED_REVIEWERS = 3;

/** What a verdict is given on: the story as a model sees it, and how it is filed. */
export function storyContentHash(s: StoryTurnStory): string {
  return contentHash({
    state: s.state,
    setting: s.setting,
    category: s.category ?? null,
    task: s.task ?? null,
    turns: s.turns,
    images: s.images,
  }).slice(0, 16);
}

/** The latest verdict of each reviewer on the story's current version. */
export function currentVerdicts(s: StoryTurnStory): StoryReview[] {
  const hash = storyContentHash(s);
  const latest = new Map<string, StoryReview>();
  for (const r of s.reviews ?? []) if (r.content === hash) latest.set(r.reviewer, r);
  return [...latest.values()];
}

/** A story's status from its verdicts (see the file comment); the file's own status when it has none. */
export function reviewStatus(s: StoryTurnStory): StoryTurnStory['status'] {
  if (!s.reviews?.length) return s.status;
  const verdicts = currentVerdicts(s);
  if (verdicts.some((v) => v.verdict === 'reject')) return 'rejected';
  return verdicts.filter((v) => v.verdict === 'approve').length >= REQUIRED_REVIEWERS ? 'approved' : 'generated';
}

/** A file's `reviews` field read and checked; errors name the file, line and field. */
export function readReviews(raw: unknown, file: string, line: number): StoryReview[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw new InputError('reviews must be a list of { reviewer, verdict, content }', file, line);
  return raw.map((r, i) => {
    const at = `reviews[${i}]`;
    if (!r || typeof r !== 'object') throw new InputError(`${at} is not an object`, file, line);
    const { reviewer, verdict, errors, note, content } = r as Record<string, unknown>;
    if (typeof reviewer !== 'string' || !reviewer.trim()) throw new InputError(`${at}.reviewer must name the reviewer`, file, line);
    if (verdict !== 'approve' && verdict !== 'reject') throw new InputError(`${at}.verdict must be approve or reject`, file, line);
    if (typeof content !== 'string' || !content) throw new InputError(`${at}.content must be the story's content hash`, file, line);
    if (errors !== undefined && (!Array.isArray(errors) || errors.some((e) => typeof e !== 'string')))
      throw new InputError(`${at}.errors must be a list of error types`, file, line);
    return {
      reviewer: reviewer.trim(),
      verdict,
      ...(errors?.length ? { errors: errors as string[] } : {}),
      ...(typeof note === 'string' && note ? { note } : {}),
      content,
    };
  });
}

export type ReviewDecision = { reviewer: string; approve: true; note?: string } | { reviewer: string; reject: string[]; note?: string };

/**
 * Add one reviewer's verdict on the story's current version and derive its status. A rejection
 * names one or more error types (REVIEW_ERRORS); an approval is refused while an image the story
 * names is not drawn.
 */
export function addReview(stories: StoryTurnStory[], id: string, decision: ReviewDecision): StoryTurnStory[] {
  const i = stories.findIndex((s) => s.id === id);
  if (i < 0) throw new InputError(`no StoryTurn "${id}"`);
  const story = stories[i]!;
  const reviewer = decision.reviewer.trim();
  if (!reviewer) throw new InputError('a verdict needs the reviewer (--reviewer NAME)');
  let review: StoryReview;
  if ('approve' in decision) {
    const missing = story.turns.flatMap(imageIds).filter((x) => !story.images[x]);
    if (missing.length)
      throw new InputError(
        `StoryTurn "${id}" names images not drawn yet (${[...new Set(missing)].join(', ')}): draw them first (mindscope storyturn illustrate)`,
      );
    review = { reviewer, verdict: 'approve', ...(decision.note ? { note: decision.note } : {}), content: storyContentHash(story) };
  } else {
    const unknown = decision.reject.filter((e) => !(e in REVIEW_ERRORS));
    if (decision.reject.length === 0 || unknown.length)
      throw new InputError(`unknown error type "${unknown.join(', ') || '(none)'}"; known: ${Object.keys(REVIEW_ERRORS).join(', ')}`);
    review = {
      reviewer,
      verdict: 'reject',
      errors: [...new Set(decision.reject as ReviewError[])],
      ...(decision.note ? { note: decision.note } : {}),
      content: storyContentHash(story),
    };
  }
  const updated = { ...story, reviews: [...(story.reviews ?? []), review] };
  updated.status = reviewStatus(updated);
  return stories.map((s, k) => (k === i ? updated : s));
}
