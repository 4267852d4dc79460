// Sensitivity probes: generated belief questions of orders 1 to 4, each with its alterations
// (world/alterations.ts). The altered item's answer is the tracker's on the altered story.

import type { Item, McqPayload } from '../../../core/index.js';
import { generateTomItems, renderStory } from '../../../suites/index.js';
import type { WorldQuestion, WorldStory } from '../../../worlds/index.js';
import { answerWorldQuestion } from '../../../worlds/index.js';
import { ALTERATIONS, alterStory, type Alteration } from '../world/alterations.js';
import type { ProbePayload, ProbeVariant } from '../protocol/payload.js';
import { probeItem } from './probe-item.js';

export interface SensitivityOptions {
  /** Base questions per order. */
  perOrder: number;
  seed: number;
  orders?: readonly number[];
  alterations?: readonly Alteration[];
}

/** Belief items of the given orders from the generator, half of them false-belief. */
function beliefQuestions(perOrder: number, seed: number, orders: readonly number[]): Item<McqPayload>[] {
  const none = { reality: 0, memory: 0, knowledge: 0, perception: 0, 'belief-1': 0, 'belief-2': 0, 'belief-3': 0, 'belief-4': 0 };
  return orders.flatMap((order) =>
    generateTomItems({ count: perOrder, seed: seed * 10 + order, mix: { ...none, [`belief-${order}`]: 1 }, falseBeliefShare: 0.5 }),
  );
}

/** The sensitivity probe items: each base item with every alteration that can be written for it. */
export function sensitivityItems(suite: string, opts: SensitivityOptions): Item<ProbePayload>[] {
  const orders = opts.orders ?? [1, 2, 3, 4];
  return beliefQuestions(opts.perOrder, opts.seed, orders).map((base) => {
    const { story, question } = base.payload.world as { story: WorldStory; question: WorldQuestion };
    if (question.kind !== 'belief') throw new Error(`generated item ${base.id} is not a belief question`);
    const order = question.chain.length;
    const expected = answerWorldQuestion(story, question);
    const variants: ProbeVariant[] = [{ name: 'original', kind: 'original', mcq: base.payload, order, flips: false }];
    const render = (events: WorldStory['events']) => renderStory({ ...story, events }).split('\n');
    for (const alteration of opts.alterations ?? ALTERATIONS) {
      const altered = alterStory(story, question, alteration, render);
      if (!altered) continue;
      const answer = answerWorldQuestion(altered.story, question);
      const answerIndex = base.payload.options.indexOf(answer);
      if (answerIndex < 0) throw new Error(`alteration ${alteration} of ${base.id}: the answer ${answer} is not an option`);
      variants.push({
        name: alteration,
        kind: alteration,
        order,
        flips: answer !== expected,
        mcq: { ...base.payload, context: altered.sentences.join('\n'), answerIndex, world: { story: altered.story, question } },
      });
    }
    return probeItem(suite, base, { family: 'sensitivity', variants });
  });
}
