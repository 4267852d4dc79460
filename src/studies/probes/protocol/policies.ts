// How the reference subjects answer probe calls. A variant call carries the same side
// information as a multiple-choice call, so every multiple-choice policy (agent:oracle,
// agent:reality, agent:first-option, ...) answers it as it answers the suite itself; belief
// listings are answered from the tracker at the policy's depth. agent:options-only is the
// probes' own: it answers from the options alone (the longest text), the shortcut the
// baselines must catch.

import { readInfo, withInfo, type CallContext, type McqOption } from '../../../core/index.js';
import { MCQ_INFO, MCQ_POLICIES, type ReferencePolicy } from '../../../protocols/index.js';
import { answerWorldQuestion, type WorldStory } from '../../../worlds/index.js';
import { holderChains } from './belief-listing.js';
import type { BeliefProposition } from './records.js';
import { BELIEF_INFO, PROBE_INFO, type BeliefCallInfo } from './call-info.js';

/** The longest option's label; ties go to the alphabetically first text, so that the order shown does not matter. */
function longestOption(options: readonly McqOption[]): string | undefined {
  const sorted = [...options].sort((a, b) => b.text.length - a.text.length || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
  return sorted[0]?.label;
}

/** The belief state a reasoner of the given depth lists (depth 0: everyone believes the truth). */
function listedBeliefs(info: BeliefCallInfo, depth: number): BeliefProposition[] {
  const story: WorldStory = info.story;
  const out: BeliefProposition[] = [];
  for (const object of story.objects) {
    if (!story.events.some((e) => (e.kind === 'place' || e.kind === 'move') && e.object === object)) continue;
    const reality = answerWorldQuestion(story, { kind: 'reality', object });
    for (const holder of holderChains(story.agents, info.maxOrder)) {
      const container = answerWorldQuestion(story, { kind: 'belief', chain: holder, object }, { depth });
      out.push({ holder, order: holder.length, object, container, true: container === reality });
    }
  }
  return out;
}

const DEPTHS: Record<string, number> = { oracle: Number.POSITIVE_INFINITY, reality: 0, 'first-order': 1 };

/** A multiple-choice policy made to answer probe calls: the variant's side information, and belief listings at its depth. */
function probePolicy(name: string, policy: ReferencePolicy): ReferencePolicy {
  return {
    describe: policy.describe,
    reply(ctx: CallContext) {
      const mcq = readInfo(ctx.info, PROBE_INFO);
      if (mcq) return policy.reply({ ...ctx, info: withInfo(MCQ_INFO, mcq) });
      const beliefs = readInfo(ctx.info, BELIEF_INFO);
      const depth = DEPTHS[name];
      if (beliefs && depth !== undefined) return JSON.stringify(listedBeliefs(beliefs, depth));
      return undefined;
    },
  };
}

const optionsOnly: ReferencePolicy = {
  describe: 'answers from the options alone: the longest option (a shortcut the probes catch)',
  reply(ctx: CallContext) {
    const info = readInfo(ctx.info, PROBE_INFO);
    if (!info) return undefined;
    const label = longestOption(info.presentedOptions);
    return label ? `Answer: ${label}` : undefined;
  },
};

/** The probe protocol's reference policies. */
export const PROBE_POLICIES: Record<string, ReferencePolicy> = {
  ...Object.fromEntries(Object.entries(MCQ_POLICIES).map(([name, p]) => [name, probePolicy(name, p)])),
  'options-only': optionsOnly,
};
