// Several processes on one run: two `mindscope run` processes on one SQLite file share the
// work (no call made twice, counted at the model server; nothing failed or downgraded); three
// `mindscope worker` processes on a real PostgreSQL server, one killed with SIGKILL mid-run,
// still record every planned trial exactly once, and the response matrix is the one a single
// process on SQLite gets; and a 429 seen by one process slows the others down through the store.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModel, openStore } from '../src/index.js';
import { CallerFactory } from '../src/runner/index.js';
import { createTestDatabase, dropTestDatabases, pgAvailable, pgQuery, pgSkipNote } from './helpers/postgres.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';
import { runCli } from './helpers/run-cli.js';

const BIN = fileURLToPath(new URL('../bin/mindscope.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'mindscope-multi-'));
let server: ModelServer;

beforeAll(async () => {
  server = await startModelServer();
});
afterAll(async () => {
  await server.stop();
  await dropTestDatabases();
});

const spec = (model: string) => `openai-compatible:${server.url}/v1#${model}`;

/** Start the CLI; resolves with its exit code and output. */
function start(args: string[]): {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>;
} {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

/** A command that needs no process of its own (status, report, export, a single run): in this process. */
const cli = (args: string[]) => runCli(args, { cwd: dir });

describe('two processes on one SQLite file', () => {
  it('share the trials: every call made once, every trial done, none failed', async () => {
    const db = join(dir, 'shared.db');
    const args = [
      'run',
      'generated-tom',
      '--model',
      spec('slow-40'),
      '--limit',
      '60',
      '--concurrency',
      '4',
      '--db',
      db,
      '--json',
      '--quiet',
    ];
    const before = (await server.stats()).byModel['slow-40'] ?? 0;
    const [a, b] = await Promise.all([start(args).done, start(args).done]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    const ra = JSON.parse(a.stdout);
    const rb = JSON.parse(b.stdout);
    // Both worked (each ran some of the trials) and between them ran each trial once.
    expect(ra.done + rb.done).toBe(60);
    expect(Math.min(ra.done, rb.done)).toBeGreaterThan(0);
    expect((await server.stats()).byModel['slow-40']! - before).toBe(60);
    const status = JSON.parse((await cli(['status', '--db', db, '--json'])).stdout);
    expect(status.totals).toEqual({ planned: 60, done: 60, failed: 0, pending: 0, truncated: 0 });
  });
});

describe.skipIf(!pgAvailable)(`three workers on PostgreSQL, one killed with SIGKILL${pgSkipNote}`, () => {
  it('record every planned trial exactly once, and the matrix equals a single SQLite run', async () => {
    const url = await createTestDatabase();
    const run = [
      'generated-tom',
      '--model',
      spec('slow-250'),
      spec('last-option'),
      '--limit',
      '30',
      '--trials',
      '2',
      '--shuffle',
      '--seed',
      '5',
    ];
    const planned = 30 * 2 * 2;
    const before = (await server.stats()).byModel;
    const enq = await cli(['run', ...run, '--db', url, '--enqueue', '--lease', '2', '--json']);
    expect(enq.code, enq.stderr).toBe(0);
    const { runId, queued } = JSON.parse(enq.stdout);
    expect(queued).toBe(planned);

    const worker = () => start(['worker', '--db', url, '--until-idle', '--lease', '2', '--concurrency', '4', '--json']);
    const workers = [worker(), worker(), worker()];
    // Kill one worker once the run is under way, with trials of its own in flight.
    const store = await openStore(url);
    try {
      for (let t = 0; ; t++) {
        const done = (await store.status(runId)).reduce((n, r) => n + r.done, 0);
        if (done >= 30) break;
        if (t > 300) throw new Error(`workers made no progress: ${done} done`);
        await new Promise((r) => setTimeout(r, 100));
      }
    } finally {
      await store.close();
    }
    workers[0]!.child.kill('SIGKILL');
    // Progress and results from anywhere while the workers run: status, the report, the matrix.
    const during = JSON.parse((await cli(['status', '--db', url, '--json'])).stdout);
    expect(during.totals.planned).toBe(planned);
    expect(during.totals.done).toBeGreaterThanOrEqual(30);
    const report = await cli(['report', '--db', url, '--run-id', runId, '--out', join(dir, 'report-during')]);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(join(dir, 'report-during', 'index.html'), 'utf8')).toContain(runId);
    expect((await cli(['export', 'matrix', '--db', url, '--out', join(dir, 'during.csv')])).code).toBe(0);
    const results = await Promise.all(workers.map((w) => w.done));
    expect(results[0]!.signal).toBe('SIGKILL');
    for (const r of results.slice(1)) expect(r.code, r.stderr).toBe(0);

    const status = JSON.parse((await cli(['status', '--db', url, '--json'])).stdout);
    expect(status.totals).toEqual({ planned, done: planned, failed: 0, pending: 0, truncated: 0 });
    const [counts] = await pgQuery<{ trials: number; distinct_keys: number; transcripts: number; leases: number }>(
      url,
      `SELECT (SELECT COUNT(*)::int FROM trials) AS trials,
         (SELECT COUNT(DISTINCT (run_id, subject_id, suite, item_id, replicate))::int FROM trials) AS distinct_keys,
         (SELECT COUNT(*)::int FROM transcripts) AS transcripts, (SELECT COUNT(*)::int FROM trial_leases) AS leases`,
    );
    expect(counts).toEqual({ trials: planned, distinct_keys: planned, transcripts: planned, leases: 0 });
    // Calls: each trial once, plus what the killed worker lost: calls in flight (its 4 slots) and
    // results not yet committed (at most one group commit, 100 ms, of 250 ms calls: 4 more).
    const after = (await server.stats()).byModel;
    const slowCalls = after['slow-250']! - (before['slow-250'] ?? 0);
    expect(slowCalls).toBeGreaterThanOrEqual(planned / 2);
    expect(slowCalls).toBeLessThanOrEqual(planned / 2 + 8);

    // The same specification in one process on SQLite: the same run id and the same matrix.
    const db = join(dir, 'single.db');
    const single = await cli(['run', ...run, '--db', db, '--json', '--quiet']);
    expect(single.code, single.stderr).toBe(0);
    expect(JSON.parse(single.stdout).runId).toBe(runId);
    for (const [store, out] of [
      [url, 'pg.csv'],
      [db, 'sqlite.csv'],
    ] as const) {
      const e = await cli(['export', 'matrix', '--db', store, '--run-id', runId, '--out', join(dir, out)]);
      expect(e.code, e.stderr).toBe(0);
    }
    const pgCsv = readFileSync(join(dir, 'pg.csv'), 'utf8');
    expect(pgCsv.split('\n').length).toBe(30 + 2);
    expect(pgCsv).toMatch(/0\.5/); // shuffled replicates disagree on some items: a matrix worth comparing
    expect(pgCsv).toBe(readFileSync(join(dir, 'sqlite.csv'), 'utf8'));
  }, 120_000);
});

describe('rate limits shared through the store', () => {
  it("a 429 in one process halves the other's limit and pauses it", async () => {
    const db = join(dir, 'limits.db');
    const one = await openStore(db);
    const two = await openStore(db);
    const model = createModel(spec('ok'));
    const a = new CallerFactory({ store: one, concurrency: 8, shareRateLimits: true });
    const b = new CallerFactory({ store: two, concurrency: 8, shareRateLimits: true });
    await a.start();
    await b.start();
    try {
      const la = a.limiterFor(model);
      const lb = b.limiterFor(model);
      la.onRateLimit(1500, 100);
      expect(la.limit).toBe(4);
      // Within a poll or two, the other process holds back as well: half its limit, paused.
      for (let t = 0; lb.limit === 8 && t < 40; t++) await new Promise((r) => setTimeout(r, 50));
      expect(lb.limit).toBe(4);
      expect(lb.snapshot().pausedForMs).toBeGreaterThan(500);
      // The reporter does not halve again on its own episode.
      await new Promise((r) => setTimeout(r, 1100));
      expect(la.limit).toBe(4);
      expect(lb.limit).toBe(4);
    } finally {
      await a.settle();
      await b.settle();
      await Promise.all([one.close(), two.close()]);
    }
  });
});
