// A batch run killed with SIGKILL while its batches are in flight, started again (the same
// command, a new process): it polls the batches stored in the ledger instead of submitting them
// again, and finishes with every trial done exactly once. The model server counts the batches
// created and every call id submitted twice. On SQLite, and on PostgreSQL where a server answers.
// Killed while the provider was still answering a batch's creation (its id never stored), the
// rerun finds that batch at the provider, by label or (Anthropic) by its calls: none submitted twice.
// The killed runs have processes of their own; the reruns run in this process.

import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore } from '../src/index.js';
import { createTestDatabase, dropTestDatabases, pgAvailable, pgQuery, pgSkipNote } from './helpers/postgres.js';
import { runCli } from './helpers/run-cli.js';
import { providerEnv, startModelServer, type ModelServer } from './helpers/servers.js';

// Each test runs the CLI in two or three processes that wait on 4-second batches and 1-second
// leases: on a machine busy with the rest of the suite a test takes far longer than alone.
vi.setConfig({ testTimeout: 180_000 });

const BIN = join(__dirname, '..', 'bin', 'mindscope.js');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-batch-resume-'));
const MODELS = ['openai:gpt-4.1-mini', 'anthropic:claude-sonnet-4-5', 'google:gemini-2.5-flash'];
let server: ModelServer;

beforeAll(async () => {
  // Batches stay in progress for 4 s: long enough to kill the run while they are in flight.
  server = await startModelServer({ BATCH_DELAY_MS: '4000' });
});
afterAll(async () => {
  await server.stop();
  await dropTestDatabases();
});

const batchStats = async (): Promise<{ created: Record<string, number>; submitted: number; duplicates: number }> =>
  (await fetch(`${server.url}/batch-stats`)).json();

function start(args: string[]) {
  const env = providerEnv(server.url);
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  let stdout = '';
  child.stderr!.on('data', (d) => (stderr += d));
  child.stdout!.on('data', (d) => (stdout += d));
  const done = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, done, stderr: () => stderr, stdout: () => stdout };
}

/** The same command again, in this process: the rerun needs no process of its own. */
const rerun = (args: string[]) => runCli(args, { cwd: dir, env: providerEnv(server.url) });

