// A run exported as Inspect logs and imported back gives back, trial by trial, what the logs
// carry: the messages each call sent, the reply and its reasoning (every call's, StoryTurn's
// turns included) with its tokens, a failed trial's error (not marked again as an Inspect error
// each time round), its attempts, calls (cached, truncated) and batch wait (the sample's
// metadata), and when it finished. The store is written by real runs of reference agents and of
// models served over HTTP (two that return reasoning, one that always fails); the second run is
// answered from the call cache (and imported into PostgreSQL where a server answers), the
// third's trials are recorded as batch-answered. A log holds every score of a trial, whatever its
// scorer is named, and logs exported again from an import have the same generation config and
// each sample's input and conversation. A conversation kept whole gives back the message lists
// of the calls it came from. Subjects x suites whose names are alike in a file name get logs of
// their own.

import fc from 'fast-check';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InspectChatMessage } from '../src/app/inspect-log-schema.js';
import { callsToInspect, conversationPrompts, inspectText, inspectToMessages } from '../src/app/inspect-messages.js';
import type { ChatMessage, Transcript } from '../src/core/index.js';
import { exportInspectLogs, exportTrials, importInspectLogs, openStore, type Store } from '../src/index.js';
import type { RunTrial } from '../src/store/index.js';
import { evaluate } from './helpers/evaluate.js';
import { createTestSchema, dropTestDatabases, pgAvailable } from './helpers/postgres.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-inspect-trip-'));
let server: ModelServer;
let store: Store;
let reasoner: string;
const saved = { ...process.env };

type Row = Record<string, unknown>;
/** Each trial's row, before the round trip and after it, by subject, suite, item and replicate. */
let pairs: Array<[Row, Row]> = [];

function readJsonl(path: string): Row[] {
  return readFileSync(path, 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Row);
}

/** The rows of a run, then of the run its Inspect logs import as, paired by trial. */
async function roundTrip(runId: string, into = join(dir, `${runId}-back.db`)): Promise<Array<[Row, Row]>> {
  await exportTrials(store, runId, join(dir, `${runId}.jsonl`));
  await exportInspectLogs(store, runId, join(dir, `${runId}-logs`));
  const back = await openStore(into);
  try {
    const r = await importInspectLogs({ store: back, paths: [join(dir, `${runId}-logs`)] });
    await exportTrials(back, r.runId, join(dir, `${runId}-back.jsonl`));
  } finally {
    await back.close();
  }
  const key = (x: Row) => JSON.stringify([x.subject, x.suite, x.item_id, x.replicate]);
  const after = new Map(readJsonl(join(dir, `${runId}-back.jsonl`)).map((x) => [key(x), x]));
  const before = readJsonl(join(dir, `${runId}.jsonl`));
  expect(after.size).toBe(before.length);
  return before.map((x) => [x, after.get(key(x))!]);
}

beforeAll(async () => {
  server = await startModelServer();
  process.env.OPENAI_BASE_URL = `${server.url}/v1`;
  process.env.OPENAI_API_KEY = 'sk-test-openai-0000';
  reasoner = `openai-compatible:${server.url}/v1#deepseek-r1`;
  store = await openStore(join(dir, 'runs.db'));
  const models = ['agent:oracle', reasoner, 'openai:o3', `openai-compatible:${server.url}/v1#always-500`];
  const retry = { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 10 };
  await evaluate({ store, suites: ['generated-tom', 'generated-storyturn'], limit: 3, seed: 3, trials: 2, models, runId: 'mix', retry });
  // The same trials again, answered from the cache.
  await evaluate({ store, suites: ['generated-tom', 'generated-storyturn'], limit: 3, seed: 3, trials: 2, models, runId: 'again', retry });
  // The done trials of the first run once more, as if their calls had been answered through a batch.
  await store.createRun({ id: 'batched', createdAt: '2026-01-01T00:00:00.000Z', config: { batched: true } });
  const plan = new Map<string, { subjectId: string; suite: string; planned: number }>();
  let i = 0;
  for await (const t of store.runTrials('mix')) {
    if (t.status !== 'done') continue;
    const score = t.scores[0]!;
    await store.recordDone(
      { runId: 'batched', subjectId: t.subjectId, suite: t.suite, itemId: t.itemId, replicate: t.replicate },
      t.itemHash,
      {
        transcript: t.transcript as Transcript,
        score: { scorer: score.scorer, value: score.value, detail: JSON.parse(score.detail) },
        usage: { inputTokens: t.inputTokens, outputTokens: t.outputTokens },
        costUsd: t.costUsd,
        latencyMs: 0,
        batchLatencyMs: 61_234.567 + i++,
        cachedCalls: i % 2,
        totalCalls: t.totalCalls + 1,
        truncatedCalls: (i + 1) % 2,
      },
      1,
    );
    const p = plan.get(`${t.subjectId} ${t.suite}`) ?? { subjectId: t.subjectId, suite: t.suite, planned: 0 };
    p.planned++;
    plan.set(`${t.subjectId} ${t.suite}`, p);
  }
  await store.setPlan('batched', [...plan.values()]);
  // Imported into SQLite, and into PostgreSQL where a server answers.
  const again = pgAvailable ? await createTestSchema() : undefined;
  pairs = [...(await roundTrip('mix')), ...(await roundTrip('again', again)), ...(await roundTrip('batched'))];
}, 120_000);

