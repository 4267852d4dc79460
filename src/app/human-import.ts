// Human and expert baselines as subjects: per-item answers of human participants enter a stored
// run as the subject `human:NAME`, one replicate per participant, so that every analysis (accuracy
// tables, DialToM's cells, positions and distractor clustering, StoryTurn results, judge scoring,
// exports) treats them like a model. The answers go through the suite's own protocol (its
// `humans` hooks, see HumanAnswerHooks): each participant's answer is the reply of a scripted
// subject, read and scored exactly as a model's reply would be (MCQ: the option's letter as
// presented in the item's own order, or its text; a multi-turn protocol: the answer to each turn).
//
// The file (CSV, JSONL or JSON list) has one row per answer:
//   suite, item, answer, participant (optional; default "p1"), turn (multi-turn items: 1-based)
// A blank answer is left out (no trial). Items must be items of the run (run the suite first).

import { basename } from 'node:path';
import {
  type CallContext,
  type ChatMessage,
  type ChatResponse,
  ConfigError,
  contentHash,
  decimalNumber,
  InputError,
  type Item,
  readText,
  type TrialModel,
  validateRecord,
} from '../core/index.js';
import type { HumanAnswerHooks } from '../protocols/index.js';
import { PROTOCOL_SCORES, type Store } from '../store/index.js';
import { readRecords } from '../suites/index.js';
import { createRegistry, type Registry } from './registry.js';

export interface HumanImportResult {
  runId: string;
  subject: string;
  subjectId: string;
  /** Participants in replicate order (replicate i is participants[i]). */
  participants: string[];
  trials: number;
  bySuite: Record<string, number>;
  /** Rows with a blank answer, left out. */
  blank: number;
}

interface AnswerRow {
  line: number;
  suite: string;
  item: string;
  participant: string;
  turn: number | null;
  answer: string;
}

const str = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());

/** Answers by participant and item, as the protocol asks for them: the item's answer, or each turn's. */
class ScriptedSubject implements TrialModel {
  readonly subjectId: string;
  readonly spec: string;
  constructor(
    subjectId: string,
    spec: string,
    private readonly answers: Map<number, string>,
    private readonly hooks: HumanAnswerHooks,
    private readonly where: string,
  ) {
    this.subjectId = subjectId;
    this.spec = spec;
  }
  async chat(_messages: ChatMessage[], _settings?: unknown, context?: CallContext): Promise<ChatResponse> {
    const part = this.hooks.part?.(context) ?? 1;
    const text = this.answers.get(part) ?? this.answers.get(0);
    if (text === undefined) throw new InputError(`no answer for turn ${part}`, this.where);
    return { text, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0 };
  }
}

function readRows(records: Array<{ line: number; value: Record<string, unknown> }>, file: string): { rows: AnswerRow[]; blank: number } {
  let blank = 0;
  const rows: AnswerRow[] = [];
  for (const { line, value: v } of records) {
    const suite = str(v.suite);
    const item = str(v.item ?? v.item_id);
    if (!suite) throw new InputError('no "suite"', file, line);
    if (!item) throw new InputError('no "item" (or "item_id")', file, line);
    const answer = str(v.answer);
    if (!answer) {
      blank++;
      continue;
    }
    const t = str(v.turn);
    const turn = t === '' ? null : decimalNumber(t);
    if (turn !== null && !(Number.isInteger(turn) && turn >= 1))
      throw new InputError(`"turn" must be a whole number from 1, not "${t}"`, file, line);
    rows.push({ line, suite, item, participant: str(v.participant) || 'p1', turn, answer });
  }
  return { rows, blank };
}

/**
 * Import human participants' answers into a stored run as the subject `human:NAME` (see the
 * file comment). Refuses a file naming an item the run does not hold, an answer the item's
 * protocol cannot take (an option it cannot read, a turn missing), and a second
 * import under the same name from a different file.
 */
