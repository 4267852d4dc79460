// Shortcut baselines: the item without what it is about. question-only drops the story,
// options-only drops the story and the question (shown twice: in the item's order and rotated by
// one, so that a positional habit alone is not taken for knowledge of the answer),
// story-shuffled shows the story's sentences in a seeded random order. None of them carries the
// item's world, so a belief tracker has nothing to reason over. The answer-length-only baseline
// needs no call: the protocol records whether the answer is the unique longest or shortest option.

import type { Item, McqPayload } from '../../../core/index.js';
import { createRng, deriveSeed } from '../../../core/index.js';
import type { ProbePayload, ProbeVariant } from '../protocol/payload.js';
import { probeItem } from './probe-item.js';

/** The baselines that show no story: an item answered above chance on these is answerable without its story. */
export const NO_STORY_KINDS = ['question-only', 'options-only'] as const;

const OPTIONS_ONLY_QUESTION = 'Which option is correct?';

/** The story's sentences (lines, else sentence ends) in a seeded order that differs from the original when it can. */
function shuffledStory(context: string, seed: number): string {
  const lines = context.includes('\n')
    ? context.split('\n').filter((l) => l.trim())
    : (context.match(/[^.!?]+[.!?]+["')\]]*\s*/g) ?? [context]);
  const parts = lines.map((l) => l.trim());
  const rng = createRng(seed);
  for (let attempt = 0; attempt < 5; attempt++) {
    const out = rng.shuffle(parts);
    if (out.some((p, i) => p !== parts[i])) return out.join(context.includes('\n') ? '\n' : ' ');
  }
  return parts.join(' ');
}

/** The baselines of one item (the original first). */
function shortcutVariants(base: Item<McqPayload>, seed: number): ProbeVariant[] {
  const { world: _world, ...mcq } = base.payload;
  const k = mcq.options.length;
  const rotated = { ...mcq, options: mcq.options.map((_, i) => mcq.options[(i + 1) % k]!), answerIndex: (mcq.answerIndex - 1 + k) % k };
  return [
    { name: 'original', kind: 'original', mcq: base.payload },
    { name: 'question-only', kind: 'question-only', mcq: { ...mcq, context: '' } },
    { name: 'options-only', kind: 'options-only', mcq: { ...mcq, context: '', question: OPTIONS_ONLY_QUESTION } },
    { name: 'options-only-rotated', kind: 'options-only', mcq: { ...rotated, context: '', question: OPTIONS_ONLY_QUESTION } },
    {
      name: 'story-shuffled',
      kind: 'story-shuffled',
      mcq: { ...mcq, context: shuffledStory(mcq.context, deriveSeed('probe-shuffle', base.suite, base.id, seed)) },
    },
  ];
}

/** The shortcut-baseline probe items of a suite's items. */
export function shortcutItems(suite: string, items: readonly Item<McqPayload>[], seed: number): Item<ProbePayload>[] {
  return items.map((base) => probeItem(suite, base, { family: 'shortcut', variants: shortcutVariants(base, seed) }));
}
