// bench/soak: 50,000 trials against a local server that injects 429s (with and without
// Retry-After), 500s, malformed and hung replies and reset connections, while the runner is
// killed with SIGKILL three times at random moments and the server once; the same command is
// started again until the run completes. It reports trials lost (must be 0), trials duplicated
// (0), calls answered beyond the planned count, the runner's peak RSS, and whether the final
// response matrix is identical to a clean run's. Not part of npm test.
//
//   npm run build && node bench/soak.mjs [--items 10000] [--trials 5] [--kills 3] [--seed 7]
//                                        [--concurrency 64] [--timeout 2] [--smoke]
//
// --smoke: 200 trials, one runner kill, a 1 s time limit: a check that the bench runs (its
// invariants still hold: nothing lost, nothing stored twice); it records nothing.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { recordPerformance } from './performance-table.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const bin = join(here, '..', 'bin', 'mindscope.js');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const smoke = process.argv.includes('--smoke');
const ITEMS = arg('items', smoke ? 200 : 10_000);
const TRIALS = arg('trials', smoke ? 1 : 5);
const KILLS = arg('kills', smoke ? 1 : 3);
const SEED = arg('seed', 7);
const CONCURRENCY = arg('concurrency', 64);
const TIMEOUT = arg('timeout', smoke ? 1 : 2);
const planned = ITEMS * TRIALS;
const dir = mkdtempSync(join(tmpdir(), 'mindscope-soak-'));

// A seeded generator for the kill times (mulberry32).
let s = SEED >>> 0;
const rand = () => {
  s = (s + 0x6d2b79f5) >>> 0;
  let t = s;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function startServer(port, chaos) {
  const child = spawn(process.execPath, [join(here, 'soak-server.mjs')], {
    env: { ...process.env, PORT: String(port), SOAK_CHAOS: chaos ? '1' : '0', SOAK_SEED: String(SEED) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`soak server exited with ${code}`)));
  });
  return { child, port: JSON.parse(line).port };
}
const stats = async (port) => (await fetch(`http://127.0.0.1:${port}/stats`)).json();

function runArgs(port, db) {
  return [
    bin,
    'run',
    'generated-tom',
    '--model',
    `openai-compatible:http://127.0.0.1:${port}/v1#soak`,
    '--limit',
    String(ITEMS),
    '--trials',
    String(TRIALS),
    '--shuffle',
    '--seed',
    String(SEED),
    '--concurrency',
    String(CONCURRENCY),
    '--timeout',
    String(TIMEOUT),
    '--db',
    db,
    '--json',
  ];
}

/** Start the runner; resolves with its exit code (or the signal) and its peak RSS (VmHWM, polled). */
function startRunner(port, db) {
  const child = spawn(process.execPath, runArgs(port, db), { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  let peak = 0;
  const poll = setInterval(() => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
      if (m) peak = Math.max(peak, Number(m[1]) / 1024);
    } catch {}
  }, 200);
  const done = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      clearInterval(poll);
      resolve({ code, signal, out, err, peakMiB: peak });
    }),
  );
  return { child, done };
}

function matrixCsv(db, name) {
  const out = join(dir, `${name}.csv`);
  const r = spawnSync(process.execPath, [bin, 'export', 'matrix', '--db', db, '--out', out], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`export failed: ${r.stderr}`);
  return readFileSync(out, 'utf8');
}

function counts(db) {
  const sql = `SELECT COUNT(*) AS n, COUNT(DISTINCT subject_id || '|' || suite || '|' || item_id || '|' || replicate) AS distinct_n,
    SUM(status = 'done') AS done, SUM(status = 'failed') AS failed FROM trials`;
  const r = spawnSync(
    process.execPath,
    [
      '-e',
      `const D=require('better-sqlite3');const d=new D(${JSON.stringify(db)},{readonly:true});console.log(JSON.stringify(d.prepare(${JSON.stringify(sql)}).get()))`,
    ],
    {
      encoding: 'utf8',
      cwd: join(here, '..'),
    },
  );
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout);
}

// 1. A clean run (no faults) for the reference matrix and the duration.
let server = await startServer(0, false);
const port = server.port;
const cleanDb = join(dir, 'clean.db');
let t0 = performance.now();
const clean = await startRunner(port, cleanDb).done;
const cleanSeconds = (performance.now() - t0) / 1000;
if (clean.code !== 0) throw new Error(`clean run failed (${clean.code}): ${clean.err.slice(-2000)}`);
server.child.kill('SIGTERM');
await sleep(300);
console.log(`bench/soak: ${planned} trials (${ITEMS} items x ${TRIALS} replicates), concurrency ${CONCURRENCY}, time limit ${TIMEOUT} s`);
console.log(`clean run: ${cleanSeconds.toFixed(1)} s, peak RSS ${clean.peakMiB.toFixed(0)} MiB`);

