// The multiple-choice protocol: present an item's options (shuffled per replicate when asked),
// ask the model, read the answer, score 1 or 0. Two scoring modes:
//   generate  - the model writes a reply; extractAnswer reads the chosen label (default);
//   loglik    - the option with the highest summed log-probability as a continuation of the
//               prompt wins (lm-evaluation-harness style); `acc_norm` (divided by the option's
//               length in bytes) is recorded too and chosen by `loglik-norm`.

import type {
  ChatMessage,
  Item,
  McqDetail,
  Task,
  McqOption,
  McqPayload,
  McqScoreDetail,
  ProtocolResult,
  TrialContext,
  TrialModel,
} from '../../core/index.js';
import {
  ConfigError,
  createRng,
  deriveSeed,
  InputError,
  MCQ_RECORDS,
  McqPayloadSchema,
  MindscopeError,
  withInfo,
} from '../../core/index.js';
import { defineProtocol, judgeVars, type ProtocolSettings } from '../protocol.js';
import { extractAnswer } from './extract-answer.js';
import { MCQ_INFO, MCQ_POLICIES } from './reference-policies.js';
import { maskOptionReferences, readTraces, TRACE_PREFIX } from './reasoning-trace.js';
import { DEFAULT_MCQ_TEMPLATE, loadMcqTemplate, missingItemFields, renderMcq, type McqTemplate } from './template.js';

export type McqScoring = 'generate' | 'loglik' | 'loglik-norm';

export interface McqProtocolOptions {
  template?: McqTemplate;
  /** Teacher explanations per item id, injected masked (reasoning-trace injection). */
  traces?: Map<string, string>;
  /** Also drop each trace's last sentence (true) or last N sentences, where teachers state their pick. */
  tracesDropLast?: boolean | number;
  /** Shuffle options with a seed drawn from the replicate's seed and the item. */
  shuffle?: boolean;
  scoring?: McqScoring;
}

export const MCQ_SCORER = MCQ_RECORDS.scorer;
const LABELS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The options in the order this replicate presents them. */
export function presentOptions(item: Item<McqPayload>, ctx: TrialContext, shuffle: boolean): McqOption[] {
  const indices = item.payload.options.map((_, i) => i);
  const order = shuffle ? createRng(deriveSeed(ctx.seed, item.suite, item.id)).shuffle(indices) : indices;
  return order.map((src, i) => ({ label: LABELS[i]!, text: item.payload.options[src]! }));
}

/** The messages of one MCQ call: the template filled with the item, its presented options, its fields and a masked trace. */
export function buildMcqMessages(item: Item<McqPayload>, options: McqOption[], template: McqTemplate, trace?: string): ChatMessage[] {
  const fields = { context: item.payload.context, question: item.payload.question, options, meta: item.meta, trace };
  const user = renderMcq(template, fields);
  return template.system
    ? [
        { role: 'system', content: renderMcq(template, fields, template.system) },
        { role: 'user', content: user },
      ]
    : [{ role: 'user', content: user }];
}

/** Whether a template places the trace itself ({trace}); otherwise the trace is put before the prompt. */
const placesTrace = (template: McqTemplate) => /\{trace\}/.test(`${template.system ?? ''}${template.user}`);

async function runGenerate(
  item: Item<McqPayload>,
  model: TrialModel,
  ctx: TrialContext,
  options: McqOption[],
  template: McqTemplate,
  trace?: string,
  dropLast: boolean | number = false,
): Promise<ProtocolResult<McqDetail>> {
  const masked = trace !== undefined ? maskOptionReferences(trace, item.payload.options, dropLast) : undefined;
  const masks = masked?.masks;
  const inPlace = placesTrace(template);
  const messages = buildMcqMessages(item, options, template, inPlace ? masked?.masked : undefined);
  if (masked && !inPlace) {
    const last = messages[messages.length - 1]!;
    messages[messages.length - 1] = { ...last, content: `${TRACE_PREFIX}\n${masked.masked}\n\n${last.content as string}` };
  }
  const response = await model.chat(
    messages,
    {},
    { replicateSeed: ctx.seed, info: withInfo(MCQ_INFO, { item, presentedOptions: options }) },
  );
  const parsed = extractAnswer(response.text, options, template.answerPatterns);
  const chosen = parsed.label ? options.find((o) => o.label === parsed.label)!.text : null;
  const correct = options.find((o) => o.text === item.answer)!.label;
  const value = chosen !== null && chosen === item.answer ? 1 : 0;
  return {
    detail: {
      presented: options,
      correctLabel: correct,
      reply: response.text,
      parsed: parsed.label,
      parseMethod: parsed.method,
      ...(masks !== undefined ? { traceMasks: masks } : {}),
    },
    score: {
      scorer: MCQ_SCORER,
      value,
      detail: { parsed: parsed.label, correctLabel: correct, parseFailed: parsed.label === null } satisfies McqScoreDetail,
    },
  };
}

