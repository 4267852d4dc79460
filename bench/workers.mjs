// bench/workers: queue workers on PostgreSQL against a local OpenAI-compatible server that
// answers after 200 ms, each worker with 8 trials in flight: throughput with 1, 2 and 4 worker
// processes (the provider is the bottleneck, so it should scale: >= 1.8x with 2, >= 3.2x with
// 4); then the store's own overhead per trial, SQLite and PostgreSQL, measured against an
// in-memory stand-in store with a model that answers at once (in process, no HTTP).
//
//   npm run build && node bench/workers.mjs [--items 240] [--overhead-trials 3000] [--smoke]
//
// --smoke: 8 items, 1 and 2 workers, 60 trials of overhead, one round: it checks that the bench runs (seconds), and
// records nothing.
//
// PostgreSQL: MINDSCOPE_BENCH_PG (default postgres://postgres@127.0.0.1:5432/postgres); the
// bench creates databases named mindscope_bench_<random> and drops them.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { recordPerformance } from './performance-table.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const BIN = join(here, '..', 'bin', 'mindscope.js');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const smoke = process.argv.includes('--smoke');
const ITEMS = Number(arg('items', smoke ? 8 : 240));
const OVERHEAD_TRIALS = Number(arg('overhead-trials', smoke ? 60 : 3000));
const ADMIN = process.env.MINDSCOPE_BENCH_PG || 'postgres://postgres@127.0.0.1:5432/postgres';
const rows = [];

async function admin(sql) {
  const c = new pg.Client({ connectionString: ADMIN, connectionTimeoutMillis: 3000 });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

async function withDatabase(fn) {
  const name = `mindscope_bench_${randomBytes(5).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN);
  url.pathname = `/${name}`;
  try {
    return await fn(url.toString());
  } finally {
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

function cli(args) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (err += d));
    p.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`mindscope ${args[0]} exited ${code}: ${err}`))));
  });
}

/** Trials per second over the span of the run's finish times (process start-up left out), and over the wall clock. */
async function throughput(url, runId) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const rows = (await c.query('SELECT finished_at FROM trials WHERE run_id = $1 AND status = $2', [runId, 'done'])).rows;
    const times = rows.map((r) => Date.parse(r.finished_at)).sort((a, b) => a - b);
    return { trials: times.length, perSecond: ((times.length - 1) / (times.at(-1) - times[0])) * 1000 };
  } finally {
    await c.end();
  }
}

async function scaling(serverUrl) {
  console.log(
    `workers: ${ITEMS} items x N replicates (${ITEMS} trials per worker), model answering after 200 ms, --concurrency 8 per worker`,
  );
  const results = [];
  for (const n of smoke ? [1, 2] : [1, 2, 4]) {
    const r = await withDatabase(async (url) => {
      const model = `openai-compatible:${serverUrl}/v1#slow-200`;
      const enq = JSON.parse(
        await cli([
          'run',
          'generated-tom',
          '--model',
          model,
          '--limit',
          String(ITEMS),
          '--trials',
          String(n),
          '--db',
          url,
          '--enqueue',
          '--json',
        ]),
      );
      const t0 = performance.now();
      const summaries = await Promise.all(
        Array.from({ length: n }, () => cli(['worker', '--db', url, '--concurrency', '8', '--until-idle', '--json', '--quiet'])),
      );
      const wall = (performance.now() - t0) / 1000;
      const done = summaries.map((s) => JSON.parse(s).done);
      const t = await throughput(url, enq.runId);
      return { n, ...t, wall, done };
    });
    results.push(r);
    const ratio = r.perSecond / results[0].perSecond;
    console.log(
      `  ${n} worker(s): ${r.trials} trials, ${r.perSecond.toFixed(1)} trials/s (first to last result; ${(r.trials / r.wall).toFixed(1)}/s over ${r.wall.toFixed(1)} s wall, start-up included), x${ratio.toFixed(2)} of 1 worker; per worker ${r.done.join(', ')}`,
    );
  }
  const [one, two, four = Number.NaN] = results.map((r) => r.perSecond);
  for (const [n, target, rate] of [
    [2, 1.8, two],
    [4, 3.2, four],
  ])
    rows.push({
      figure: `${n} queue workers on PostgreSQL (model answering after 200 ms, 8 in flight each), throughput; peer: 1 worker, target ratio >= ${target}`,
      value: `${rate.toFixed(1)} trials/s`,
      peer: `${one.toFixed(1)} trials/s`,
      ratio: rate / one,
    });
  console.log(
    `scaling: 2 workers x${(two / one).toFixed(2)} (target >= 1.8), 4 workers x${(four / one).toFixed(2)} (target >= 3.2); the ceiling is 8 / 0.2 s = 40 trials/s per worker`,
  );
}

