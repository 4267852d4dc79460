// bench/store-size: bytes of SQLite store per MCQ trial, by table, for runs of several shapes
// (items x subjects x replicates) against the local OpenAI-compatible server.
//
//   npm run build && node bench/store-size.mjs [--dist dist] [--items 500] [--subjects 2] [--replicates 3]
//
// --dist points at another build (e.g. an older checkout's dist/) to compare stores before and after.

import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { recordPerformance } from './performance-table.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const dist = resolve(arg('dist', join(here, '..', 'dist')));
const items = Number(arg('items', 500));
const subjects = Number(arg('subjects', 2));
const replicates = Number(arg('replicates', 3));

const server = spawn(process.execPath, [join(here, '..', 'tests', 'servers', 'model-server.mjs')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const port = await new Promise((r) => createInterface({ input: server.stdout }).once('line', (l) => r(JSON.parse(l).port)));
const dir = mkdtempSync(join(tmpdir(), 'mindscope-size-'));
try {
  const { evaluate, openStore } = await import(pathToFileURL(join(dist, 'index.js')).href);
  const file = join(dir, 'store.db');
  const store = await openStore(file);
  const models = Array.from({ length: subjects }, (_, i) => `openai-compatible:http://127.0.0.1:${port}/v1#ok-${i}`);
  const r = await evaluate(
    { suites: ['generated-tom'], limit: items, seed: 1, trials: replicates, models },
    { store, concurrency: 64, timeoutMs: 60_000 },
  );
  await store.close();
  const db = new Database(file, { readonly: true });
  const tables = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all();
  db.close();
  const perTrial = (b) => (b / r.done).toFixed(0);
  console.log(
    `${items} items x ${subjects} subjects x ${replicates} replicates = ${r.done} MCQ trials (${dist}): ${perTrial(statSync(file).size)} B/trial in all`,
  );
  for (const t of tables) if (t.bytes / r.done >= 5) console.log(`  ${t.name.padEnd(32)} ${perTrial(t.bytes).padStart(6)} B/trial`);
  const bytes = statSync(file).size / r.done;
  const shape = `${items} items x ${subjects} subjects x ${replicates} replicates`;
  const other = process.argv.includes('--dist') ? ` (${dist})` : '';
  recordPerformance('store-size', [
    {
      figure: `SQLite bytes per MCQ trial${other}, ${shape}; limit 1 KB`,
      value: `${bytes.toFixed(0)} B`,
      peer: '1,024 B',
      ratio: bytes / 1024,
    },
    {
      figure: `SQLite bytes per MCQ trial by table${other}, ${shape} (tables of 5 B a trial or more)`,
      value: tables
        .filter((t) => t.bytes / r.done >= 5)
        .map((t) => `${t.name} ${perTrial(t.bytes)}`)
        .join(', '),
    },
  ]);
} finally {
  server.kill();
  rmSync(dir, { recursive: true, force: true });
}
