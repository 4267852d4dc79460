// One trial as an Inspect AI sample (id: the item id; epoch: replicate + 1), with the
// conversation, the output, the protocol's score as C/I (or its value when it is not 0/1) and
// every judge score; and its JSON written straight into a log, the prompt's messages (the same
// for every subject and replicate of an item, and most of a sample) copied in as bytes encoded
// once per prompt.

import { INSPECT_RECORDS, MCQ_RECORDS, type McqDetail, readRecord } from '../core/index.js';
import { assistantToInspect, callsToInspect, conversationToInspect, promptToInspect, replyToInspect } from './inspect-messages.js';
import type { InspectChatMessage, InspectSample, InspectScore } from './inspect-log-schema.js';
import { inspectModelName, inspectUsage } from './inspect-log-header.js';
import { readRecordAgain } from './stored-record.js';
import { json, LeftOut, Quoted } from './json-pieces.js';
import { keptBytes, type TextFileWriter } from './text-file-writer.js';
import type { TrialRow } from './trial-rows.js';

/** A score value as Inspect's accuracy reads it: C / I for a 0/1 score, else the number. */
function inspectValue(v: number): string | number {
  return v === 1 ? 'C' : v === 0 ? 'I' : v;
}

/** Set a score under its scorer's name as an own field, whatever the name (`__proto__` too, which `=` would take as the prototype). */
function putScore(scores: NonNullable<InspectSample['scores']>, scorer: string, score: InspectScore): void {
  Object.defineProperty(scores, scorer, { value: score, enumerable: true, writable: true, configurable: true });
}

/** The sample of a trial whose conversation, converted, is `input` (a note when there is none) and `messages`. */
function sampleWith(r: TrialRow, model: string, input: InspectSample['input'], messages: InspectChatMessage[]): InspectSample {
  const usage = inspectUsage(r);
  const lastCall = r.transcript?.calls.at(-1)?.response;
  // Multiple-choice trials carry the options in the order presented (the target is their letter).
  const mcq = r.transcript
    ? (readRecordAgain(MCQ_RECORDS, r.transcript, `trial ${r.suite}/${r.itemId}#${r.replicate} of ${r.subject}`) as McqDetail | undefined)
    : undefined;
  const scores: NonNullable<InspectSample['scores']> = {};
  if (r.scorer !== null && r.score !== null) {
    putScore(scores, r.scorer, {
      value: inspectValue(r.score),
      answer: r.parsedAnswer,
      ...(r.parseFailed ? { explanation: 'the reply could not be read as an answer' } : {}),
      metadata: { gold: r.gold, parse_failed: r.parseFailed },
    });
  }
  for (const [scorer, value] of Object.entries(r.judgeScores)) {
    putScore(scores, scorer, { value, metadata: { judges: r.judges.filter((j) => j.scorer === scorer) } });
  }
  return {
    id: r.itemId,
    epoch: r.replicate + 1,
    input,
    ...(mcq ? { choices: mcq.presented.map((o) => o.text) } : {}),
    target: r.gold ?? '',
    messages,
    output: {
      model,
      choices:
        r.reply !== null
          ? [
              {
                // The trial's reasoning (every call's) with the reply it led to.
                message: assistantToInspect(r.reply, r.reasoning, model),
                stop_reason: lastCall?.truncated ? 'max_tokens' : 'stop',
              },
            ]
          : [],
      completion: r.reply ?? '',
      usage,
      time: r.latencyMs / 1000,
    },
    scores,
    metadata: {
      suite: r.suite,
      category: r.category,
      original_label: r.originalLabel,
      item_hash: r.itemHash,
      replicate: r.replicate,
      protocol: r.protocol,
      parse_failed: r.parseFailed,
      cached_calls: r.cachedCalls,
      calls: r.calls,
      attempts: r.attempts,
      truncated_calls: r.truncatedCalls,
      // `time` is the interactive calls' latency; a batch's wait (submission to collection) is told apart.
      ...(r.batchLatencyMs > 0 ? { batch_latency_ms: r.batchLatencyMs } : {}),
    },
    model_usage: { [model]: usage },
    completed_at: r.finishedAt,
    total_time: r.latencyMs / 1000,
    ...(r.status === 'failed' ? { error: { message: r.error ?? 'failed', traceback: '', traceback_ansi: '' } } : {}),
  };
}

