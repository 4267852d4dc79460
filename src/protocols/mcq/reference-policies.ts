// How the reference subjects answer multiple-choice items: through the same text pipeline as a
// real model ("Answer: B"), reading the item from the call's side information, so that prompts,
// parsing, scoring, storage and reports are exercised offline and the demo shows real contrast
// between reasoning policies. The belief-tracking policies need items that carry a structured
// world (generated suites, parsed ToMi stories); on other items they decline.

import {
  callInfoKey,
  createRng,
  deriveSeed,
  readInfo,
  type CallContext,
  type Item,
  type McqOption,
  type McqPayload,
} from '../../core/index.js';
import { answerWorldQuestion, type WorldQuestion, type WorldStory } from '../../worlds/index.js';
import type { ReferencePolicy } from '../protocol.js';

/** What a multiple-choice call tells reference subjects: the item and the options as presented. */
export interface McqCallInfo {
  item: Item<McqPayload>;
  presentedOptions: McqOption[];
}

export const MCQ_INFO = callInfoKey<McqCallInfo>('mcq');

/** The structured world a generated item (or a parsed ToMi story) carries for reasoners. */
export interface ItemWorld {
  story: WorldStory;
  question: WorldQuestion;
}

function worldOf(item: Item<McqPayload>): ItemWorld | undefined {
  const world = item.payload.world as Partial<ItemWorld> | undefined;
  return world?.story && world.question ? { story: world.story, question: world.question } : undefined;
}

/** A policy that picks an option label (undefined declines) and answers "Answer: X"; `answers` says which items it can answer. */
function labelPolicy(
  describe: string,
  pick: (info: McqCallInfo, seed: number) => string | undefined,
  answers?: (item: Item) => boolean,
): ReferencePolicy {
  return {
    describe,
    ...(answers ? { answers } : {}),
    reply(ctx: CallContext) {
      const info = readInfo(ctx.info, MCQ_INFO);
      if (!info) return undefined;
      const label = pick(info, ctx.replicateSeed ?? 0);
      return label ? `Answer: ${label}` : 'I cannot answer this item.';
    },
  };
}

/** Whether an item carries the structured world the belief-tracking policies need. */
const hasWorld = (item: Item) => worldOf(item as Item<McqPayload>) !== undefined;

/** Solve with the belief tracker at the given depth; decline items without a structured world. */
function tracker(depth: number) {
  return (info: McqCallInfo) => {
    const world = worldOf(info.item);
    if (!world) return undefined;
    const answer = answerWorldQuestion(world.story, world.question, { depth }).toLowerCase();
    return info.presentedOptions.find((o) => o.text.toLowerCase() === answer)?.label;
  };
}

export const MCQ_POLICIES: Record<string, ReferencePolicy> = {
  oracle: labelPolicy(
    'solves items that carry a world model with the full belief tracker (generated suites; released benchmarks need agent:answer-key)',
    tracker(Number.POSITIVE_INFINITY),
    hasWorld,
  ),
  reality: labelPolicy('answers from the true world state (the classic false-belief error)', tracker(0), hasWorld),
  'first-order': labelPolicy('tracks beliefs to depth 1 only', tracker(1), hasWorld),
  random: labelPolicy(
    'a seeded uniform choice among the options',
    (info, seed) => createRng(deriveSeed('agent:random', info.item.suite, info.item.id, seed)).pick(info.presentedOptions).label,
  ),
  'first-option': labelPolicy('always the first option (positional bias)', (info) => info.presentedOptions[0]?.label),
  'answer-key': labelPolicy(
    'reads the answer key (pipeline checks only)',
    (info) => info.presentedOptions.find((o) => o.text === info.item.answer)?.label,
  ),
};
