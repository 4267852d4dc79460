// bench/store-size: bytes of a SQLite store per MCQ trial, in all and by table, beside the same
// run exported as gzipped JSON Lines (`export trials` through gzip: the limit is 8x) and as
// Inspect logs zipped, for two shapes of run against the local OpenAI-compatible server:
// items x subjects x replicates (500 x 2 x 3), and one trial per item (3,000 x 1 x 1).
//
//   npm run build && node bench/store-size.mjs [--dist dist] [--items 500] [--subjects 2] [--replicates 3] [--single 3000] [--smoke]
//
// --dist points at another build (e.g. an older checkout's dist/) to compare stores before and
// after. --smoke: tiny runs, a few seconds, nothing written to docs/performance.md.

import Database from 'better-sqlite3';
import { zipSync } from 'fflate';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { recordPerformance } from './performance-table.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const smoke = process.argv.includes('--smoke');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const dist = resolve(arg('dist', join(here, '..', 'dist')));
const LIMIT = 8;
const shapes = [
  {
    items: Number(arg('items', smoke ? 20 : 500)),
    subjects: Number(arg('subjects', 2)),
    replicates: Number(arg('replicates', smoke ? 2 : 3)),
  },
  { items: Number(arg('single', smoke ? 40 : 3000)), subjects: 1, replicates: 1 },
];

const server = spawn(process.execPath, [join(here, '..', 'tests', 'servers', 'model-server.mjs')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const port = await new Promise((r) => createInterface({ input: server.stdout }).once('line', (l) => r(JSON.parse(l).port)));
const lib = await import(pathToFileURL(join(dist, 'index.js')).href);
const rows = [];
const other = process.argv.includes('--dist') ? ` (${dist})` : '';

/** One run of a shape: the store's bytes by table, and the same run exported (gzipped JSONL, zipped Inspect logs). */
async function measure({ items, subjects, replicates }) {
  const dir = mkdtempSync(join(tmpdir(), 'mindscope-size-'));
  try {
    const file = join(dir, 'store.db');
    const store = await lib.openStore(file);
    const models = Array.from({ length: subjects }, (_, i) => `openai-compatible:http://127.0.0.1:${port}/v1#ok-${i}`);
    const r = await lib.evaluate(
      { suites: ['generated-tom'], limit: items, seed: 1, trials: replicates, models },
      { store, concurrency: 64, timeoutMs: 60_000 },
    );
    await store.close();
    const storeBytes = statSync(file).size;
    const db = new Database(file, { readonly: true });
    const tables = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all();
    db.close();
    // The same run exported, from the same store.
    const reader = await lib.openStore(file);
    const jsonl = join(dir, 'trials.jsonl');
    await lib.exportTrials(reader, r.runId, jsonl);
    const logs = join(dir, 'logs');
    await lib.exportInspectLogs(reader, r.runId, logs);
    await reader.close();
    const gz = gzipSync(readFileSync(jsonl)).length;
    const zipped = zipSync(Object.fromEntries(readdirSync(logs).map((f) => [f, readFileSync(join(logs, f))])), { level: 6 }).length;
    return { n: r.done, storeBytes, gz, zipped, tables };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  for (const s of shapes) {
    const shape = `${s.items} items x ${s.subjects} subjects x ${s.replicates} replicates`;
    const m = await measure(s);
    const per = (b) => b / m.n;
    const ratio = m.storeBytes / m.gz;
    console.log(
      `${shape} = ${m.n} MCQ trials${other}: store ${per(m.storeBytes).toFixed(0)} B/trial, gzipped JSONL ${per(m.gz).toFixed(1)} B/trial (store ${ratio.toFixed(2)}x; limit ${LIMIT}x), zipped Inspect logs ${per(m.zipped).toFixed(1)} B/trial`,
    );
    const big = m.tables.filter((t) => per(t.bytes) >= 5);
    for (const t of big) console.log(`  ${t.name.padEnd(32)} ${per(t.bytes).toFixed(0).padStart(6)} B/trial`);
    rows.push(
      {
        figure: `SQLite bytes per MCQ trial${other}, ${shape}, beside the same run as gzipped JSONL (export trials | gzip); limit ${LIMIT}x`,
        value: `${per(m.storeBytes).toFixed(0)} B`,
        peer: `${per(m.gz).toFixed(1)} B`,
        ratio,
      },
      {
        figure: `The same run as zipped Inspect logs (export inspect), ${shape}`,
        value: `${per(m.storeBytes).toFixed(0)} B`,
        peer: `${per(m.zipped).toFixed(1)} B`,
        ratio: m.storeBytes / m.zipped,
      },
      {
        figure: `SQLite bytes per MCQ trial by table${other}, ${shape} (tables of 5 B a trial or more)`,
        value: big.map((t) => `${t.name} ${per(t.bytes).toFixed(0)}`).join(', '),
      },
    );
  }
  if (!smoke) recordPerformance('store-size', rows);
} finally {
  server.kill();
}
