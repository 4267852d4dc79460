// Model-written StoryTurns by CoMMET's one-shot method: the prompt gives one StoryTurn as the
// format reference and asks for a new, distinct story testing an aspect; the reply's JSON is
// read, checked by the same validation as any StoryTurn file, and saved with status
// `generated`. The image ids the reply gives are kept (`storyturn illustrate` draws them);
// reviewers then approve each story or record error types from CoMMET's review
// (storyturn-reviews.ts; runs use approved stories only).

import { InputError } from '../../../core/index.js';
import { validateStoryTurn, type StoryTurnStory } from '../protocol/storyturn.js';

export const REVIEW_ERRORS = {
  'misclassified-task': 'the story tests another aspect than the one it is filed under',
  'feedback-in-answer-turn': 'feedback given in the same turn as the answer instead of the next turn',
  'answer-revealed': 'the story context states the answer, making the question trivial',
  'wrong-answer': 'an expected answer is wrong or a branch is missing',
  'image-issue': 'an image contradicts the text or characters are inconsistent',
  format: 'the text does not follow the StoryTurn format',
} as const;
export type ReviewError = keyof typeof REVIEW_ERRORS;

/** CoMMET's one-shot prompt asking a model for a new StoryTurn like the example. */
export function storyTurnPrompt(example: StoryTurnStory, aspect: string, idPrefix: string): string {
  const reference = JSON.stringify({ mental_state: example.state, setting: example.setting, turns: example.turns }, null, 2);
  return [
    'You are an expert at creating logic puzzles for children (Grade 2).',
    `Task: Create a NEW, DISTINCT multi-turn story testing "${aspect}".`,
    `Format Reference: ${reference}`,
    'Requirements: 1. Create a completely different scenario. 2. STRUCTURE: The story must have multiple turns. 3. IMAGES: Mirror the image structure of the original example exactly. If a turn has a single image, generate one for the new story. If a turn contains two images separated by a semicolon (;), you must generate two corresponding images to represent the different conditions.',
    `4. IDs: Use unique Image IDs starting with "${idPrefix}_".`,
    'Each turn has "story", "feedback" (about the previous answer: "If right: ...; If wrong: ..." or "If the previous answer is A: ...; If the previous answer is B: ...", or ""), "question", "image" and "answer" (";" separates branch answers).',
    'Reply with the new story as one JSON object with the fields "mental_state", "setting" and "turns", in the format of the reference.',
  ].join('\n');
}

/** A model's reply read as a StoryTurn (status generated); a clear error says what is wrong. */
export function readGeneratedStory(reply: string, id: string, fallbackState: StoryTurnStory['state']): StoryTurnStory {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start < 0 || end <= start) throw new InputError('the reply holds no JSON object', id);
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(reply.slice(start, end + 1));
  } catch (err) {
    throw new InputError(`the JSON does not parse: ${(err as Error).message}`, id);
  }
  const turns = Array.isArray(raw.turns)
    ? (raw.turns as Array<Record<string, unknown>>).map((t) => ({
        story: String(t.story ?? ''),
        feedback: String(t.feedback ?? ''),
        question: String(t.question ?? ''),
        image: String(t.image ?? '').trim(),
        answer: String(t.answer ?? ''),
      }))
    : [];
  const state = String(raw.mental_state ?? fallbackState)
    .toLowerCase()
    .replace(/s$/, '') as StoryTurnStory['state'];
  // A text model names images without drawing them: the story awaits its illustrations.
  const setting = raw.setting === 'image-dependent' ? 'image-dependent' : 'text-complete';
  const story: StoryTurnStory = { id, state, setting, turns, images: {}, status: 'generated', source: 'model' };
  validateStoryTurn(story, 'generated');
  return story;
}
