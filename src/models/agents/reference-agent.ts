// Reference agents: deterministic subjects that answer multiple-choice items through the same
// text pipeline as a real model ("Answer: B"), so that prompts, parsing, scoring, storage and
// reports are exercised offline, and so that the demo shows real contrast between reasoning
// policies. Each agent sees the item only through the call context the MCQ protocol attaches.

import type { CallContext, ChatResponse, McqPayload, WorldQuestion, WorldStory } from '../../core/index.js';
import { answerWorldQuestion, createRng, deriveSeed, directorView, targetBlock, type DirectorScene } from '../../core/index.js';
import type { ChatModel, ChatRequest } from '../chat-model.js';
import { EMBODIED_TEAMS, embodiedReply } from './embodied-team.js';
import { judgeReply, REFERENCE_JUDGES } from './reference-judges.js';

/** The structured world a generated item (or a parsed ToMi story) carries for reasoners. */
export interface ItemWorld {
  story: WorldStory;
  question: WorldQuestion;
}

/** Picks the text of the option to answer, or undefined to decline. */
type Policy = (ctx: Required<Pick<CallContext, 'presentedOptions'>> & CallContext) => string | undefined;

function worldOf(ctx: CallContext): ItemWorld | undefined {
  const payload = ctx.item?.payload as McqPayload | undefined;
  const world = payload?.world as ItemWorld | undefined;
  return world?.story && world.question ? world : undefined;
}

/** Solve with the belief tracker at the given depth; decline items without a structured world. */
function trackerPolicy(depth: number): Policy {
  return (ctx) => {
    const world = worldOf(ctx);
    if (!world) return undefined;
    const answer = answerWorldQuestion(world.story, world.question, { depth });
    return ctx.presentedOptions.find((o) => o.text.toLowerCase() === answer.toLowerCase())?.label;
  };
}

const POLICIES: Record<string, { describe: string; policy: Policy }> = {
  oracle: {
    describe: 'solves items that carry a world model with the full belief tracker',
    policy: trackerPolicy(Number.POSITIVE_INFINITY),
  },
  reality: { describe: 'answers from the true world state (the classic false-belief error)', policy: trackerPolicy(0) },
  'first-order': { describe: 'tracks beliefs to depth 1 only', policy: trackerPolicy(1) },
  random: {
    describe: 'a seeded uniform choice among the options',
    policy: (ctx) =>
      createRng(deriveSeed('agent:random', ctx.item?.suite ?? '', ctx.item?.id ?? '', ctx.replicateSeed ?? 0)).pick(ctx.presentedOptions)
        .label,
  },
  'first-option': { describe: 'always the first option (positional bias)', policy: (ctx) => ctx.presentedOptions[0]?.label },
  'answer-key': {
    describe: 'reads the answer key (pipeline checks only)',
    policy: (ctx) => ctx.presentedOptions.find((o) => o.text === ctx.item?.answer)?.label,
  },
};

const DIRECTOR_AGENTS: Record<string, string> = {
  allocentric: "Director Task: takes the director's view",
  egocentric: "Director Task: reports the director's view but acts from its own",
};

export const REFERENCE_AGENTS: Record<string, string> = {
  ...Object.fromEntries(Object.entries(POLICIES).map(([k, v]) => [k, v.describe])),
  ...EMBODIED_TEAMS,
  ...REFERENCE_JUDGES,
  ...DIRECTOR_AGENTS,
};

/**
 * StoryTurn turns: oracle and answer-key give the expected answer; random picks a seeded reply
 * among the expected answers and "I do not know" (so both feedback branches occur); the others
 * answer with the first alternative.
 */
function storyTurnReply(model: string, st: { expected: string[]; turn: number }, seed: number): string {
  if (model === 'random')
    return `Answer: ${createRng(deriveSeed('agent:random:storyturn', st.turn, st.expected.join('|'), seed)).pick([...st.expected, 'I do not know'])}`;
  return `Answer: ${st.expected[0]}`;
}

/**
 * Director Task: both agents report what the director sees (a, c.Q1); when acting (b, c.Q2)
 * allocentric takes the director's view, egocentric (and the rest) its own: the "know but don't
 * use" pattern, so egocentric's explicit-implicit gap is 1 on the canonical arm.
 */
function directorReply(model: string, d: { scene: DirectorScene; prompt: string }): string {
  if (d.prompt === 'a') return `Answer: ${directorView(d.scene).join(', ')}`;
  return `Answer: ${targetBlock(d.scene, model === 'allocentric' || model === 'oracle' ? 'director' : 'addressee').letter}`;
}

export class ReferenceAgent implements ChatModel {
  readonly spec: string;
  readonly provider = 'agent';
  readonly endpoint: string;
  readonly local = true;
  readonly #policy: Policy;

  constructor(readonly model: string) {
    const entry = POLICIES[model];
    if (!entry && !EMBODIED_TEAMS[model] && !REFERENCE_JUDGES[model] && !DIRECTOR_AGENTS[model])
      throw new Error(`unknown reference agent agent:${model} (known: ${Object.keys(REFERENCE_AGENTS).join(', ')})`);
    // Embodied teams decline multiple-choice items.
    this.#policy = entry?.policy ?? (() => undefined);
    this.spec = `agent:${model}`;
    this.endpoint = this.spec;
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    const ctx = req.context;
    if (REFERENCE_JUDGES[this.model]) {
      return { text: judgeReply(this.model, ctx?.judge), usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, finishReason: 'stop' };
    }
    if (ctx?.director) {
      return {
        text: directorReply(this.model, ctx.director),
        usage: { inputTokens: 0, outputTokens: 0 },
        latencyMs: 0,
        finishReason: 'stop',
      };
    }
    if (ctx?.storyturn) {
      return {
        text: storyTurnReply(this.model, ctx.storyturn, ctx.replicateSeed ?? 0),
        usage: { inputTokens: 0, outputTokens: 0 },
        latencyMs: 0,
        finishReason: 'stop',
      };
    }
    if (ctx?.episode) {
      const text = embodiedReply(this.model, ctx.episode, ctx.replicateSeed ?? 0);
      return { text, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, finishReason: 'stop' };
    }
    const label = ctx?.presentedOptions ? this.#policy({ ...ctx, presentedOptions: ctx.presentedOptions }) : undefined;
    const text = label ? `Answer: ${label}` : 'I cannot answer this item.';
    return { text, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, finishReason: 'stop' };
  }
}
