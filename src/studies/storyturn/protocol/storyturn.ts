// StoryTurn (CoMMET): a story told over several turns. Each turn has story text, an optional
// image reference, a question, the expected answer (`;` separates branch answers) and feedback
// that depends on the previous answer's correctness ("If right: ...; If wrong: ...") or on the
// previous answer itself ("If the previous answer is A: ...; If the previous answer is B: ...").
// A story carries its dominant mental state (the seven ATOMS states, or moral) and whether its
// text is complete or it depends on its images.
//
// Branches: a turn whose feedback conditions on the previous answer has one expected answer per
// condition, in the same order; any other turn's branches are alternatives, any of which is
// right. The previous answer selects a condition when it matches the condition's answer.

import { InputError } from '../../../core/errors.js';

export const STORY_STATES = ['belief', 'desire', 'intention', 'emotion', 'knowledge', 'percept', 'non-literal', 'moral'] as const;
export type StoryState = (typeof STORY_STATES)[number];

/**
 * CoMMET's reporting categories beside the single states (its Tables 1 and 2): NLC, NLCE and
 * MBK group tasks that probe several states at once.
 */
export const COMMET_CATEGORIES: Record<string, string> = {
  NLC: 'Non-Literal Communication',
  NLCE: 'Non-Literal Communication with Emotion',
  MBK: 'Moral Reasoning, Belief, and Knowledge',
};

export interface StoryTurnStep {
  story: string;
  feedback: string;
  question: string;
  /** Image id (a key of the story's images), or '' for none; several ids separated by ';' (see turnImages). */
  image: string;
  /** Expected answer; branches separated by ';'. */
  answer: string;
}

export interface StoryTurnStory {
  id: string;
  state: StoryState;
  setting: 'text-complete' | 'image-dependent';
  turns: StoryTurnStep[];
  /** Image id -> data: URL (a local file's bytes, read and checked once when the file loads) or http(s) URL. */
  images: Record<string, string>;
  /** Image id -> the path the data file gives for a local image (kept to write the file back; not part of an item). */
  imageFiles?: Record<string, string>;
  /** Whether runs use the story; derived from `reviews` when the story has any (see reviewStatus). */
  status: 'approved' | 'generated' | 'rejected';
  /** Review notes (error types) of a file that records one status per story. */
  review?: string[];
  /** Each reviewer's verdicts, in the order given (see storyturn-reviews.ts). */
  reviews?: StoryReview[];
  source?: string;
  /** CoMMET's reporting category: NLC, NLCE, MBK (COMMET_CATEGORIES), or a state; defaults to the state. */
  category?: string;
  /** The booklet task the story instantiates (CoMMET groups its StoryTurns into 18 tasks), e.g. "diverse belief". */
  task?: string;
}

/** One reviewer's verdict on a story, as it was when the verdict was given (`content`: storyContentHash). */
export interface StoryReview {
  reviewer: string;
  verdict: 'approve' | 'reject';
  /** With a rejection: the error types found (REVIEW_ERRORS). */
  errors?: string[];
  note?: string;
  /** The story's content hash when reviewed: a verdict counts only while the story is unchanged. */
  content: string;
}

export type Feedback =
  | { kind: 'none' }
  | { kind: 'correctness'; right: string; wrong: string }
  | { kind: 'previous'; branches: Array<{ answer: string; text: string }> };

