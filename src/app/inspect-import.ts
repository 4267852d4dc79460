// `mindscope import inspect`: results of Inspect AI evaluations enter a store as a run, so the
// audit, the exports and the reports read them like any run. A log is one model on one task:
// the model becomes a subject, the task a suite, each sample an item (id, input, target,
// choices) and each epoch a replicate; the chosen scorer's value becomes the trial's score
// (C -> 1, I -> 0, P -> 0.5, N -> 0 and a parse failure, booleans, numbers in [0, 1]). A sample
// that errored is a failed trial. Logs written by `mindscope export inspect` carry their
// subject, suite, category and original label, so a round trip gives back the same matrix, and
// each trial's calls, cached and truncated calls, attempts and batch wait.

import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { z } from 'zod';
import {
  type Category,
  CATEGORIES,
  ConfigError,
  contentHash,
  INSPECT_RECORDS,
  type InspectDetail,
  InputError,
  isCategory,
  type Item,
  sha256,
  validateRecord,
} from '../core/index.js';
import { type Store, trialKeyString } from '../store/index.js';
import type { InspectSample, InspectScore } from './inspect-log-schema.js';
import { inspectReasoning, inspectText, inspectToMessages } from './inspect-messages.js';
import { inspectLogFiles, type InspectLogFile, readBytes, readInspectLog } from './inspect-read.js';

export interface InspectImportOptions {
  store: Store;
  /** Log files or directories of logs. */
  paths: string[];
  /** Run to create (default: inspect- and a hash of the files' contents). */
  runId?: string;
  /** The Inspect scorer whose value is the trial's score (default: each log's first scorer). */
  scorer?: string;
  /** The category of samples whose metadata names no ToM category. */
  category?: Category;
}

export interface InspectImportResult {
  runId: string;
  files: number;
  subjects: string[];
  suites: string[];
  trials: number;
  failed: number;
  /** Samples already in the run (the same subject, suite, id and epoch), left as they were. */
  duplicates: number;
}

/** What `mindscope export inspect` writes into eval.metadata.mindscope. */
const MindscopeMetaSchema = z.object({ subject: z.string(), subject_id: z.string(), suite: z.string() });
const SampleMetaSchema = z.looseObject({
  category: z.string().optional(),
  original_label: z.string().optional(),
  suite: z.string().optional(),
});

/** The counts (calls, cached, cut at the token limit), attempts and the batch's wait `export inspect` writes into a sample's metadata (read from its logs only). */
const SampleCallsSchema = z.looseObject({
  calls: z.number().int().nonnegative().optional(),
  cached_calls: z.number().int().nonnegative().optional(),
  attempts: z.number().int().positive().optional(),
  truncated_calls: z.number().int().nonnegative().optional(),
  batch_latency_ms: z.number().nonnegative().optional(),
});

/** A score's metadata as `export inspect` writes it for a trial not read for an answer. */
const UnreadSchema = z.looseObject({ parse_failed: z.null() });

/** An Inspect score value as a 0..1 score (null when it is none of the correctness values). */
function correctness(v: InspectScore['value']): { value: number; parseFailed: boolean } | null {
  if (typeof v === 'boolean') return { value: v ? 1 : 0, parseFailed: false };
  if (typeof v === 'number') return v >= 0 && v <= 1 ? { value: v, parseFailed: false } : null;
  if (typeof v !== 'string') return null;
  const u = v.toUpperCase();
  if (u === 'C') return { value: 1, parseFailed: false };
  if (u === 'I') return { value: 0, parseFailed: false };
  if (u === 'P') return { value: 0.5, parseFailed: false };
  if (u === 'N') return { value: 0, parseFailed: true };
  return null;
}

function textOfInput(input: InspectSample['input']): string {
  return typeof input === 'string' ? input : input.map((m) => `${m.role}: ${inspectText(m.content)}`).join('\n\n');
}

function replyOf(s: InspectSample): { reply: string; reasoning?: string } {
  const choice = s.output?.choices[0]?.message;
  const lastMessage = [...(s.messages ?? [])].reverse().find((m) => m.role === 'assistant');
  const last = choice ?? lastMessage;
  const reply = s.output?.completion || (last ? inspectText(last.content) : '');
  // A choice without reasoning parts (as logs of earlier versions wrote it): the last assistant message's.
  const reasoning = (choice && inspectReasoning(choice.content)) ?? (lastMessage ? inspectReasoning(lastMessage.content) : undefined);
  return { reply, ...(reasoning ? { reasoning } : {}) };
}

function usageOf(s: InspectSample): { inputTokens: number; outputTokens: number; reasoningTokens?: number; costUsd: number | null } {
  const all = Object.values(s.model_usage ?? {});
  const usage = all.length ? all : s.output?.usage ? [s.output.usage] : [];
  const reasoned = usage.filter((u) => u.reasoning_tokens != null);
  return {
    inputTokens: usage.reduce((a, u) => a + u.input_tokens, 0),
    outputTokens: usage.reduce((a, u) => a + u.output_tokens, 0),
    ...(reasoned.length ? { reasoningTokens: reasoned.reduce((a, u) => a + (u.reasoning_tokens ?? 0), 0) } : {}),
    costUsd: usage.length && usage.every((u) => u.total_cost != null) ? usage.reduce((a, u) => a + (u.total_cost ?? 0), 0) : null,
  };
}

