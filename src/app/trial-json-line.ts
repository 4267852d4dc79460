// A trial row's JSONL line written piece by piece: the same bytes as JSON.stringify of the
// exported record (snake_case keys in file order), without building that record and searching
// its text for the messages' place. The messages (most of a line, and the same for every subject
// and replicate of an item) are copied in as bytes encoded once per shared list; the names that
// repeat from row to row (run, subject, suite, item) are quoted once per change.

import { json, LeftOut, Quoted } from './json-pieces.js';
import { keptBytes, type TextFileWriter } from './text-file-writer.js';
import type { TrialRow } from './trial-rows.js';

/** The UTF-8 JSON of message lists shared by rows (the same prompt sent by many trials): encoded once each. */
const listBytes = new WeakMap<object, Uint8Array>();

function listJsonBytes(list: TrialRow['messages'][number]): Uint8Array {
  let b = listBytes.get(list);
  if (b === undefined) {
    b = keptBytes(JSON.stringify(list));
    if (Object.isFrozen(list)) listBytes.set(list, b);
  }
  return b;
}

/** ',' in UTF-8. */
const COMMA = 0x2c;

/** Writes trial rows as JSON lines; the quoted names it remembers are those of the last row. */
export class TrialJsonLines {
  readonly #runId = new Quoted();
  readonly #subject = new Quoted();
  readonly #subjectId = new Quoted();
  readonly #suite = new Quoted();
  readonly #itemId = new Quoted();
  readonly #itemHash = new Quoted();
  readonly #category = new Quoted();
  readonly #originalLabel = new Quoted();
  readonly #status = new Quoted();
  readonly #protocol = new Quoted();
  readonly #gold = new Quoted();
  readonly #scorer = new Quoted();

  /**
   * `record(r)`'s JSON and a newline, written to `out`; `record` gives the exported object (the
   * text is made from it when a field holds a value JSON leaves out, such as undefined).
   */
  write(out: TextFileWriter, r: TrialRow, record: (r: TrialRow) => unknown): void {
    // The text before the messages and after them, each one template of the fields' names and
    // values: a list of the pieces, joined, costs more than the JSON that makes them.
    let head: string;
    let tail: string;
    try {
      head =
        `{"run_id":${this.#runId.of(r.runId)},"subject":${this.#subject.of(r.subject)},"subject_id":${this.#subjectId.of(r.subjectId)}` +
        `,"suite":${this.#suite.of(r.suite)},"item_id":${this.#itemId.of(r.itemId)},"item_hash":${this.#itemHash.of(r.itemHash)}` +
        `,"category":${this.#category.of(r.category)},"original_label":${this.#originalLabel.of(r.originalLabel)}` +
        `,"replicate":${json(r.replicate)},"status":${this.#status.of(r.status)},"error":${json(r.error)}` +
        `,"protocol":${this.#protocol.of(r.protocol)},"messages":[`;
      tail =
        `],"reply":${json(r.reply)},"reasoning":${json(r.reasoning)},"reasoning_tokens":${json(r.reasoningTokens)}` +
        `,"parsed_answer":${json(r.parsedAnswer)},"gold":${this.#gold.of(r.gold)},"scorer":${this.#scorer.of(r.scorer)}` +
        `,"score":${json(r.score)},"parse_failed":${json(r.parseFailed)},"judge_scores":${json(r.judgeScores)}` +
        `,"judges":${json(r.judges)},"input_tokens":${json(r.inputTokens)},"output_tokens":${json(r.outputTokens)}` +
        `,"cost_usd":${json(r.costUsd)},"latency_ms":${json(r.latencyMs)},"batch_latency_ms":${json(r.batchLatencyMs)}` +
        `,"calls":${json(r.calls)},"cached_calls":${json(r.cachedCalls)},"truncated_calls":${json(r.truncatedCalls)}` +
        `,"context_truncation":${json(r.contextTruncation)},"attempts":${json(r.attempts)},"finished_at":${json(r.finishedAt)}}\n`;
    } catch (err) {
      if (!(err instanceof LeftOut)) throw err;
      out.write(`${JSON.stringify(record(r))}\n`);
      return;
    }
    out.write(head);
    const messages = r.messages;
    for (let i = 0; i < messages.length; i++) {
      if (i) out.writeByte(COMMA);
      out.writeBytes(listJsonBytes(messages[i]!));
    }
    out.write(tail);
  }
}
