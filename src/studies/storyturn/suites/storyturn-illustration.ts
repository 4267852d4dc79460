// CoMMET's illustration prompts (Section 3.2.2, "Prompt for Image Generation"): one per image a
// StoryTurn names. The story history is the story text of the turns before the image's turn; the
// current scene is that turn's story text, preceded, for a turn with one image per condition, by
// the feedback of the image's condition (the k-th "If the previous answer is ..." branch for the
// k-th image; "If right" for the first of two images, "If wrong" for the second). Each image's
// file is images/STORY/IMAGE.png beside the story file (the extension follows the bytes drawn).

import { posix } from 'node:path';
import { imageIds, parseFeedback, type StoryTurnStory } from '../protocol/storyturn.js';

/** The paper's image-generation prompt, word for word; {story_history} and {specific_context} are filled in. */
export const ILLUSTRATION_PROMPT =
  'Children’s book illustration. PREVIOUS STORY EVENTS (Context): {story_history} CURRENT SCENE: {specific_context} CONTINUITY: The illustration should naturally follow the previous image as the next sequential scene, while keeping the characters’ appearances exactly consistent.';

export interface IllustrationRequest {
  story: string;
  image: string;
  /** The turn (1-based) that first shows the image. */
  turn: number;
  prompt: string;
  /** Where the image is written, relative to the story file's folder, with `/` (a PNG; other kinds change the extension). */
  file: string;
}

/** A name safe as a file or folder name (letters, digits, `.`, `_`, `-`; never `.` or `..`). */
const safeName = (s: string) => s.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, (dots) => '_'.repeat(dots.length)) || '_';

/** Where an image of a story is written, relative to the story file's folder, without its extension. */
export function illustrationStem(imagesDir: string, story: string, image: string): string {
  return posix.join(imagesDir.split('\\').join('/'), safeName(story), safeName(image));
}

/** The scene of the k-th image of turn i: the feedback of its condition, when the turn has one image per condition, then the turn's story. */
function scene(s: StoryTurnStory, i: number, k: number): string {
  const turn = s.turns[i]!;
  const ids = imageIds(turn);
  const fb = parseFeedback(turn.feedback);
  let condition = '';
  if (ids.length > 1 && fb.kind === 'previous' && ids.length === fb.branches.length) condition = fb.branches[k]!.text;
  if (ids.length === 2 && fb.kind === 'correctness' && /if right\s*:/i.test(turn.feedback) && /if wrong\s*:/i.test(turn.feedback))
    condition = k === 0 ? fb.right : fb.wrong;
  return [condition, turn.story]
    .map((x) => x.trim())
    .filter(Boolean)
    .join(' ');
}

/** The paper's prompt for the k-th image of turn i (0-based). */
export function illustrationPrompt(s: StoryTurnStory, i: number, k: number): string {
  const history = s.turns
    .slice(0, i)
    .map((t) => t.story.trim())
    .filter(Boolean)
    .join(' ');
  return ILLUSTRATION_PROMPT.replace('{story_history}', () => history || '(none)').replace('{specific_context}', () => scene(s, i, k));
}

/**
 * The images of a story to draw: those its turns name that it does not hold yet, and those in
 * `redraw`; each once, with the prompt of the turn that first shows it.
 */
export function illustrationRequests(s: StoryTurnStory, opts: { imagesDir: string; redraw?: readonly string[] }): IllustrationRequest[] {
  const seen = new Set<string>();
  const out: IllustrationRequest[] = [];
  s.turns.forEach((t, i) => {
    imageIds(t).forEach((image, k) => {
      if (seen.has(image)) return;
      seen.add(image);
      if (s.images[image] && !opts.redraw?.includes(image)) return;
      out.push({
        story: s.id,
        image,
        turn: i + 1,
        prompt: illustrationPrompt(s, i, k),
        file: `${illustrationStem(opts.imagesDir, s.id, image)}.png`,
      });
    });
  });
  return out;
}

/** The story with an image id (STORY_tN) given to every turn that names none. */
export function withTurnImages(s: StoryTurnStory): StoryTurnStory {
  if (s.turns.every((t) => imageIds(t).length > 0)) return s;
  return { ...s, turns: s.turns.map((t, i) => (imageIds(t).length ? t : { ...t, image: `${s.id}_t${i + 1}` })) };
}