/** A store kept in memory, doing the least a store can: the floor the real stores are measured against. */
function memoryStore() {
  const runs = new Map();
  const cache = new Map();
  const trials = new Map();
  const key = (k) => JSON.stringify([k.runId, k.subjectId, k.suite, k.itemId, k.replicate]);
  return {
    location: ':memory-floor:',
    backend: 'sqlite',
    getRun: async (id) => runs.get(id),
    listRuns: async () => [...runs.values()],
    createRun: async (r) => void (runs.has(r.id) || runs.set(r.id, r)),
    setPlan: async () => {},
    upsertSubject: async () => {},
    runSubjects: async () => [],
    putItems: async () => {},
    getItem: async () => undefined,
    trialStatus: async (k) => trials.get(key(k)),
    trialCount: async () => trials.size,
    doneTrials: async () => new Set(),
    claimTrials: async (keys) => keys.map((k) => (trials.get(key(k)) === 'done' ? 'done' : 'claimed')),
    renewLeases: async () => 0,
    releaseLeases: async () => {},
    leaseOwners: async () => [],
    recordDone: async (k) => void trials.set(key(k), 'done'),
    recordFailed: async (k) => void trials.set(key(k), 'failed'),
    getCached: async (k) => cache.get(k),
    putCached: async (k, _p, _m, v) => void cache.set(k, v),
    reportRateLimit: async (endpoint) => ({ endpoint, generation: 1, pausedForMs: 0 }),
    rateLimits: async () => [],
    status: async () => [],
    usage: async () => [],
    failures: async () => [],
    responses: async function* () {},
    transcript: async () => undefined,
    recordScore: async () => {},
    scoreOf: async () => undefined,
    pinRubric: async () => {},
    pinnedRubrics: async () => [],
    exportRecords: async function* () {},
    importRecords: async () => ({ runs: 0, items: 0, trials: 0, duplicateTrials: 0, cacheEntries: 0 }),
    flush: async () => {},
    close: async () => {},
  };
}

/** One process, one in-process model that answers at once, 8 trials in flight: wall and CPU ms per trial with a given store. */
async function inProcess(store, tasks, m) {
  const { runEvaluation } = await import('../dist/runner/index.js');
  const subject = { model: m.createModel('agent:first-option'), settings: m.DEFAULT_SETTINGS };
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await runEvaluation({
    runId: 'overhead',
    config: {},
    tasks,
    subjects: [subject],
    replicates: 1,
    seed: 1,
    calls: { store, concurrency: 8 },
  });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (r.done !== OVERHEAD_TRIALS) throw new Error(`expected ${OVERHEAD_TRIALS} done, got ${r.done}`);
  return { wallMs: ms / r.done, cpuMs: (cpu.user + cpu.system) / 1000 / r.done };
}

async function overhead(pgUp) {
  const { createModel, loadTasks, parseRunSpec, openStore } = await import('../dist/index.js');
  const { DEFAULT_SETTINGS } = await import('../dist/core/index.js');
  const m = { createModel, DEFAULT_SETTINGS };
  const { tasks } = await loadTasks(
    parseRunSpec({ suites: ['generated-tom'], models: ['agent:first-option'], limit: OVERHEAD_TRIALS, seed: 2 }),
  );
  console.log(`\nstore overhead: ${OVERHEAD_TRIALS} trials in one process, agent:first-option (in process, answers at once), 8 in flight`);
  const rounds = smoke ? 1 : 3;
  const best = {};
  const dir = mkdtempSync(join(tmpdir(), 'mindscope-bench-workers-'));
  try {
    for (let round = 0; round < rounds; round++) {
      const kinds = ['memory', 'sqlite', ...(pgUp ? ['postgres'] : [])];
      for (const kind of kinds) {
        const measure = async (store) => {
          try {
            return await inProcess(store, tasks, m);
          } finally {
            await store.close();
          }
        };
        const r =
          kind === 'memory'
            ? await measure(memoryStore())
            : kind === 'sqlite'
              ? await measure(await openStore(join(dir, `o${round}.db`)))
              : await withDatabase(async (url) => measure(await openStore(url)));
        if (!best[kind] || r.wallMs < best[kind].wallMs) best[kind] = r;
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const floor = best.memory;
  console.log(`  in-memory floor: ${floor.wallMs.toFixed(3)} ms/trial wall, ${floor.cpuMs.toFixed(3)} ms/trial CPU (best of ${rounds})`);
  for (const kind of ['sqlite', 'postgres']) {
    const r = best[kind];
    if (!r) continue;
    rows.push({
      figure: `${kind === 'sqlite' ? 'SQLite' : 'PostgreSQL'} store, wall time per trial in one process (model in process, 8 in flight); peer: an in-memory store`,
      value: `${r.wallMs.toFixed(3)} ms (CPU ${r.cpuMs.toFixed(3)} ms)`,
      peer: `${floor.wallMs.toFixed(3)} ms (CPU ${floor.cpuMs.toFixed(3)} ms)`,
      ratio: r.wallMs / floor.wallMs,
    });
    console.log(
      `  ${kind.padEnd(8)}: ${r.wallMs.toFixed(3)} ms/trial wall, ${r.cpuMs.toFixed(3)} ms/trial CPU; the store's own overhead: ${(r.wallMs - floor.wallMs).toFixed(3)} ms/trial wall, ${(r.cpuMs - floor.cpuMs).toFixed(3)} ms/trial CPU in this process`,
    );
  }
}

async function main() {
  let pgUp = true;
  try {
    await admin('SELECT 1');
  } catch (err) {
    pgUp = false;
    console.log(`no PostgreSQL server at ${ADMIN} (${err.message}): the worker benchmark needs one; set MINDSCOPE_BENCH_PG`);
  }
  const server = spawn(process.execPath, [join(here, '..', 'tests', 'servers', 'model-server.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve) => createInterface({ input: server.stdout }).once('line', (l) => resolve(JSON.parse(l).port)));
  try {
    if (pgUp) await scaling(`http://127.0.0.1:${port}`);
    await overhead(pgUp);
  } finally {
    server.kill();
  }
}

await main();
recordPerformance('workers', rows);
