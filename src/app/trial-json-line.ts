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

/** `start`, then each field's quoted name and a place for its value, then `end`: [start"a":, value, ,"b":, value, ..., end]. */
function pieces(start: string, fields: readonly string[], end: string): string[] {
  const list: string[] = [];
  fields.forEach((f, k) => list.push(`${k ? ',' : start}${JSON.stringify(f)}:`, ''));
  list.push(end);
  return list;
}

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
   * The text before a line's messages and after them, as lists of pieces joined when written:
   * each field's name (and what comes before it) at an even place, its value after it. The two
   * lists are made once and their values set again for every line: a line makes no list of its
   * own (young garbage), and a `+` chain would make a string object a piece and a flat copy when
   * written (fewer young collections mean less survives them, and the young generation is not
   * grown: peak RSS).
   */
  // biome-ignore format: the fields a few to a line
  readonly #head = pieces('{', [
    'run_id', 'subject', 'subject_id', 'suite', 'item_id', 'item_hash', 'category', 'original_label', 'replicate', 'status', 'error', 'protocol',
  ], ',"messages":[');
  // biome-ignore format: the fields a few to a line
  readonly #tail = pieces('],', [
    'reply', 'reasoning', 'reasoning_tokens', 'parsed_answer', 'gold', 'scorer', 'score', 'parse_failed', 'judge_scores', 'judges',
    'input_tokens', 'output_tokens', 'cost_usd', 'latency_ms', 'batch_latency_ms', 'calls', 'cached_calls', 'truncated_calls',
    'context_truncation', 'attempts', 'finished_at',
  ], '}\n');

  /**
   * `record(r)`'s JSON and a newline, written to `out`; `record` gives the exported object (the
   * text is made from it when a field holds a value JSON leaves out, such as undefined).
   */
  write(out: TextFileWriter, r: TrialRow, record: (r: TrialRow) => unknown): void {
    const head = this.#head;
    const tail = this.#tail;
    try {
      // Each value set after its field's name (place 2k + 1 of the k-th field).
      head[1] = this.#runId.of(r.runId); // run_id
      head[3] = this.#subject.of(r.subject); // subject
      head[5] = this.#subjectId.of(r.subjectId); // subject_id
      head[7] = this.#suite.of(r.suite); // suite
      head[9] = this.#itemId.of(r.itemId); // item_id
      head[11] = this.#itemHash.of(r.itemHash); // item_hash
      head[13] = this.#category.of(r.category); // category
      head[15] = this.#originalLabel.of(r.originalLabel); // original_label
      head[17] = json(r.replicate); // replicate
      head[19] = this.#status.of(r.status); // status
      head[21] = json(r.error); // error
      head[23] = this.#protocol.of(r.protocol); // protocol
      tail[1] = json(r.reply); // reply
      tail[3] = json(r.reasoning); // reasoning
      tail[5] = json(r.reasoningTokens); // reasoning_tokens
      tail[7] = json(r.parsedAnswer); // parsed_answer
      tail[9] = this.#gold.of(r.gold); // gold
      tail[11] = this.#scorer.of(r.scorer); // scorer
      tail[13] = json(r.score); // score
      tail[15] = json(r.parseFailed); // parse_failed
      tail[17] = json(r.judgeScores); // judge_scores
      tail[19] = json(r.judges); // judges
      tail[21] = json(r.inputTokens); // input_tokens
      tail[23] = json(r.outputTokens); // output_tokens
      tail[25] = json(r.costUsd); // cost_usd
      tail[27] = json(r.latencyMs); // latency_ms
      tail[29] = json(r.batchLatencyMs); // batch_latency_ms
      tail[31] = json(r.calls); // calls
      tail[33] = json(r.cachedCalls); // cached_calls
      tail[35] = json(r.truncatedCalls); // truncated_calls
      tail[37] = json(r.contextTruncation); // context_truncation
      tail[39] = json(r.attempts); // attempts
      tail[41] = json(r.finishedAt); // finished_at
    } catch (err) {
      if (!(err instanceof LeftOut)) throw err;
      out.write(`${JSON.stringify(record(r))}\n`);
      return;
    }
    out.write(head.join(''));
    const messages = r.messages;
    for (let i = 0; i < messages.length; i++) {
      if (i) out.writeByte(COMMA);
      out.writeBytes(listJsonBytes(messages[i]!));
    }
    out.write(tail.join(''));
  }
}