/** One trial as an Inspect sample. */
export function trialToSample(r: TrialRow): InspectSample {
  const model = inspectModelName(r.subject);
  // A trial imported from an Inspect log keeps its conversation whole, not call by call.
  const imported = r.transcript
    ? readRecord(INSPECT_RECORDS, r.transcript, () => `trial ${r.suite}/${r.itemId}#${r.replicate} of ${r.subject}`)
    : undefined;
  const { input, messages } = imported
    ? conversationToInspect(imported.messages, imported.generated, model)
    : callsToInspect(r.transcript?.calls ?? [], model);
  const note = `(item ${r.itemId}: no call was recorded${r.error ? `; the trial failed: ${r.error}` : ''})`;
  return sampleWith(r, model, input.length ? input : note, messages);
}

/** The prompt of a trial of one chat call that sent a shared (frozen) list of messages; undefined otherwise. */
function sharedPrompt(r: TrialRow): { messages: NonNullable<TrialRow['messages'][number]> } | undefined {
  const calls = r.transcript?.calls;
  if (calls?.length !== 1) return undefined;
  const c = calls[0]!;
  if (c.kind !== 'chat' || !c.messages || c.messages.length === 0 || !Object.isFrozen(c.messages)) return undefined;
  return { messages: c.messages };
}

/** The UTF-8 JSON of a shared prompt's messages as Inspect input messages, without the closing "]": encoded once per prompt. */
const promptBytes = new WeakMap<object, Uint8Array>();

function promptJsonOpen(messages: TrialRow['messages'][number]): Uint8Array {
  let b = promptBytes.get(messages);
  if (b === undefined) {
    const json = JSON.stringify(promptToInspect(messages));
    b = keptBytes(json.slice(0, -1));
    promptBytes.set(messages, b);
  }
  return b;
}

/** ']' in UTF-8. */
const CLOSE = 0x5d;
const PARSE_FAILED_NOTE = JSON.stringify('the reply could not be read as an answer');

/** Quoted names of the last sample written (they repeat from trial to trial). */
const quoted = {
  itemId: new Quoted(),
  model: new Quoted(),
  gold: new Quoted(),
  scorer: new Quoted(),
  protocol: new Quoted(),
  /** The reply's text: written as the choice's content, the completion and the last message (one JSON for the three). */
  reply: new Quoted(),
};

/**
 * A piece made again only when the four values it is made of change (compared value by value
 * with the last, Object.is), by a function of the row (no list or closure made a sample).
 */
class Piece {
  #of: [unknown, unknown, unknown, unknown] | undefined;
  #text = '';
  of(a: unknown, b: unknown, c: unknown, d: unknown, r: TrialRow, make: (r: TrialRow) => string): string {
    const of = this.#of;
    if (!of || !Object.is(of[0], a) || !Object.is(of[1], b) || !Object.is(of[2], c) || !Object.is(of[3], d)) {
      this.#text = make(r);
      this.#of = [a, b, c, d];
    }
    return this.#text;
  }
}

/** The usage of the last sample (most trials of a run report the same) and its item's metadata. */
const usagePiece = new Piece();
const itemPiece = new Piece();

/** inspectUsage(r) as JSON. */
const makeUsage = (r: TrialRow): string =>
  `{"input_tokens":${json(r.inputTokens)},"output_tokens":${json(r.outputTokens)},"total_tokens":${json(r.inputTokens + r.outputTokens)}` +
  `${r.reasoningTokens !== null ? `,"reasoning_tokens":${json(r.reasoningTokens)}` : ''}${r.costUsd !== null ? `,"total_cost":${json(r.costUsd)}` : ''}}`;

function usageJson(r: TrialRow): string {
  return usagePiece.of(r.inputTokens, r.outputTokens, r.reasoningTokens, r.costUsd, r, makeUsage);
}

/** The start of a sample's metadata, up to its replicate: the item's (the same for every subject and replicate of it). */
const makeItemMetadata = (r: TrialRow): string =>
  `,"metadata":{"suite":${json(r.suite)},"category":${json(r.category)}` +
  `,"original_label":${json(r.originalLabel)},"item_hash":${json(r.itemHash)},"replicate":`;

function itemMetadata(r: TrialRow): string {
  return itemPiece.of(r.suite, r.category, r.originalLabel, r.itemHash, r, makeItemMetadata);
}