// 2. The chaos run: kills at random moments of the first ~80% of a clean run's duration.
server = await startServer(port, true);
const chaosDb = join(dir, 'chaos.db');
const killAt = Array.from({ length: KILLS }, () => 0.15 + rand() * 0.65).sort();
const serverKillAt = 0.2 + rand() * 0.5;
let answered = 0;
let distinctAnswered = 0;
const byFault = {};
const addStats = (st) => {
  answered += st.answered;
  distinctAnswered += st.distinctAnswered;
  for (const [k, v] of Object.entries(st.byFault)) byFault[k] = (byFault[k] ?? 0) + v;
};
let starts = 0;
let peakMiB = 0;
let runnerKills = 0;
let serverKilled = false;
t0 = performance.now();
for (;;) {
  starts++;
  if (starts > 40) throw new Error('the run did not complete after 40 starts');
  const runner = startRunner(port, chaosDb);
  const started = performance.now();
  const timers = [];
  if (runnerKills < KILLS) {
    const at = killAt[runnerKills] * cleanSeconds * 1000;
    timers.push(
      setTimeout(() => {
        runnerKills++;
        runner.child.kill('SIGKILL');
      }, at),
    );
  }
  if (!serverKilled) {
    timers.push(
      setTimeout(
        async () => {
          serverKilled = true;
          addStats(await stats(port));
          server.child.kill('SIGKILL');
          await sleep(1000);
          server = await startServer(port, true);
        },
        serverKillAt * cleanSeconds * 1000,
      ),
    );
  }
  const r = await runner.done;
  timers.forEach(clearTimeout);
  peakMiB = Math.max(peakMiB, r.peakMiB);
  const what = r.signal ? `killed (${r.signal})` : `exit ${r.code}`;
  console.log(`  start ${starts}: ${what} after ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (r.code === 0) break;
  // A subject stopped while the server was down: wait until it answers again.
  for (let i = 0; i < 50; i++) {
    try {
      await stats(port);
      break;
    } catch {
      await sleep(200);
    }
  }
}
const chaosSeconds = (performance.now() - t0) / 1000;
addStats(await stats(port));
server.child.kill('SIGTERM');

const c = counts(chaosDb);
const identical = matrixCsv(cleanDb, 'clean') === matrixCsv(chaosDb, 'chaos');
console.log(
  `chaos run: ${chaosSeconds.toFixed(1)} s over ${starts} starts (${runnerKills} runner kills, server killed ${serverKilled ? 'once' : 'never'})`,
);
console.log(
  `  faults injected: ${Object.entries(byFault)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}`,
);
console.log(`  trials lost: ${planned - c.done} (planned ${planned}, done ${c.done}, failed ${c.failed})`);
console.log(`  trials duplicated: ${c.n - c.distinct_n} stored twice; requests answered more than once: ${answered - distinctAnswered}`);
console.log(`  calls answered beyond the planned count: ${answered - planned} (${answered} answered)`);
console.log(`  peak RSS of the runner: ${peakMiB.toFixed(0)} MiB (clean run ${clean.peakMiB.toFixed(0)} MiB)`);
console.log(`  final matrix identical to the clean run's: ${identical ? 'yes' : 'NO'}`);
recordPerformance('soak', [
  {
    figure: `${planned.toLocaleString('en')} trials through injected faults, ${runnerKills} SIGKILLs of the runner${serverKilled ? ' and one of the server' : ''}: trials lost; limit 0`,
    value: String(planned - c.done),
    peer: '0',
  },
  { figure: 'trials stored twice; limit 0', value: String(c.n - c.distinct_n), peer: '0' },
  { figure: 'calls answered beyond the planned count', value: String(answered - planned) },
  { figure: "final response matrix identical to a clean run's", value: identical ? 'yes' : 'no', peer: 'yes' },
  {
    figure: `wall time through the faults (${starts} starts); peer: the clean run`,
    value: `${chaosSeconds.toFixed(1)} s`,
    peer: `${cleanSeconds.toFixed(1)} s`,
    ratio: chaosSeconds / cleanSeconds,
  },
  {
    figure: "the runner's peak RSS through the faults; peer: the clean run",
    value: `${peakMiB.toFixed(0)} MiB`,
    peer: `${clean.peakMiB.toFixed(0)} MiB`,
    ratio: peakMiB / clean.peakMiB,
  },
]);
if (planned !== c.done || c.n !== c.distinct_n || !identical) process.exitCode = 1;