async function until(cond: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function killAndResume(db: string, seed: number) {
  // Each test its own items (seed): the server counts a call id submitted by any earlier test as a duplicate.
  const args = [
    'run',
    'generated-tom',
    '--model',
    ...MODELS,
    '--limit',
    '5',
    '--seed',
    String(seed),
    '--db',
    db,
    '--batch',
    '--batch-poll',
    '0.2',
  ];
  const before = await batchStats();
  const first = start(args);
  // All three batches submitted (their ids are in the store), none ended: kill the process.
  await until(() => (first.stderr().match(/: submitted/g) ?? []).length === 3, 60_000);
  first.child.kill('SIGKILL');
  expect((await first.done).signal).toBe('SIGKILL');
  expect(first.stderr()).not.toMatch(/: ended/);
  const store = await openStore(db);
  const runId = (await store.listRuns())[0]!.id;
  const inFlight = await store.runBatches(runId);
  expect(inFlight.map((b) => b.state)).toEqual(['submitted', 'submitted', 'submitted']);
  expect(await store.trialCount(runId)).toBe(0);
  await store.close();

  const second = await rerun(args);
  expect(second.code, second.stderr).toBe(0);
  // Polled, not resubmitted: still three batches, no call id twice.
  const after = await batchStats();
  expect(after.created.openai! + after.created.anthropic! + after.created.google!).toBe(
    before.created.openai! + before.created.anthropic! + before.created.google! + 3,
  );
  expect(after.submitted - before.submitted).toBe(15);
  expect(after.duplicates - before.duplicates).toBe(0);
  expect(second.stderr).not.toMatch(/: submitted/);
  expect(second.stderr).toMatch(/msgbatch_\d+ \(anthropic:claude-sonnet-4-5, round 1\): ended 5\/5 calls/);
  expect(second.stdout).toMatch(/15 done, 0 failed/);
  const check = await openStore(db);
  try {
    expect(await check.trialCount(runId)).toBe(15);
    expect((await check.doneTrials(runId)).size).toBe(15);
    expect((await check.runBatches(runId)).map((b) => b.state)).toEqual(['fetched', 'fetched', 'fetched']);
    const usage = await check.usage(runId);
    expect(usage.map((u) => [u.trials, u.totalCalls, u.cachedCalls])).toEqual([
      [5, 5, 0],
      [5, 5, 0],
      [5, 5, 0],
    ]);
  } finally {
    await check.close();
  }
  return runId;
}

describe.skipIf(!pgAvailable)(`a batch run on the queue (run --enqueue --batch)${pgSkipNote}`, () => {
  it('is taken up by a second worker when the first is killed mid-flight: batches polled, not resubmitted', async () => {
    const url = await createTestDatabase();
    const queued = start([
      'run',
      'generated-tom',
      '--model',
      ...MODELS,
      '--limit',
      '4',
      '--seed',
      '3',
      '--db',
      url,
      '--enqueue',
      '--batch',
      '--lease',
      '1',
    ]);
    expect((await queued.done).code, queued.stderr()).toBe(0);
    expect(queued.stdout()).toMatch(/12 trial\(s\) queued as a batch run/);
    const before = await batchStats();
    const created = async () => Object.values((await batchStats()).created).reduce((a, b) => a + b, 0);
    const createdBefore = Object.values(before.created).reduce((a, b) => a + b, 0);
    const worker = ['worker', '--db', url, '--batch-poll', '0.2', '--lease', '1', '--until-idle'];
    const first = start(worker);
    for (let t = 0; (await created()) < createdBefore + 3; t++) {
      if (t > 600) throw new Error(`the first worker submitted no batches: ${first.stderr()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // The provider has all three; kill once their ids are stored too (a kill before that is the case tested below).
    const watch = await openStore(url);
    for (let t = 0; ; t++) {
      const runs = await watch.listRuns();
      const states = runs.length ? (await watch.runBatches(runs[0]!.id)).map((b) => b.state) : [];
      if (states.length === 3 && states.every((s) => s === 'submitted')) break;
      if (t > 600) throw new Error(`the first worker stored no batch ids: ${first.stderr()}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    await watch.close();
    first.child.kill('SIGKILL');
    await first.done;
    const store = await openStore(url);
    const runId = (await store.listRuns())[0]!.id;
    expect((await store.runBatches(runId)).map((b) => b.state)).toEqual(['submitted', 'submitted', 'submitted']);
    expect(await store.trialCount(runId)).toBe(0);
    await store.close();

    const second = await rerun(worker);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toMatch(/batch run .*: trials recorded/);
    const after = await batchStats();
    expect(await created()).toBe(createdBefore + 3);
    expect(after.duplicates - before.duplicates).toBe(0);
    expect(after.submitted - before.submitted).toBe(12);
    const check = await openStore(url);
    try {
      expect(await check.trialCount(runId)).toBe(12);
      expect((await check.doneTrials(runId)).size).toBe(12);
      expect((await check.usage(runId)).map((u) => u.cachedCalls)).toEqual([0, 0, 0]);
    } finally {
      await check.close();
    }
  });
});

describe('a batch run killed with SIGKILL while its batches are in flight', () => {
  it('resumes polling on SQLite and does every trial exactly once', async () => {
    await killAndResume(join(dir, 'resume.db'), 1);
  });

  it.skipIf(!pgAvailable)(`resumes polling on PostgreSQL and does every trial exactly once${pgSkipNote}`, async () => {
    const url = await createTestDatabase();
    const runId = await killAndResume(url, 2);
    const rows = await pgQuery<{ n: string }>(url, "SELECT COUNT(*) AS n FROM batch_requests WHERE run_id = $1 AND status = 'done'", [
      runId,
    ]);
    expect(Number(rows[0]!.n)).toBe(15);
  });
});

describe('a batch run killed after the provider created its batch but before it answered with the id', () => {
  let slow: ModelServer;
  beforeAll(async () => {
    slow = await startModelServer({ BATCH_DELAY_MS: '200', BATCH_CREATE_DELAY_MS: '3000' });
  });
  afterAll(() => slow.stop());

  // OpenAI finds its lost batch by metadata, Gemini by display name, Anthropic (no label) by its calls: results' custom_ids.
  it.each([
    ['google:gemini-2.5-flash', 'google', 5, 'label'],
    ['openai:gpt-4.1-mini', 'openai', 6, 'label'],
    ['anthropic:claude-sonnet-4-5', 'anthropic', 7, 'calls'],
  ] as const)('finds the batch of %s (%s, seed %i) at the provider by its %s and polls it', async (first, api, seed, by) => {
    const prev = server;
    server = slow;
    try {
      const stats = batchStats;
      const db = join(dir, `lost-${api}.db`);
      const other = MODELS.find((m) => m !== first && !m.startsWith('anthropic'))!;
      const args = [
        'run',
        'generated-tom',
        '--model',
        first,
        other,
        '--limit',
        '3',
        '--seed',
        String(seed),
        '--db',
        db,
        '--batch',
        '--batch-poll',
        '0.1',
        // 1 s leases: the batch is taken as stale after 10 s, long enough for the rerun to start
        // and say it waits however loaded the machine is.
        '--lease',
        '1',
      ];
      const before = await stats();
      const run = start(args);
      for (let t = 0; (await stats()).created[api]! < before.created[api]! + 1; t++) {
        if (t > 600) throw new Error(`no batch created: ${run.stderr()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      run.child.kill('SIGKILL');
      await run.done;
      const store = await openStore(db);
      const runId = (await store.listRuns())[0]!.id;
      expect((await store.runBatches(runId)).map((b) => [b.spec, b.state, b.remoteId])).toEqual([[first, 'submitting', null]]);
      await store.close();
      // Started at once, the rerun says it waits for the batch (it may be another process's);
      // past the stale time (10 leases: 10 s) it looks the batch up instead of submitting it again.
      const again = await rerun(args);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stderr).toMatch(
        /is being created by another process, or was by one that died: waiting for it until \S+, then it is looked up at the provider/,
      );
      expect(again.stderr).toMatch(new RegExp(`found at the provider as \\S+ by its ${by}; polling it`));
      const after = await stats();
      expect(after.created[api]! - before.created[api]!).toBe(1);
      expect(after.duplicates - before.duplicates).toBe(0);
      expect(after.submitted - before.submitted).toBe(6);
      const check = await openStore(db);
      try {
        expect((await check.doneTrials(runId)).size).toBe(6);
        const batches = await check.runBatches(runId);
        expect(batches.map((b) => b.state)).toEqual(['fetched', 'fetched']);
        expect(batches.every((b) => b.remoteId)).toBe(true);
      } finally {
        await check.close();
      }
    } finally {
      server = prev;
    }
  });
});