async function runLoglik(
  item: Item<McqPayload>,
  model: TrialModel,
  options: McqOption[],
  normalise: boolean,
): Promise<ProtocolResult<McqDetail>> {
  if (!model.loglik) {
    throw new MindscopeError(`${model.spec} cannot score log-likelihoods; use --mcq-scoring generate (only llamacpp: models offer loglik)`);
  }
  const p = item.payload;
  const context = `${p.context ? `${p.context}\n\n` : ''}Question: ${p.question}\nAnswer:`;
  const continuations = options.map((o) => ` ${o.text}`);
  const { logprobs, tokenCounts } = await model.loglik(context, continuations);
  const norm = logprobs.map((lp, i) => lp / Math.max(1, Buffer.byteLength(continuations[i]!)));
  const argmax = (xs: number[]) => xs.reduce((best, x, i) => (x > xs[best]! ? i : best), 0);
  const pick = normalise ? argmax(norm) : argmax(logprobs);
  const correctIndex = options.findIndex((o) => o.text === item.answer);
  const correct = options[correctIndex];
  // A plain Error, as the TypeError it replaces: a suite that loses its answer is a bug, not a failed trial.
  if (!correct) throw new Error(`${item.suite} item ${item.id}: the answer is not among the presented options`);
  return {
    detail: { presented: options, correctLabel: correct.label, logprobs, tokenCounts, logprobsPerByte: norm },
    score: {
      scorer: MCQ_SCORER,
      value: pick === correctIndex ? 1 : 0,
      detail: {
        parsed: options[pick]!.label,
        correctLabel: correct.label,
        parseFailed: false,
        acc: argmax(logprobs) === correctIndex ? 1 : 0,
        acc_norm: argmax(norm) === correctIndex ? 1 : 0,
      } satisfies McqScoreDetail,
    },
  };
}

/** A multiple-choice task over a suite's items. */
export function createMcqTask(suite: string, items: Item<McqPayload>[], opts: McqProtocolOptions = {}): Task<McqPayload> {
  const template = opts.template ?? DEFAULT_MCQ_TEMPLATE;
  const scoring = opts.scoring ?? 'generate';
  checkTemplateFits(suite, items, template, opts);
  return {
    suite,
    items,
    warnings: opts.traces ? unmatchedTraceWarnings(suite, items, opts.traces) : [],
    records: MCQ_RECORDS,
    async execute(item, model, ctx) {
      const options = presentOptions(item, ctx, opts.shuffle ?? false);
      return scoring === 'generate'
        ? runGenerate(item, model, ctx, options, template, opts.traces?.get(item.id), opts.tracesDropLast)
        : runLoglik(item, model, options, scoring === 'loglik-norm');
    },
  };
}

const SCORINGS: readonly McqScoring[] = ['generate', 'loglik', 'loglik-norm'];

/** Refuse a template before the run starts: an item lacking a field it uses, or {trace} without traces. */
function checkTemplateFits(suite: string, items: Item<McqPayload>[], template: McqTemplate, opts: McqProtocolOptions): void {
  for (const item of items) {
    const missing = missingItemFields(template, item.meta);
    if (missing.length) {
      const lacking = items.filter((i) => missingItemFields(template, i.meta).length > 0).length;
      const notes = missing.flatMap((f) => (template.itemFieldNotes?.[f] ? [`{${f}}: ${template.itemFieldNotes[f]}`] : []));
      throw new ConfigError(
        `the template uses ${missing.map((f) => `{${f}}`).join(', ')}, which item ${item.id} of suite ${suite} does not have (${lacking} of ${items.length} items lack a field the template uses; its fields: ${Object.keys(item.meta).join(', ') || 'none'})${notes.length ? `. ${notes.join('. ')}` : ''}`,
      );
    }
  }
  if (placesTrace(template) && !opts.traces)
    throw new ConfigError(`suite ${suite}: the template has {trace}; give the traces (--traces FILE)`);
}