/** When a sample finished, as ISO 8601 (to the millisecond); undefined when its log does not say (the trial is then recorded now). */
function finishedAtOf(s: InspectSample): string | undefined {
  const ms = s.completed_at ? Date.parse(s.completed_at) : Number.NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

const WRITE_BATCH = 500;

interface Planned {
  subjectId: string;
  suite: string;
  planned: number;
}

async function importLog(
  store: Store,
  runId: string,
  f: InspectLogFile,
  opts: InspectImportOptions,
  plan: Map<string, Planned>,
  seen: Set<string>,
  done: Set<string>,
  result: InspectImportResult,
): Promise<void> {
  const { log, file } = f;
  const mindscope = MindscopeMetaSchema.safeParse(log.eval.metadata?.mindscope);
  const spec = mindscope.success ? mindscope.data.subject : log.eval.model;
  const suite = mindscope.success ? mindscope.data.suite : log.eval.task;
  const settings = { source: 'inspect', model: log.eval.model, ...(log.eval.model_generate_config ?? {}) };
  const subjectId = mindscope.success ? mindscope.data.subject_id : `i-${contentHash({ spec, settings }).slice(0, 12)}`;
  const scorer = opts.scorer ?? log.results?.scores[0]?.name ?? Object.keys(f.samples.find((s) => s.scores)?.scores ?? {})[0];
  await store.upsertSubject({ id: subjectId, spec, settings });
  // Items are stored before the trials that name them; trials are recorded in batches, each
  // batch awaited as one group commit (awaiting every trial in turn would wait a commit each).
  const items = new Map<string, Item>();
  let writes: Array<() => Promise<void>> = [];
  const flush = async () => {
    await store.putItems([...items].map(([hash, item]) => ({ hash, item })));
    items.clear();
    const batch = writes;
    writes = [];
    await Promise.all(batch.map((w) => w()));
  };
  for (let i = 0; i < f.samples.length; i++) {
    if (writes.length >= WRITE_BATCH) await flush();
    const s = f.samples[i]!;
    const where = `${file}: ${f.where(i)}`;
    const meta = SampleMetaSchema.safeParse(s.metadata ?? {});
    const rawCategory = meta.success ? meta.data.category : undefined;
    const category = rawCategory && isCategory(rawCategory) ? rawCategory : opts.category;
    if (!category)
      throw new InputError(
        `${f.where(i)}.metadata.category: ${rawCategory === undefined ? 'missing' : `"${rawCategory}" is not one of ${CATEGORIES.join(', ')}`}; pass --category to name the category of this task's samples`,
        file,
      );
    const target = Array.isArray(s.target) ? s.target : [s.target];
    const itemId = String(s.id);
    const item: Item = {
      suite,
      id: itemId,
      category,
      payload: { input: textOfInput(s.input), ...(s.choices ? { choices: s.choices } : {}), target },
      answer: target.join(' | '),
      meta: {
        originalLabel: (meta.success ? meta.data.original_label : undefined) ?? rawCategory ?? '',
        source: 'inspect',
        task: log.eval.task,
      },
    };
    const hash = sha256(JSON.stringify(item));
    if (!items.has(hash)) items.set(hash, item);
    const key = { runId, subjectId, suite, itemId, replicate: s.epoch - 1 };
    const keyText = JSON.stringify(key);
    const p = plan.get(`${subjectId}\u0000${suite}`) ?? { subjectId, suite, planned: 0 };
    plan.set(`${subjectId}\u0000${suite}`, p);
    // Already there: a done trial, or a failed one that this sample would record failed again.
    const status = done.has(trialKeyString(key)) ? 'done' : s.error ? await store.trialStatus(key) : undefined;
    if (seen.has(keyText) || status === 'done' || (status === 'failed' && s.error)) {
      result.duplicates++;
      continue;
    }
    seen.add(keyText);
    p.planned++;
    // A log mindscope wrote gives the trial's calls, those answered from the cache, its attempts and its batch's wait.
    const logged = mindscope.success ? SampleCallsSchema.safeParse(s.metadata ?? {}) : undefined;
    const counts = logged?.success ? logged.data : {};
    if (s.error) {
      // A log mindscope wrote carries the trial's own error; another log's is marked as Inspect's.
      const error = mindscope.success ? s.error.message : `Inspect sample error: ${s.error.message}`;
      const finishedAt = finishedAtOf(s);
      writes.push(() => store.recordFailed(key, hash, error, counts.attempts ?? 1, finishedAt));
      result.failed++;
      continue;
    }
    if (!scorer)
      throw new InputError(`${f.where(i)}.scores: none (and the log has no results.scores), so there is nothing to import`, file);
    const score = s.scores?.[scorer];
    if (!score)
      throw new InputError(
        `${f.where(i)}.scores: no score "${scorer}" (it has: ${Object.keys(s.scores ?? {}).join(', ') || 'none'})`,
        file,
      );
    const value = correctness(score.value);
    if (!value)
      throw new InputError(
        `${f.where(i)}.scores.${scorer}.value: ${JSON.stringify(score.value)} is not a correctness value (C, I, P, N, true/false or a number in [0, 1])`,
        file,
      );
    const usage = usageOf(s);
    const finishedAt = finishedAtOf(s);
    const messages = s.messages?.length ? s.messages : typeof s.input === 'string' ? [] : s.input;
    const detail: InspectDetail = {
      file: basename(file),
      sampleId: s.id,
      epoch: s.epoch,
      task: log.eval.task,
      scorer,
      messages: inspectToMessages(messages),
      // Which messages the model wrote (a prompt may hold assistant messages of its own).
      ...(messages.some((m) => m.source !== undefined)
        ? { generated: messages.flatMap((m, k) => (m.source === 'generate' ? [k] : [])) }
        : {}),
      ...replyOf(s),
      answer: score.answer ?? null,
      target,
      ...(s.choices ? { choices: s.choices } : {}),
      ...(score.explanation ? { explanation: score.explanation } : {}),
      usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens },
      ...(usage.reasoningTokens !== undefined ? { reasoningTokens: usage.reasoningTokens } : {}),
      ...(s.total_time != null ? { totalTime: s.total_time } : {}),
    };
    // A trial of a log mindscope wrote that was not read for an answer has none to fail (null).
    const unread = mindscope.success && !value.parseFailed && UnreadSchema.safeParse(score.metadata).success;
    const scoreDetail = {
      inspectValue: typeof score.value === 'object' ? JSON.stringify(score.value) : score.value,
      ...(unread ? {} : { parseFailed: value.parseFailed }),
    };
    validateRecord(INSPECT_RECORDS, detail, scoreDetail, where);
    const calls = counts.calls ?? (messages.filter((m) => m.role === 'assistant').length || 1);
    const cachedCalls = counts.cached_calls ?? 0;
    writes.push(() =>
      store.recordDone(
        key,
        hash,
        {
          transcript: { protocol: INSPECT_RECORDS.protocol, calls: [], detail },
          score: { scorer: INSPECT_RECORDS.scorer, value: value.value, detail: scoreDetail },
          usage: { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens },
          costUsd: usage.costUsd ?? 0,
          // A sample without a logged cost has an unknown cost, not $0.
          unpricedCalls: usage.costUsd === null ? Math.max(1, calls - cachedCalls) : 0,
          latencyMs: (s.total_time ?? 0) * 1000,
          batchLatencyMs: counts.batch_latency_ms ?? 0,
          cachedCalls,
          totalCalls: calls,
          truncatedCalls: counts.truncated_calls ?? 0,
          ...(finishedAt !== undefined ? { finishedAt } : {}),
        },
        counts.attempts ?? 1,
      ),
    );
    result.trials++;
  }
  await flush();
  if (!result.subjects.includes(spec)) result.subjects.push(spec);
  if (!result.suites.includes(suite)) result.suites.push(suite);
}