export async function importHumanAnswers(opts: {
  store: Store;
  runId: string;
  name: string;
  file: string;
  registry?: Registry;
}): Promise<HumanImportResult> {
  const { store, runId, file } = opts;
  if (!/^[\w.-]+$/.test(opts.name)) throw new ConfigError(`--name "${opts.name}": letters, digits, dots, dashes and underscores only`);
  if (!(await store.getRun(runId))) throw new ConfigError(`no run "${runId}" in ${store.location}`);
  const registry = opts.registry ?? createRegistry();
  const spec = `human:${opts.name}`;
  const { rows, blank } = readRows(await readRecords(file), file);
  if (rows.length === 0) throw new InputError('no answers', file);
  const participants = [...new Set(rows.map((r) => r.participant))].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
  const source = contentHash(readText(file));
  const subjectId = `h-${contentHash({ spec, participants, source }).slice(0, 12)}`;
  // The run's items by suite and id, and whether this name was imported from another file.
  const items = new Map<string, { hash: string; item: Item }>();
  for await (const r of store.responses(runId, PROTOCOL_SCORES)) {
    if (r.spec === spec && r.subjectId !== subjectId)
      throw new ConfigError(`run ${runId} already holds ${spec} from another file; import under another --name`);
    const k = `${r.suite}\u0000${r.itemId}`;
    if (!items.has(k)) {
      const item = await store.getItem(r.itemHash);
      if (item) items.set(k, { hash: r.itemHash, item });
    }
  }
  // Answers grouped per suite, participant and item (turn -> answer; 0 for single-answer items).
  const groups = new Map<string, { suite: string; participant: string; itemId: string; answers: Map<number, string>; line: number }>();
  for (const r of rows) {
    if (!items.has(`${r.suite}\u0000${r.item}`))
      throw new InputError(`item "${r.item}" of suite ${r.suite} is not in run ${runId} (run the suite there first)`, file, r.line);
    const k = `${r.suite}\u0000${r.participant}\u0000${r.item}`;
    const g = groups.get(k) ?? { suite: r.suite, participant: r.participant, itemId: r.item, answers: new Map(), line: r.line };
    const turn = r.turn ?? 0;
    if (g.answers.has(turn))
      throw new InputError(`a second answer of ${r.participant} to ${r.item}${r.turn ? ` turn ${r.turn}` : ''}`, file, r.line);
    g.answers.set(turn, r.answer);
    groups.set(k, g);
  }
  await store.upsertSubject({ id: subjectId, spec, settings: { participants, source: basename(file), sha256: source } });
  const bySuite: Record<string, number> = {};
  for (const g of groups.values()) {
    const { hash, item } = items.get(`${g.suite}\u0000${g.itemId}`)!;
    const suite = registry.suite(g.suite);
    const protocol = registry.protocols.find((p) => p.name === suite.protocol);
    if (!protocol?.humans) {
      const taking = registry.protocols.filter((p) => p.humans).map((p) => p.name);
      throw new ConfigError(
        `suite ${g.suite} runs on protocol ${suite.protocol}: human answers can be imported for suites on protocols ${taking.join(', ')}`,
      );
    }
    const where = `${file}:${g.line}`;
    protocol.humans.check(item, g.answers, { participant: g.participant, itemId: g.itemId, where });
    const task = protocol.createTask(g.suite, [item as Item<never>], {});
    const replicate = participants.indexOf(g.participant);
    const subject = new ScriptedSubject(subjectId, spec, g.answers, protocol.humans, where);
    const result = await task.execute(item as Item<never>, subject, { replicate, seed: 0 });
    validateRecord(task.records, result.detail, result.score.detail, `human trial ${g.suite}/${g.itemId}`);
    await store.recordDone(
      { runId, subjectId, suite: g.suite, itemId: g.itemId, replicate },
      hash,
      {
        transcript: { protocol: task.records.protocol, calls: [], detail: result.detail },
        score: result.score,
        usage: { inputTokens: 0, outputTokens: 0 },
        costUsd: 0,
        latencyMs: 0,
        cachedCalls: 0,
        totalCalls: 0,
      },
      1,
    );
    bySuite[g.suite] = (bySuite[g.suite] ?? 0) + 1;
  }
  await store.setPlan(
    runId,
    Object.entries(bySuite).map(([suite, planned]) => ({ subjectId, suite, planned })),
  );
  await store.flush();
  return { runId, subject: spec, subjectId, participants, trials: groups.size, bySuite, blank };
}
