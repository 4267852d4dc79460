// Model-written StoryTurns by CoMMET's one-shot method (`mindscope storyturn generate`): the
// author's replies are validated and kept as generated stories awaiting review.

import { authorCaller, type Registry } from '../../../app/index.js';
import type { Store } from '../../../store/index.js';
import type { StoryTurnStory } from '../protocol/storyturn.js';
import { readGeneratedStory, storyTurnPrompt } from './storyturn-authoring.js';

/** Ask a model for new StoryTurns by CoMMET's one-shot method; replies are validated and kept as generated stories awaiting review. */
export async function writeStoryTurns(opts: {
  store: Store;
  example: StoryTurnStory;
  aspect: string;
  model: string;
  n: number;
  idPrefix?: string;
  apiKeyEnv?: string;
  registry?: Registry;
}): Promise<{ stories: StoryTurnStory[]; failures: Array<{ id: string; error: string }> }> {
  const { model, caller, factory } = authorCaller(opts, 0.7);
  const stories: StoryTurnStory[] = [];
  const failures: Array<{ id: string; error: string }> = [];
  const prefix = opts.idPrefix ?? opts.aspect.replace(/\W+/g, '-').toLowerCase();
  try {
    for (let i = 0; i < opts.n; i++) {
      const id = `${prefix}-${String(i + 1).padStart(3, '0')}`;
      // The index in the prompt keeps each request distinct (and each cached answer its own).
      const prompt = `${storyTurnPrompt(opts.example, opts.aspect, id)}\n(Story ${i + 1} of ${opts.n}.)`;
      const reply = await caller.chat([{ role: 'user', content: prompt }]);
      try {
        stories.push(readGeneratedStory(reply.text, id, opts.example.state));
      } catch (err) {
        failures.push({ id, error: (err as Error).message });
      }
    }
    await factory.settle();
  } finally {
    await model.close?.();
  }
  return { stories, failures };
}