afterAll(async () => {
  process.env = saved;
  await store?.close();
  await server?.stop();
  await dropTestDatabases();
});

describe('export inspect, then import inspect', () => {
  it('keeps each trial’s reasoning, every call’s, and its reasoning tokens', () => {
    const reasoned = pairs.filter(([a]) => a.reasoning !== null);
    expect(reasoned.length).toBeGreaterThan(0);
    expect(pairs.some(([a]) => (a.reasoning_tokens as number) > 0)).toBe(true);
    for (const [a, b] of pairs) expect([a.subject, a.item_id, b.reasoning_tokens]).toEqual([a.subject, a.item_id, a.reasoning_tokens]);
    // StoryTurn's trials make several calls, each with its reasoning.
    expect(reasoned.some(([a]) => a.suite === 'generated-storyturn')).toBe(true);
    for (const [a, b] of pairs) expect([a.subject, a.item_id, b.reasoning]).toEqual([a.subject, a.item_id, a.reasoning]);
  });

  it('keeps a failed trial’s error as it was, and every trial’s attempts', () => {
    const failed = pairs.filter(([a]) => a.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    for (const [a, b] of failed) expect([b.status, b.error]).toEqual(['failed', a.error]);
    // The failing model is tried twice.
    expect(failed.every(([a]) => a.attempts === 2)).toBe(true);
    for (const [a, b] of pairs) expect([a.subject, a.item_id, b.attempts]).toEqual([a.subject, a.item_id, a.attempts]);
  });

  it('keeps when each trial finished, done or failed', () => {
    for (const [a, b] of pairs)
      expect([a.subject, a.item_id, a.status, b.finished_at]).toEqual([a.subject, a.item_id, a.status, a.finished_at]);
  });

  it('keeps the messages each call sent', () => {
    // StoryTurn's calls each send the conversation whole; a conversational protocol's continue it.
    expect(pairs.some(([a]) => (a.messages as unknown[]).length > 1)).toBe(true);
    expect(pairs.some(([a]) => a.status === 'failed')).toBe(true);
    for (const [a, b] of pairs) expect([a.subject, a.item_id, b.messages]).toEqual([a.subject, a.item_id, a.messages]);
  });

  it('keeps the reply, the score, whether it was read and the usage: calls, cached and truncated calls and the batch’s wait', () => {
    // StoryTurn's trials are not read for one answer: parse_failed is null.
    expect(pairs.some(([a]) => a.status === 'done' && a.parse_failed === null)).toBe(true);
    expect(pairs.some(([a]) => (a.cached_calls as number) > 0)).toBe(true);
    expect(pairs.some(([a]) => (a.batch_latency_ms as number) > 0)).toBe(true);
    expect(pairs.some(([a]) => (a.truncated_calls as number) > 0)).toBe(true);
    for (const [a, b] of pairs) {
      if (a.status !== 'done') continue;
      for (const k of [
        'reply',
        'score',
        'parse_failed',
        'input_tokens',
        'output_tokens',
        'cost_usd',
        'latency_ms',
        'calls',
        'cached_calls',
        'truncated_calls',
        'batch_latency_ms',
      ])
        expect([a.subject, a.item_id, k, b[k]]).toEqual([a.subject, a.item_id, k, a[k]]);
    }
  });
});

describe('export inspect, import inspect, export inspect', () => {
  it('writes each sample’s input and conversation again', async () => {
    type Sample = { id: string; epoch: number; input: unknown; messages: InspectChatMessage[] };
    const samples = (logs: string) =>
      new Map(
        readdirSync(logs).flatMap((f) => {
          const log = JSON.parse(readFileSync(join(logs, f), 'utf8'));
          return (log.samples as Sample[]).map((s) => [JSON.stringify([log.eval.model, log.eval.task, s.id, s.epoch]), s] as const);
        }),
      );
    const back = await openStore(join(dir, 'mix-back.db'));
    try {
      await exportInspectLogs(back, (await back.listRuns())[0]!.id, join(dir, 'mix-again-logs'));
    } finally {
      await back.close();
    }
    const before = samples(join(dir, 'mix-logs'));
    const after = samples(join(dir, 'mix-again-logs'));
    expect(after.size).toBe(before.size);
    // Reasoning parts are left out: the trial's reasoning is the output's, not each message's.
    const conversation = (s: Sample) => s.messages.map((m) => [m.role, inspectText(m.content), m.source, m.model]);
    for (const [k, s] of before) {
      const t = after.get(k)!;
      expect([k, t.input]).toEqual([k, s.input]);
      expect([k, conversation(t)]).toEqual([k, conversation(s)]);
    }
  });

  it('writes each log’s generation config again as it was', async () => {
    const configs = (logs: string) =>
      new Map(
        readdirSync(logs).map((f) => {
          const log = JSON.parse(readFileSync(join(logs, f), 'utf8'));
          return [`${log.eval.model} ${log.eval.task}`, log.eval.model_generate_config];
        }),
      );
    const back = await openStore(join(dir, 'config-back.db'));
    try {
      const r = await importInspectLogs({ store: back, paths: [join(dir, 'mix-logs')] });
      await exportInspectLogs(back, r.runId, join(dir, 'config-logs'));
    } finally {
      await back.close();
    }
    const before = configs(join(dir, 'mix-logs'));
    expect([...before.values()].some((c) => c.max_tokens !== undefined)).toBe(true);
    expect(configs(join(dir, 'config-logs'))).toEqual(before);
  });
});

describe('export inspect', () => {
  it('writes each subject x suite to a log of its own, where their names are alike in a file name', async () => {
    const suites = ['tom test', 'tom-test', 'tom/test', `${'s'.repeat(80)}1`, `${'s'.repeat(80)}2`];
    await store.createRun({ id: 'alike', createdAt: '2026-01-01T00:00:00.000Z', config: { alike: true } });
    let t: RunTrial | undefined;
    for await (const x of store.runTrials('mix')) if (x.status === 'done') t ??= x;
    for (const suite of suites)
      await store.recordDone(
        { ...t!, runId: 'alike', suite },
        t!.itemHash,
        {
          transcript: t!.transcript as Transcript,
          score: { scorer: t!.scores[0]!.scorer, value: 1, detail: JSON.parse(t!.scores[0]!.detail) },
          usage: { inputTokens: 1, outputTokens: 1 },
          costUsd: 0,
          latencyMs: 1,
          cachedCalls: 0,
          totalCalls: 1,
        },
        1,
      );
    const { files } = await exportInspectLogs(store, 'alike', join(dir, 'alike-logs'));
    expect(new Set(files.map((f) => f.path)).size).toBe(suites.length);
    expect(readdirSync(join(dir, 'alike-logs'))).toHaveLength(suites.length);
    const logged = files.map((f) => JSON.parse(readFileSync(f.path, 'utf8')).eval.metadata.mindscope.suite);
    expect(logged.sort()).toEqual([...suites].sort());
  });

  it('writes every score of a trial, whatever its scorer’s name (__proto__, constructor, a number)', async () => {
    await evaluate({ store, suites: ['generated-tom'], limit: 2, models: ['agent:oracle'], runId: 'named' });
    const names = ['__proto__', 'constructor', '10'];
    for await (const t of store.runTrials('named'))
      for (const [i, scorer] of names.entries()) await store.recordScore({ ...t, runId: 'named' }, { scorer, value: i / 4, detail: {} });
    const { files } = await exportInspectLogs(store, 'named', join(dir, 'named-logs'));
    const samples = files.flatMap((f) => JSON.parse(readFileSync(f.path, 'utf8')).samples as Array<{ scores: Row }>);
    expect(samples).toHaveLength(2);
    for (const s of samples) {
      expect(Object.keys(s.scores).sort()).toEqual([...names, 'mcq-exact'].sort());
      for (const [i, scorer] of names.entries())
        expect(Object.getOwnPropertyDescriptor(s.scores, scorer)?.value).toMatchObject({ value: i / 4 });
    }
  });
});

describe('a conversation kept whole', () => {
  it('gives back the message lists of calls that continue it or start it over', () => {
    let n = 0;
    const text = () => `message ${n++}`;
    const message = (role: 'system' | 'user' | 'assistant') => ({ role, content: text() });
    // Each call continues the conversation so far (its replies in it) or starts it over.
    const calls = fc.array(
      fc.tuple(fc.boolean(), fc.array(fc.constantFrom('user' as const, 'assistant' as const), { minLength: 1, maxLength: 3 })),
      {
        minLength: 1,
        maxLength: 5,
      },
    );
    fc.assert(
      fc.property(calls, (shape) => {
        const system = message('system');
        const lists: ChatMessage[][] = [];
        let sent: ChatMessage[] = [];
        const records = shape.map(([continues, roles]) => {
          const prompt = [...(continues && lists.length ? sent : [system]), ...roles.map(message)];
          const reply = text();
          lists.push(prompt);
          sent = [...prompt, { role: 'assistant', content: reply }];
          return { kind: 'chat', messages: prompt, response: { text: reply } };
        });
        const { messages } = callsToInspect(records as never, 'm');
        const generated = messages.flatMap((m, i) => (m.source === 'generate' ? [i] : []));
        expect(conversationPrompts(inspectToMessages(messages), generated)).toEqual(lists);
      }),
      { numRuns: 200, seed: 2026 },
    );
  });
});