/** The options' texts of the last sample and their JSON (an item's subjects and replicates were shown the same). */
let lastChoices: { texts: string[]; json: string } | undefined;

/** The JSON of the options' texts, as presented. */
function choicesJson(presented: McqDetail['presented']): string {
  const last = lastChoices;
  let same = last !== undefined && last.texts.length === presented.length;
  for (let i = 0; same && i < presented.length; i++) same = presented[i]!.text === last!.texts[i];
  if (same) return last!.json;
  const texts = presented.map((o) => o.text);
  const text = json(texts);
  lastChoices = { texts, json: text };
  return text;
}

/**
 * The pieces of a sample's text after its messages, set for each sample and joined: one list
 * made once, where a template of its pieces made a string object a piece (and a flat copy of
 * them all when written): young garbage larger than the text. A part a sample may lack (the
 * choice, the score) has its places all the same, set to '' where it is lacking.
 */
const TAIL: string[] = new Array<string>(51).fill('');

/** The end of a choice, by whether its call was cut at the token limit. */
const STOP = '},"stop_reason":"stop"}';
const STOP_AT_MAX_TOKENS = '},"stop_reason":"max_tokens"}';
/** Between a score's answer and its gold, with the explanation of a reply that could not be read or without. */
const GOLD = ',"metadata":{"gold":';
const EXPLAINED_GOLD = `,"explanation":${PARSE_FAILED_NOTE}${GOLD}`;

/** The JSON of the output's message content: the reply's JSON, after the trial's reasoning as a reasoning part when it has any. */
function choiceContent(reasoning: string | null, reply: string): string {
  return reasoning ? `[{"type":"reasoning","reasoning":${json(reasoning)}},{"type":"text","text":${reply}}]` : reply;
}

/**
 * JSON.stringify(sampleWith(r, model, [], [])) cut where its input and messages lists go: the
 * text before the input's list, between the two lists, and after the messages' list. Undefined
 * where the text would not be written field by field so simply: judge scores (their order in
 * `scores` is the object's), a scorer named __proto__; LeftOut for a value JSON leaves out.
 */
