// bench/export-trials: time and peak memory of `export trials` (JSONL, Parquet), `export
// inspect` and `import inspect` on a store of 100,000 trials written by a real run of reference
// agents (generated-tom, 2,000 items x 5 agents x 10 replicates).
//
//   npm run build && node bench/export-trials.mjs [--items 2000] [--replicates 10] [--db FILE]
//
// Each step runs in a child process of its own, so its peak RSS is its own. The store is built
// once (about 2-5 minutes on 2 cores) and kept when --db names a file.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordPerformance } from './performance-table.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const bin = join(here, '..', 'bin', 'mindscope.js');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const items = arg('items', '2000');
const replicates = arg('replicates', '10');
const work = mkdtempSync(join(tmpdir(), 'mindscope-bench-export-'));
const db = arg('db', join(work, 'runs.db'));
const agents = ['agent:oracle', 'agent:random', 'agent:reality', 'agent:first-option', 'agent:first-order'];

// The CLI under /usr/bin/time -v would need GNU time; Node reports its own peak RSS instead.
const PEAK = join(here, 'peak-rss.cjs');
const rows = [];
function step(name, args) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', PEAK, bin, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
  const peak = /peak-rss-mb=(\d+)/.exec(r.stderr)?.[1];
  if (!name.startsWith('run '))
    rows.push({
      figure: `${name}, ${Number(items) * Number(replicates) * agents.length} trials: time and peak RSS`,
      value: `${seconds.toFixed(1)} s, ${peak} MB`,
    });
  console.log(
    `${name.padEnd(22)} ${seconds.toFixed(1).padStart(7)} s   peak RSS ${String(peak).padStart(5)} MB   ${r.stdout.trim().split('\n').at(-1)}`,
  );
}

if (!existsSync(db)) {
  step('run (build the store)', [
    'run',
    'generated-tom',
    '--limit',
    items,
    '--trials',
    replicates,
    '--model',
    ...agents,
    '--db',
    db,
    '--run-id',
    'big',
    '--quiet',
  ]);
}
step('export trials .jsonl', ['export', 'trials', '--db', db, '--run-id', 'big', '--out', join(work, 'big.jsonl')]);
step('export trials .parquet', ['export', 'trials', '--db', db, '--run-id', 'big', '--out', join(work, 'big.parquet')]);
step('export inspect', ['export', 'inspect', '--db', db, '--run-id', 'big', '--out', join(work, 'logs')]);
step('import inspect', ['import', 'inspect', join(work, 'logs'), '--db', join(work, 'back.db'), '--run-id', 'big-back']);
const mb = (p) => (statSync(p).size / 2 ** 20).toFixed(1);
const logs = readdirSync(join(work, 'logs')).map((f) => join(work, 'logs', f));
console.log(
  `sizes: store ${mb(db)} MB, jsonl ${mb(join(work, 'big.jsonl'))} MB, parquet ${mb(join(work, 'big.parquet'))} MB, inspect logs ${logs.length} x ~${mb(logs[0])} MB`,
);
rows.push({
  figure: `output sizes, ${Number(items) * Number(replicates) * agents.length} trials: store, JSONL, Parquet`,
  value: `${mb(db)} MB, ${mb(join(work, 'big.jsonl'))} MB, ${mb(join(work, 'big.parquet'))} MB`,
});
recordPerformance('export-trials', rows);
if (!process.argv.includes('--db')) rmSync(work, { recursive: true, force: true });
