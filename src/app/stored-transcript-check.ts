// A quick reading of a stored transcript for readers that stream a run's trials (exports, the
// viewer): most transcripts are exactly what StoredTranscriptSchema gives back unchanged (the
// runner wrote them from parsed values), and checking that is a few property reads a call,
// where the schema's parse rebuilds every object (a tenth of an export's CPU). A transcript
// the check is not sure of (a field it does not know, keys out of the schema's order, a rare
// part such as log-likelihoods or image content) goes through the schema, so the result is
// always what the schema's parse gives.

import { type StoredTranscript, StoredTranscriptSchema } from '../core/index.js';
import { arrayOf, type Check, isBoolean, isInt, isNumber, isString, object, oneOf } from './shape-checks.js';

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
