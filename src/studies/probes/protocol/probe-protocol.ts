// The probe protocol: one trial per base item runs every variant of it (or every belief
// checkpoint of a story) against the subject, so that a stored record holds an item with its
// variants side by side. Variants are shown in their own option order (never shuffled), through
// the multiple-choice prompt and answer reading; the trial's score is 1 when every variant is
// answered right (robust), its detail the counts.

import type { Item, McqOption, McqPayload, TrialContext, TrialModel } from '../../../core/index.js';
import { ConfigError, withInfo } from '../../../core/index.js';
import {
  buildMcqMessages,
  defineProtocol,
  DEFAULT_MCQ_TEMPLATE,
  extractAnswer,
  loadMcqTemplate,
  type McqTemplate,
} from '../../../protocols/index.js';
import { beliefPrompt, readBeliefList, storyPrefix, trackedBeliefs } from './belief-listing.js';
import { beliefRecall } from '../analysis/beliefs.js';
import { BELIEF_INFO, PROBE_INFO } from './call-info.js';
import type { BeliefStory, ProbePayload, ProbeVariant } from './payload.js';
import { PROBE_POLICIES } from './policies.js';
import { PROBE_RECORDS, type CheckpointResult, type ProbeDetail, type VariantResult } from './records.js';

const LABELS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** A variant as the multiple-choice item the reference subjects read. */
function variantItem(base: Item<ProbePayload>, v: ProbeVariant): Item<McqPayload> {
  return {
    suite: base.payload.baseSuite,
    id: `${base.payload.baseId}~${v.name}`,
    category: base.category,
    ability: base.ability,
    payload: v.mcq,
    answer: v.mcq.options[v.mcq.answerIndex]!,
    meta: {},
  };
}

/** How a variant is answered: a reply read for its label, or the options ranked by log-likelihood (per byte with `norm`). */
type Scoring = { kind: 'generate'; template: McqTemplate } | { kind: 'loglik'; norm: boolean };

/** The label of the option with the highest log-likelihood as the answer's continuation (as the multiple-choice protocol's loglik scoring). */
async function loglikLabel(mcq: McqPayload, presented: McqOption[], model: TrialModel, norm: boolean): Promise<string> {
  if (!model.loglik) throw new ConfigError(`${model.spec} cannot score log-likelihoods; use --mcq-scoring generate`);
  const context = `${mcq.context ? `${mcq.context}\n\n` : ''}Question: ${mcq.question}\nAnswer:`;
  const continuations = presented.map((o) => ` ${o.text}`);
  const { logprobs } = await model.loglik(context, continuations);
  const score = logprobs.map((lp, i) => (norm ? lp / Math.max(1, Buffer.byteLength(continuations[i]!)) : lp));
  return presented[score.reduce((best, x, i) => (x > score[best]! ? i : best), 0)]!.label;
}

async function runVariant(
  base: Item<ProbePayload>,
  v: ProbeVariant,
  model: TrialModel,
  ctx: TrialContext,
  scoring: Scoring,
): Promise<VariantResult> {
  const item = variantItem(base, v);
  const presented: McqOption[] = v.mcq.options.map((text, i) => ({ label: LABELS[i]!, text }));
  let reply = '';
  let parsed: string | null;
  if (scoring.kind === 'loglik') parsed = await loglikLabel(v.mcq, presented, model, scoring.norm);
  else {
    const messages = buildMcqMessages(item, presented, scoring.template);
    const r = await model.chat(
      messages,
      {},
      { replicateSeed: ctx.seed, info: withInfo(PROBE_INFO, { item, presentedOptions: presented }) },
    );
    reply = r.text;
    parsed = extractAnswer(r.text, presented, scoring.template.answerPatterns).label;
  }
  const position = parsed === null ? -1 : presented.findIndex((o) => o.label === parsed);
  const expected = presented[v.mcq.answerIndex]!;
  return {
    name: v.name,
    kind: v.kind,
    context: v.mcq.context,
    question: v.mcq.question,
    presented,
    expectedLabel: expected.label,
    expectedText: expected.text,
    reply,
    parsed,
    chosenText: position >= 0 ? presented[position]!.text : null,
    chosenPosition: position >= 0 ? position : null,
    correct: position === v.mcq.answerIndex,
    ...(v.flips !== undefined ? { flips: v.flips } : {}),
    ...(v.order !== undefined ? { order: v.order } : {}),
  };
}