/** Import Inspect eval logs (files or directories) into a store as one run; see the file comment. */
export async function importInspectLogs(opts: InspectImportOptions): Promise<InspectImportResult> {
  const { store } = opts;
  const files = opts.paths.flatMap(inspectLogFiles);
  if (files.length === 0) throw new ConfigError('name at least one Inspect log file or directory');
  // The identity first (the files' hashes), then one log at a time: a log's samples are held only while it is imported.
  const identity = {
    source: 'inspect',
    files: files.map((file) => ({ name: basename(file), sha256: createHash('sha256').update(readBytes(file)).digest('hex') })),
  };
  const runId = opts.runId ?? `inspect-${contentHash(identity).slice(0, 12)}`;
  const existing = await store.getRun(runId);
  if (existing && contentHash(existing.config) !== contentHash(identity))
    throw new ConfigError(`run ${runId} exists in ${store.location} with other content; import under another --run-id`);
  const result: InspectImportResult = { runId, files: files.length, subjects: [], suites: [], trials: 0, failed: 0, duplicates: 0 };
  const plan = new Map<string, Planned>();
  const seen = new Set<string>();
  let created = existing !== undefined;
  const done = existing ? await store.doneTrials(runId) : new Set<string>();
  for (const file of files) {
    const f = readInspectLog(file);
    if (!created) await store.createRun({ id: runId, createdAt: f.log.eval.created, config: identity });
    created = true;
    await importLog(store, runId, f, opts, plan, seen, done, result);
  }
  const prior = new Map((await store.status(runId)).map((r) => [`${r.subjectId}\u0000${r.suite}`, r.planned]));
  await store.setPlan(
    runId,
    [...plan.entries()].map(([k, p]) => ({ ...p, planned: Math.max(p.planned, prior.get(k) ?? 0) })),
  );
  await store.flush();
  return result;
}