function samplePieces(r: TrialRow, model: string): [string, string, string] | undefined {
  if (r.judges.length > 0 || Object.keys(r.judgeScores).length > 0 || r.scorer === '__proto__') return undefined;
  // The record read for the row's answer, given again (the trial is named only if it is read anew).
  const mcq = r.transcript
    ? (readRecordAgain(MCQ_RECORDS, r.transcript, () => `trial ${r.suite}/${r.itemId}#${r.replicate} of ${r.subject}`) as
        | McqDetail
        | undefined)
    : undefined;
  const m = quoted.model.of(model);
  const usage = usageJson(r);
  const time = json(r.latencyMs / 1000);
  const truncated = r.transcript?.calls.at(-1)?.response?.truncated;
  // The reply's JSON once: the choice's content and the completion ('' when there is none).
  const hasReply = r.reply !== null;
  const reply = hasReply ? quoted.reply.of(r.reply) : '""';
  const scored = r.scorer !== null && r.score !== null;
  const head = `{"id":${quoted.itemId.of(r.itemId)},"epoch":${json(r.replicate + 1)},"input":`;
  const middle = `${mcq ? `,"choices":${choicesJson(mcq.presented)}` : ''},"target":${json(r.gold ?? '')},"messages":`;
  // The text after the messages: its pieces set in one list, reused (see TAIL), and joined.
  const t = TAIL;
  let i = 0;
  t[i++] = ',"output":{"model":';
  t[i++] = m;
  t[i++] = ',"choices":[';
  // The choice: the reply as the assistant's message, and why it stopped.
  t[i++] = hasReply ? '{"message":{"role":"assistant","content":' : '';
  t[i++] = hasReply ? choiceContent(r.reasoning, reply) : '';
  t[i++] = hasReply ? ',"source":"generate","model":' : '';
  t[i++] = hasReply ? m : '';
  t[i++] = hasReply ? (truncated ? STOP_AT_MAX_TOKENS : STOP) : '';
  t[i++] = '],"completion":';
  t[i++] = reply;
  t[i++] = ',"usage":';
  t[i++] = usage;
  t[i++] = ',"time":';
  t[i++] = time;
  t[i++] = '},"scores":{';
  // The protocol's score: its value as Inspect reads it, the answer read and the gold.
  t[i++] = scored ? quoted.scorer.of(r.scorer) : '';
  t[i++] = scored ? ':{"value":' : '';
  t[i++] = scored ? json(inspectValue(r.score!)) : '';
  t[i++] = scored ? ',"answer":' : '';
  t[i++] = scored ? json(r.parsedAnswer) : '';
  t[i++] = scored ? (r.parseFailed ? EXPLAINED_GOLD : GOLD) : '';
  t[i++] = scored ? quoted.gold.of(r.gold) : '';
  t[i++] = scored ? ',"parse_failed":' : '';
  t[i++] = scored ? json(r.parseFailed) : '';
  t[i++] = scored ? '}}' : '';
  t[i++] = '}';
  t[i++] = itemMetadata(r);
  t[i++] = json(r.replicate);
  t[i++] = ',"protocol":';
  t[i++] = quoted.protocol.of(r.protocol);
  t[i++] = ',"parse_failed":';
  t[i++] = json(r.parseFailed);
  t[i++] = ',"cached_calls":';
  t[i++] = json(r.cachedCalls);
  t[i++] = ',"calls":';
  t[i++] = json(r.calls);
  t[i++] = ',"attempts":';
  t[i++] = json(r.attempts);
  t[i++] = ',"truncated_calls":';
  t[i++] = json(r.truncatedCalls);
  t[i++] = r.batchLatencyMs > 0 ? `,"batch_latency_ms":${json(r.batchLatencyMs)}` : '';
  t[i++] = '},"model_usage":{';
  t[i++] = m;
  t[i++] = ':';
  t[i++] = usage;
  t[i++] = '},"completed_at":';
  t[i++] = json(r.finishedAt);
  t[i++] = ',"total_time":';
  t[i++] = time;
  t[i++] = r.status === 'failed' ? `,"error":{"message":${json(r.error ?? 'failed')},"traceback":"","traceback_ansi":""}` : '';
  t[i++] = '}';
  // Every piece is set for every sample: none is left from the last one.
  if (i !== t.length) throw new Error(`a sample's tail has ${i} pieces, its list ${t.length}`);
  const tail = t.join('');
  return [head, middle, tail];
}

/** inspectModelName of the subjects written (a run has few): made once each. */
const modelNames = new Map<string, string>();

function modelName(subject: string): string {
  let name = modelNames.get(subject);
  if (name === undefined) {
    name = inspectModelName(subject);
    if (modelNames.size < 1000) modelNames.set(subject, name);
  }
  return name;
}

/** replyToInspect(response, model) as JSON, `m` the model's. */
function replyJson(
  response: NonNullable<NonNullable<TrialRow['transcript']>['calls'][number]['response']>,
  model: string,
  m: string,
): string {
  if (response.reasoning?.text) return JSON.stringify(replyToInspect(response, model));
  // The text's JSON remembered: most often the reply's, made for the sample's output.
  return `{"role":"assistant","content":${quoted.reply.of(response.text)},"source":"generate","model":${m}}`;
}

/**
 * JSON.stringify(trialToSample(r)) written to `out`, byte for byte. A trial of one chat call that
 * sent a shared prompt is written piece by piece with its input and messages spliced in: the
 * prompt's converted messages as bytes remembered, the reply after them.
 */
export function writeSample(out: TextFileWriter, r: TrialRow): void {
  const prompt = sharedPrompt(r);
  if (prompt) {
    const model = modelName(r.subject);
    let pieces: [string, string, string] | undefined;
    let reply = '';
    try {
      pieces = samplePieces(r, model);
      const response = r.transcript!.calls[0]!.response;
      if (response) reply = `,${replyJson(response, model, quoted.model.of(model))}`;
    } catch (err) {
      if (!(err instanceof LeftOut)) throw err;
      pieces = undefined;
    }
    if (pieces) {
      const open = promptJsonOpen(prompt.messages);
      out.write(pieces[0]);
      out.writeBytes(open);
      out.writeByte(CLOSE);
      out.write(pieces[1]);
      out.writeBytes(open);
      if (reply) out.write(reply);
      out.writeByte(CLOSE);
      out.write(pieces[2]);
      return;
    }
  }
  out.write(JSON.stringify(trialToSample(r)));
}
