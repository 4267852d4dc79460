// Explicit belief-tracking probes: generated stories, and checkpoints after the object is first
// placed (the middle of the story and its end) at which the subject lists the belief state.

import type { Item } from '../../../core/index.js';
import { generateTomItems } from '../../../suites/index.js';
import type { WorldQuestion, WorldStory } from '../../../worlds/index.js';
import type { ProbePayload } from '../protocol/payload.js';
import { probeItem } from './probe-item.js';

export interface BeliefOptions {
  count: number;
  seed: number;
  /** The highest belief order listed (1 to 4). */
  maxOrder: number;
}

/** Checkpoints: midway between the first placement and the end, and the end. */
function checkpointsOf(story: WorldStory): number[] {
  const placed = story.events.findIndex((e) => e.kind === 'place') + 1;
  const end = story.events.length;
  const mid = placed + Math.floor((end - placed) / 2);
  return [...new Set([mid, end])].filter((n) => n >= placed);
}

/** The belief-tracking probe items. */
export function beliefItems(suite: string, opts: BeliefOptions): Item<ProbePayload>[] {
  const none = { reality: 0, memory: 0, knowledge: 0, perception: 0, 'belief-1': 0, 'belief-2': 0, 'belief-3': 0, 'belief-4': 0 };
  const bases = generateTomItems({ count: opts.count, seed: opts.seed, mix: { ...none, 'belief-2': 1 }, falseBeliefShare: 1 });
  return bases.map((base) => {
    const { story } = base.payload.world as { story: WorldStory; question: WorldQuestion };
    return probeItem(suite, base, {
      family: 'beliefs',
      variants: [],
      beliefs: { story, sentences: base.payload.context.split('\n'), checkpoints: checkpointsOf(story), maxOrder: opts.maxOrder },
    });
  });
}