/** Read a turn's feedback field: by correctness ("If right: ...; If wrong: ..."), by the previous answer, or plain text. */
export function parseFeedback(text: string): Feedback {
  const t = text.trim();
  if (!t) return { kind: 'none' };
  const right = /if right\s*:\s*([\s\S]*?)(?:;\s*if wrong\s*:|$)/i.exec(t);
  const wrong = /if wrong\s*:\s*([\s\S]*?)(?:;\s*if right\s*:|$)/i.exec(t);
  if (right || wrong) return { kind: 'correctness', right: right?.[1]?.trim() ?? '', wrong: wrong?.[1]?.trim() ?? '' };
  const branches = [...t.matchAll(/if the previous answer is\s+([^:]+?)\s*:\s*([\s\S]*?)(?=;\s*if the previous answer is\b|$)/gi)].map(
    (m) => ({ answer: m[1]!.trim().replace(/^["']|["']$/g, ''), text: m[2]!.trim().replace(/;\s*$/, '') }),
  );
  if (branches.length) return { kind: 'previous', branches };
  // Unconditional feedback: always shown.
  return { kind: 'correctness', right: t, wrong: t };
}

/**
 * What a turn's feedback depends on: the previous answer's correctness ("If right: ...; If
 * wrong: ..."), which answer it was ("If the previous answer is A: ..."), nothing (plain text,
 * shown whatever the answer), or there is none.
 */
export function feedbackKind(text: string): 'correctness' | 'answer' | 'unconditional' | 'none' {
  const fb = parseFeedback(text);
  if (fb.kind === 'none') return 'none';
  if (fb.kind === 'previous') return 'answer';
  return /if (right|wrong)\s*:/i.test(text) ? 'correctness' : 'unconditional';
}

/** The alternatives of an answer field (separated by ';'), trimmed and non-empty. */
export const branchesOf = (answer: string): string[] =>
  answer
    .split(';')
    .map((a) => a.trim())
    .filter(Boolean);

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Whether a reply states an expected answer (as a whole phrase, after normalisation). */
export function answerMatches(reply: string, expected: string): boolean {
  const r = ` ${norm(reply)} `;
  const e = norm(expected);
  return e !== '' && r.includes(` ${e} `);
}

/** The answer part of a model reply: after the last "Answer:", or the whole reply. */
export function answerPart(reply: string): string {
  const m = [...reply.matchAll(/answer\s*:\s*([^\n]+)/gi)].pop();
  return (m ? m[1]! : reply).trim();
}

/** Which condition of a turn's previous-answer feedback the previous reply selects (-1: none). */
export function selectedBranch(feedback: Feedback, previousReply: string): number {
  if (feedback.kind !== 'previous') return -1;
  const part = answerPart(previousReply);
  return feedback.branches.findIndex((b) => answerMatches(part, b.answer));
}

/** The expected answers of turn i given the previous reply: one branch, or all alternatives. */
export function expectedAnswers(story: StoryTurnStory, i: number, previousReply: string | undefined): string[] {
  const turn = story.turns[i]!;
  const branches = branchesOf(turn.answer);
  const fb = parseFeedback(turn.feedback);
  if (fb.kind === 'previous' && previousReply !== undefined) {
    const b = selectedBranch(fb, previousReply);
    return b >= 0 ? [branches[b]!] : branches;
  }
  return branches;
}

/** A turn's image ids (its `image` field, ';' separating several). */
export const imageIds = (turn: StoryTurnStep): string[] =>
  turn.image
    .split(';')
    .map((x) => x.trim())
    .filter(Boolean);

/** Whether a turn's feedback text names the right/wrong conditions (not unconditional feedback). */
const correctnessConditions = (feedback: string) => /if right\s*:/i.test(feedback) && /if wrong\s*:/i.test(feedback);

/**
 * The images a turn shows. Several images are one per condition when the turn's feedback has
 * conditions: per previous answer (the branch the previous reply selects), or right/wrong (the
 * first image after a right answer, the second after a wrong one). A turn with several images and
 * no conditions, or whose previous reply selects no branch, shows them all.
 */
export function turnImages(story: StoryTurnStory, i: number, previous: { reply: string; correct: boolean } | undefined): string[] {
  const turn = story.turns[i]!;
  const ids = imageIds(turn);
  if (ids.length < 2 || !previous) return ids;
  const fb = parseFeedback(turn.feedback);
  if (fb.kind === 'previous' && ids.length === fb.branches.length) {
    const b = selectedBranch(fb, previous.reply);
    return b >= 0 ? [ids[b]!] : ids;
  }
  if (fb.kind === 'correctness' && ids.length === 2 && correctnessConditions(turn.feedback)) return [ids[previous.correct ? 0 : 1]!];
  return ids;
}

/** Checks a story; every problem names the story, the turn and the field. */
export function validateStoryTurn(s: StoryTurnStory, where: string): void {
  const at = `${where} (${s.id})`;
  if (!s.id) throw new InputError('a StoryTurn needs an id', where);
  if (!(STORY_STATES as readonly string[]).includes(s.state))
    throw new InputError(`mental state must be one of ${STORY_STATES.join(', ')}, not "${s.state}"`, at);
  if (s.setting !== 'text-complete' && s.setting !== 'image-dependent')
    throw new InputError(`setting must be text-complete or image-dependent, not "${s.setting}"`, at);
  if (!Array.isArray(s.turns) || s.turns.length === 0) throw new InputError('a StoryTurn needs at least one turn', at);
  if (s.category !== undefined && !(s.category in COMMET_CATEGORIES) && !(STORY_STATES as readonly string[]).includes(s.category))
    throw new InputError(`category must be one of ${Object.keys(COMMET_CATEGORIES).join(', ')} or a mental state, not "${s.category}"`, at);
  s.turns.forEach((t, i) => {
    const turn = `${at} turn ${i + 1}`;
    if (!t.question?.trim()) throw new InputError('the question is empty', turn);
    const branches = branchesOf(t.answer ?? '');
    if (branches.length === 0) throw new InputError('the expected answer is empty', turn);
    // A story awaiting review may name images not drawn yet (storyturn illustrate draws them).
    if (s.status === 'approved')
      for (const id of imageIds(t)) if (!s.images[id]) throw new InputError(`the image "${id}" is not among the story's images`, turn);
    const fb = parseFeedback(t.feedback ?? '');
    const ids = imageIds(t);
    if (ids.length > 1 && fb.kind === 'previous' && ids.length !== fb.branches.length)
      throw new InputError(
        `the turn has ${ids.length} images but its feedback has ${fb.branches.length} conditions: one image per condition`,
        turn,
      );
    if (ids.length > 2 && fb.kind === 'correctness' && correctnessConditions(t.feedback))
      throw new InputError(
        `the turn has ${ids.length} images but its feedback has 2 conditions (right, wrong): one image per condition`,
        turn,
      );
    if (fb.kind === 'previous') {
      if (i === 0) throw new InputError('the first turn cannot depend on a previous answer', turn);
      if (branches.length !== fb.branches.length)
        throw new InputError(
          `the feedback has ${fb.branches.length} branch(es) but the answer has ${branches.length}: every branch needs its own answer`,
          turn,
        );
      const previous = branchesOf(s.turns[i - 1]!.answer);
      for (const b of fb.branches) {
        if (!previous.some((p) => answerMatches(p, b.answer) || answerMatches(b.answer, p)))
          throw new InputError(
            `the feedback names the option "${b.answer}", which is not an answer to the previous question (${previous.join('; ')})`,
            turn,
          );
      }
    }
    if (fb.kind === 'correctness' && i === 0 && t.feedback.trim())
      throw new InputError('the first turn has no previous answer to give feedback on', turn);
  });
}
