// Masking teacher traces with a model, as the DialToM paper does before it injects them (§6.3):
// "To ensure that performance shifts are not due to raw label leakage, we processed all traces
// with Gemini 2.5 Pro zero-shot prompting to mask direct and indirect references to answer
// options (e.g., “Option A”) with a [MASK] token prior to injection." The paper prints no masking
// prompt (its appendix K lists the task and judge prompts only, and the released code has none),
// so TRACE_MASK_PROMPT is mindscope's own zero-shot prompt written to that sentence; give your
// own with --mask-prompt. Calls go through the model layer: cached, retried, costed, any provider.

import { InputError, readText } from '../../../core/index.js';
import { settingsFor } from '../../../models/index.js';
import { CallerFactory, DEFAULT_CONCURRENCY, runPool } from '../../../runner/index.js';
import type { Store } from '../../../store/index.js';
import { createRegistry, type Registry } from '../../../app/index.js';

/** mindscope's zero-shot masking prompt ({options}: the options as the teacher saw them; {trace}: the trace). */
export const TRACE_MASK_PROMPT = `You will be given a reasoning trace that a model wrote while answering a multiple-choice question, and the answer options it was shown.

Task: mask every direct and indirect reference to the answer options with the token [MASK], so that the trace cannot reveal which option it chose or rejected. Mask:
- option labels used as labels, in any phrasing (e.g. "Option A", "(B)", "C is correct", "between A and D", "the answer is B");
- ordinal references to options (e.g. "the second option", "the last one");
- quotations of an option's text, and close paraphrases that identify one option.
Replace each such reference with [MASK] and keep every other word of the trace exactly as it is: do not add, remove, reorder, summarise or reword anything else, and do not answer the question.

Answer options:
{options}

Reasoning trace:
{trace}

Output only the masked trace.`;

/** One trace to mask: its item, the text, and the options as the teacher saw them (label and text). */
export interface MaskRequest {
  itemId: string;
  trace: string;
  options: Array<{ label: string; text: string }>;
}

/** The prompt text for --mask-prompt FILE: it must place {trace} and {options}. */
export function readMaskPrompt(file: string): string {
  const text = readText(file);
  for (const p of ['{trace}', '{options}']) if (!text.includes(p)) throw new InputError(`the masking prompt must contain ${p}`, file);
  return text;
}

/** The masking prompt filled in for one trace. */
export function maskPrompt(template: string, r: MaskRequest): string {
  const options = r.options.map((o) => `${o.label}. ${o.text}`).join('\n');
  return template.replace(/\{options\}|\{trace\}/g, (m) => (m === '{options}' ? options : r.trace));
}

const count = (text: string) => text.split('[MASK]').length - 1;

/** The model's reply as the masked trace: a code fence around it is taken off; an empty reply is an error naming the item. */
function maskedText(reply: string, itemId: string, spec: string): string {
  const fenced = /^\s*```[^\n]*\n([\s\S]*?)\n```\s*$/.exec(reply);
  const text = (fenced ? fenced[1]! : reply).trim();
  if (!text) throw new InputError(`item ${itemId}: the masking model ${spec} returned an empty trace`);
  return text;
}

/**
 * Mask traces with a model (temperature 0, one call per trace, through the call cache): returns
 * each masked trace and the [MASK] tokens the model added.
 */
export async function maskTracesWithModel(opts: {
  store: Store;
  model: string;
  requests: MaskRequest[];
  prompt?: string;
  apiKeyEnv?: string;
  concurrency?: number;
  maxTokens?: number;
  registry?: Registry;
}): Promise<Array<{ itemId: string; masked: string; masks: number }>> {
  const registry = opts.registry ?? createRegistry();
  const model = registry.createModel(opts.model, { apiKeyEnv: opts.apiKeyEnv });
  const factory = new CallerFactory({ store: opts.store, concurrency: opts.concurrency, timeoutMs: 300_000 });
  const settings = settingsFor(model.spec, model.capabilities, { temperature: 0, maxTokens: opts.maxTokens ?? 8192 }).settings;
  const caller = factory.caller(model, `trace-mask:${model.spec}`, settings);
  const out = new Array<{ itemId: string; masked: string; masks: number }>(opts.requests.length);
  try {
    await runPool(
      opts.requests.map((r, i) => ({ r, i })),
      Math.max(1, Math.min(opts.concurrency ?? DEFAULT_CONCURRENCY, opts.requests.length)),
      async ({ r, i }) => {
        const reply = await caller.chat([{ role: 'user', content: maskPrompt(opts.prompt ?? TRACE_MASK_PROMPT, r) }]);
        // A reply cut off at the token limit would inject part of a trace.
        if (reply.truncated)
          throw new InputError(
            `item ${r.itemId}: the masking model ${model.spec} was cut off at ${settings.maxTokens} output tokens (give more with --mask-max-tokens)`,
          );
        const masked = maskedText(reply.text, r.itemId, model.spec);
        out[i] = { itemId: r.itemId, masked, masks: Math.max(0, count(masked) - count(r.trace)) };
      },
    );
    await factory.settle();
  } finally {
    await model.close?.();
  }
  return out;
}