async function runCheckpoint(b: BeliefStory, events: number, model: TrialModel, ctx: TrialContext): Promise<CheckpointResult> {
  const context = b.sentences.slice(0, events).join('\n');
  const story = storyPrefix(b.story, events);
  const r = await model.chat(
    [{ role: 'user', content: beliefPrompt(context, b.story.agents, b.maxOrder) }],
    {},
    { replicateSeed: ctx.seed, info: withInfo(BELIEF_INFO, { story, maxOrder: b.maxOrder }) },
  );
  return { sentences: events, context, reply: r.text, listed: readBeliefList(r.text), gold: trackedBeliefs(b.story, events, b.maxOrder) };
}

/** Whether the expected option is the unique longest (shortest) text: the answer-length-only baseline, no call. */
export function lengthOnly(mcq: McqPayload): { longest: boolean; shortest: boolean } {
  const lengths = mcq.options.map((o) => o.length);
  const mine = lengths[mcq.answerIndex]!;
  const others = lengths.filter((_, i) => i !== mcq.answerIndex);
  return { longest: others.every((l) => l < mine), shortest: others.every((l) => l > mine) };
}

/** The probe protocol: a base item and its variants in one trial. */
export const probeProtocol = defineProtocol<ProbePayload>({
  name: PROBE_RECORDS.protocol,
  describe: 'validity probes: a base item and its variants (invariance, sensitivity, shortcut baselines) or belief listings, in one trial',
  records: PROBE_RECORDS,
  policies: PROBE_POLICIES,
  answer: (r) => {
    const d = r as ProbeDetail;
    return {
      reply: JSON.stringify(d.variants.map((v) => v.reply)),
      parsed: JSON.stringify(d.variants.map((v) => v.parsed)),
      gold: JSON.stringify(d.variants.map((v) => v.expectedLabel)),
    };
  },
  createTask(suite, items, settings) {
    const kind = settings.scoring ?? 'generate';
    if (kind !== 'generate' && kind !== 'loglik' && kind !== 'loglik-norm')
      throw new ConfigError(`--mcq-scoring must be generate, loglik or loglik-norm, not "${kind}"`);
    const scoring: Scoring =
      kind === 'generate'
        ? { kind, template: settings.template ? loadMcqTemplate(settings.template) : DEFAULT_MCQ_TEMPLATE }
        : { kind: 'loglik', norm: kind === 'loglik-norm' };
    return {
      suite,
      items,
      records: PROBE_RECORDS,
      async execute(item, model, ctx) {
        const p = item.payload;
        const variants: VariantResult[] = [];
        for (const v of p.variants) variants.push(await runVariant(item, v, model, ctx, scoring));
        const checkpoints: CheckpointResult[] = [];
        for (const at of p.beliefs?.checkpoints ?? []) checkpoints.push(await runCheckpoint(p.beliefs!, at, model, ctx));
        const original = p.variants.find((v) => v.kind === 'original');
        const detail: ProbeDetail = {
          family: p.family,
          baseSuite: p.baseSuite,
          baseId: p.baseId,
          variants,
          ...(p.family === 'shortcut' && original ? { lengthOnly: lengthOnly(original.mcq) } : {}),
          ...(p.beliefs ? { checkpoints } : {}),
        };
        const right = variants.filter((v) => v.correct).length;
        return {
          detail,
          score: {
            scorer: PROBE_RECORDS.scorer,
            // A belief listing scores the share of tracked beliefs it lists; variants score 1 when every one is right.
            value: p.beliefs ? beliefRecall(checkpoints) : variants.length > 0 && right === variants.length ? 1 : 0,
            detail: { family: p.family, variants: variants.length, correct: right },
          },
        };
      },
    };
  },
});