/**
 * Trace ids that match no item are reported (a trace-injection study must know which items got
 * a trace); a trace file that matches no item of the suite at all is refused.
 */
function unmatchedTraceWarnings(suite: string, items: Item<McqPayload>[], traces: Map<string, string>): string[] {
  const ids = new Set(items.map((i) => i.id));
  const unmatched = [...traces.keys()].filter((id) => !ids.has(id));
  if (unmatched.length === traces.size) {
    throw new ConfigError(
      `none of the ${traces.size} trace ids matches an item of suite ${suite} (first: ${unmatched.slice(0, 3).join(', ')})`,
    );
  }
  const withTrace = items.filter((i) => traces.has(i.id)).length;
  const out =
    withTrace < items.length ? [`suite ${suite}: ${withTrace} of ${items.length} items have a trace; the others run without one`] : [];
  if (unmatched.length) {
    out.push(
      `suite ${suite}: ${unmatched.length} trace id(s) match no item and are not used: ${unmatched.slice(0, 5).join(', ')}${unmatched.length > 5 ? ', ...' : ''}`,
    );
  }
  return out;
}

/** The multiple-choice protocol: one call per item, the answer read from the reply (or by log-likelihood), scored 1 or 0. */
export const mcqProtocol = defineProtocol<McqPayload>({
  name: 'mcq',
  describe: 'multiple choice: one call per item; the chosen label is read from the reply, or options are ranked by log-likelihood',
  records: MCQ_RECORDS,
  policies: MCQ_POLICIES,
  answer: (r) => {
    const mcq = r as McqDetail;
    return { reply: mcq.reply, parsed: mcq.parsed ?? null, gold: mcq.correctLabel };
  },
  judge: {
    // Judges read the chosen option's text (the reply when no option was read) with the item's question and options.
    target: (r, item) => {
      const mcq = r as McqDetail;
      if (mcq.reply === undefined) return undefined;
      const response = mcq.presented.find((o) => o.label === mcq.parsed)?.text ?? mcq.reply;
      const payload = McqPayloadSchema.safeParse(item.payload).data;
      const vars = { question: payload?.question, context: payload?.context, options: payload?.options.join(' | ') };
      return { response, expected: item.answer, vars: judgeVars({ ...vars, expected: item.answer, reply: mcq.reply }) };
    },
  },
  humans: {
    // A participant's answer is the option's letter as presented in the item's own order, or its text.
    check(item, answers, who) {
      const payload = McqPayloadSchema.parse(item.payload);
      const presented = payload.options.map((text, i) => ({ label: String.fromCharCode(65 + i), text }));
      const read = extractAnswer(answers.get(0) ?? '', presented);
      if (!read.label || !['bare-label', 'option-text', 'leading-label'].includes(read.method))
        throw new InputError(
          `answer "${answers.get(0)}" to ${who.itemId} is neither an option letter (A-${presented.at(-1)!.label}) nor an option's text`,
          who.where,
        );
    },
  },
  createTask(suite, items, settings: ProtocolSettings) {
    const scoring = (settings.scoring ?? 'generate') as McqScoring;
    if (!SCORINGS.includes(scoring)) throw new ConfigError(`--mcq-scoring must be ${SCORINGS.join(', ')}, not "${settings.scoring}"`);
    return createMcqTask(suite, items, {
      template: settings.template ? loadMcqTemplate(settings.template) : DEFAULT_MCQ_TEMPLATE,
      traces: settings.traces ? readTraces(settings.traces) : undefined,
      tracesDropLast: settings.tracesDropLast ?? false,
      shuffle: settings.shuffle ?? false,
      scoring,
    });
  },
});
