// In-process inference on the real 260K-parameter GGUF model: greedy generation, log-likelihood
// scoring of continuations, and both MCQ scoring modes end to end.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { collect } from '../src/store/index.js';
import { createModel, openStore, runAccuracy } from '../src/index.js';
import { evaluate } from './helpers/evaluate.js';
import { llamaInstalled } from './helpers/llama.js';

// tests/fixtures/models/README.md: what the model is, its licences and SHA-256.
const GGUF = join(__dirname, 'fixtures', 'models', 'stories260k-f32.gguf');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-llama-'));

describe.skipIf(!llamaInstalled)('llamacpp provider', () => {
  const model = createModel(`llamacpp:${GGUF}`);

  it('a file that is not a GGUF model fails naming it, as an error that stops the subject (not each trial)', async () => {
    const notGguf = join(dir, 'notes.gguf');
    writeFileSync(notGguf, '# not a model\n');
    const bad = createModel(`llamacpp:${notGguf}`);
    const err = await bad
      .chat({ messages: [{ role: 'user', content: 'hi' }], settings: { temperature: 0, maxTokens: 4 }, timeoutMs: 60_000 })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'not_found', fatal: true });
    expect((err as Error).message).toMatch(/^llamacpp:.*notes\.gguf: cannot load the model: Invalid GGUF magic/);
  });

  it('generates greedily and deterministically', async () => {
    const req = {
      messages: [{ role: 'user' as const, content: 'Once upon a time' }],
      settings: { temperature: 0, maxTokens: 24 },
      timeoutMs: 60_000,
    };
    const a = await model.chat(req);
    const b = await model.chat(req);
    expect(a.text.length).toBeGreaterThan(10);
    expect(a.text).toBe(b.text);
    expect(a.usage.outputTokens).toBe(24);
    expect(a.usage.inputTokens).toBeGreaterThan(5);
  }, 120_000);

  it('scores a fluent continuation far above its shuffled words', async () => {
    const { logprobs, tokenCounts } = await model.loglik!('Once upon a time', [
      ', there was a little girl named Lily.',
      ' Lily named girl little a was there,.',
    ]);
    expect(tokenCounts[0]).toBeGreaterThan(3);
    expect(logprobs[0]).toBeLessThan(0);
    expect(logprobs[0]).toBeGreaterThan(logprobs[1]! + 20);
  }, 120_000);

  it('truncates prompts longer than the 512-token context instead of failing', async () => {
    const long = 'Tom had a red ball. '.repeat(200);
    const r = await model.chat({
      messages: [{ role: 'user', content: long }],
      settings: { temperature: 0, maxTokens: 8 },
      timeoutMs: 60_000,
    });
    expect(r.finishReason).toMatch(/prompt truncated/);
  }, 120_000);
});

describe.skipIf(!llamaInstalled)('llamacpp through the runner', () => {
  it('runs MCQ items with generation (parse failures counted) and with log-likelihood scoring', async () => {
    const store = await openStore(join(dir, 'llama.db'));
    const gen = await evaluate({
      store,
      suites: ['generated-tom'],
      limit: 6,
      seed: 2,
      models: [`llamacpp:${GGUF}`],
      maxTokens: 16,
      runId: 'gen',
    });
    expect(gen.done).toBe(6);
    const acc = (await runAccuracy(store, 'gen')).cells.find((c) => c.group === 'all')!;
    expect(acc.trials).toBe(6);
    // A story model rarely names an option: failures are counted, not crashes.
    expect(acc.parseFailures).toBeGreaterThan(0);
    const ll = await evaluate({
      store,
      suites: ['generated-tom'],
      limit: 6,
      seed: 2,
      models: [`llamacpp:${GGUF}`],
      scoring: 'loglik',
      runId: 'll',
    });
    expect(ll.done).toBe(6);
    const rows = await collect(store.responses('ll'));
    expect(rows.every((r) => !r.parseFailed)).toBe(true);
    const t = (await store.transcript({
      runId: 'll',
      subjectId: rows[0]!.subjectId,
      suite: 'generated-tom',
      itemId: rows[0]!.itemId,
      replicate: 0,
    }))!;
    const detail = t.score.detail as { acc: number; acc_norm: number };
    expect([0, 1]).toContain(detail.acc);
    expect([0, 1]).toContain(detail.acc_norm);
    // Agents cannot do log-likelihoods: a clear error, not a fake score.
    const agent = await evaluate({
      store,
      suites: ['generated-tom'],
      limit: 2,
      seed: 2,
      models: ['agent:oracle'],
      scoring: 'loglik',
      runId: 'agent-ll',
    });
    expect(agent.failed).toBe(2);
    expect((await store.failures('agent-ll'))[0]!.error).toMatch(/cannot score log-likelihoods/);
    await store.close();
  }, 180_000);
});

describe.skipIf(!llamaInstalled)('llamacpp in an embodied episode', () => {
  it('plays every agent of a task through the local model: the protocol runs end to end', async () => {
    const { generateTasks } = await import('../src/studies/enacttom/index.js');
    const { summarizeEpisodes } = await import('../src/studies/enacttom/index.js');
    const g = generateTasks({
      n: 1,
      seed: 4,
      depth: 1,
      agents: 2,
      pick: () => ({ knowledge: 'chain', parts: [], capabilities: 'full' }),
    })[0]!;
    const file = join(dir, 'episode-task.json');
    writeFileSync(file, JSON.stringify([{ ...g.json, turn_limit: 2 }]));
    const store = await openStore(join(dir, 'llama-episode.db'));
    const r = await evaluate({ store, suites: ['enacttom'], data: file, models: [`llamacpp:${GGUF}`], maxTokens: 24, runId: 'episode' });
    expect(r.done).toBe(1);
    const ep = (await summarizeEpisodes(store, 'episode', 1)).episodes[0]!;
    // A story model does not solve the task; every turn and the probe still ran and were recorded.
    expect(ep.detail.turns).toHaveLength(4);
    expect(ep.detail.probes).toHaveLength(1);
    expect(ep.functional).toBe(false);
    expect(ep.detail.turns.every((t) => t.reply.length > 0)).toBe(true);
    await store.close();
  }, 180_000);
});

describe.skipIf(!llamaInstalled)('llamacpp in StoryTurn conversations', () => {
  it('runs the generated StoryTurns through the local model and every metric is computed', async () => {
    const { storedStories, storyTurnMetrics } = await import('../src/studies/storyturn/index.js');
    const store = await openStore(join(dir, 'llama-storyturn.db'));
    const r = await evaluate({
      store,
      suites: ['generated-storyturn'],
      limit: 6,
      models: [`llamacpp:${GGUF}`],
      maxTokens: 16,
      runId: 'st',
    });
    expect(r.done).toBe(6);
    const m = storyTurnMetrics(await storedStories(store, 'st'))[0]!;
    expect(m.stories.n).toBe(6);
    expect(m.questions.n).toBeGreaterThan(6);
    expect(m.byState.length).toBeGreaterThan(2);
    await store.close();
  }, 180_000);
});
