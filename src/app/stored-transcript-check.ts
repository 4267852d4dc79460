// A quick reading of a stored transcript for readers that stream a run's trials (exports, the
// viewer): most transcripts are exactly what StoredTranscriptSchema gives back unchanged (the
// runner wrote them from parsed values), and checking that is a few property reads a call,
// where the schema's parse rebuilds every object (a tenth of an export's CPU). A transcript
// the check is not sure of (a field it does not know, keys out of the schema's order, a rare
// part such as log-likelihoods or image content) goes through the schema, so the result is
// always what the schema's parse gives.

import { type StoredTranscript, StoredTranscriptSchema } from '../core/index.js';

type Check = (v: unknown) => boolean;

const isString: Check = (v) => typeof v === 'string';
const isNumber: Check = (v) => typeof v === 'number' && Number.isFinite(v);
const isInt: Check = (v) => Number.isSafeInteger(v);
const isBoolean: Check = (v) => typeof v === 'boolean';
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);

/**
 * An object whose keys are all among `fields`, in the order listed (the order the schema's
 * parse writes them), each passing its check; required fields present. Anything else: false.
 */
function object(fields: Record<string, Check>, required: readonly string[] = []): Check {
  const names = Object.keys(fields);
  return (v) => {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || Object.getPrototypeOf(v) !== Object.prototype) return false;
    const o = v as Record<string, unknown>;
    let at = 0;
    // for-in: the object's own keys in order (its prototype is Object.prototype), without an array of them.
    for (const k in o) {
      while (at < names.length && names[at] !== k) at++;
      if (at === names.length) return false;
      const x = o[k];
      if (x !== undefined && !fields[k]!(x)) return false;
    }
    for (const k of required) if (o[k] === undefined) return false;
    return true;
  };
}

const arrayOf =
  (item: Check): Check =>
  (v) => {
    if (!Array.isArray(v)) return false;
    for (const x of v) if (!item(x)) return false;
    return true;
  };

const message = object({ role: oneOf('system', 'user', 'assistant'), content: isString }, ['role', 'content']);

/** Message lists that passed, frozen with their messages (rows that sent the same prompt share one: checked once). */
const passedLists = new WeakSet<object>();
const messageList = arrayOf(message);
const messages: Check = (v) => {
  if (typeof v === 'object' && v !== null && passedLists.has(v)) return true;
  if (!messageList(v)) return false;
  if (Object.isFrozen(v) && (v as unknown[]).every((m) => Object.isFrozen(m))) passedLists.add(v as object);
  return true;
};

const settings = object(
  {
    temperature: isNumber,
    maxTokens: (v) => isInt(v) && (v as number) > 0,
    topP: isNumber,
    seed: isInt,
    reasoningEffort: oneOf('minimal', 'low', 'medium', 'high'),
    thinkingBudget: (v) => isInt(v) && (v as number) >= 0,
  },
  ['temperature', 'maxTokens'],
);

const usage = object({ inputTokens: isNumber, outputTokens: isNumber, cachedInputTokens: isNumber, cacheWriteInputTokens: isNumber }, [
  'inputTokens',
  'outputTokens',
]);

const response = object(
  {
    text: isString,
    usage,
    latencyMs: isNumber,
    modelReported: isString,
    finishReason: isString,
    truncated: isBoolean,
    reasoning: object({ text: isString, tokens: isNumber }),
    batch: isBoolean,
  },
  ['text', 'usage', 'latencyMs'],
);

const call = object(
  {
    kind: oneOf('chat', 'loglik'),
    messages,
    settings,
    response,
    cached: isBoolean,
    attempts: isInt,
    costUsd: (v) => v === null || isNumber(v),
  },
  ['kind', 'settings', 'cached', 'attempts', 'costUsd'],
);

const transcript = object({ protocol: isString, calls: arrayOf(call), detail: () => true }, ['calls', 'detail']);

/**
 * A stored transcript's value (JSON.parse of its text) as StoredTranscriptSchema reads it: the
 * value itself when the schema would give it back unchanged, else the schema's parse.
 */
export function readStoredTranscript(
  value: unknown,
): { success: true; data: StoredTranscript } | { success: false; error: { issues: Array<{ message: string }> } } {
  if (transcript(value)) return { success: true, data: value as StoredTranscript };
  return StoredTranscriptSchema.safeParse(value);
}
