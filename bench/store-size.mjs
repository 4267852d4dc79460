// bench/store-size: bytes of a store per MCQ trial, in all and by table, beside the same run
// exported as gzipped JSON Lines (`export trials` through gzip: the limit is 8x) and as Inspect
// logs zipped, for two shapes of run against the local OpenAI-compatible server: items x
// subjects x replicates (500 x 2 x 3), and one trial per item (3,000 x 1 x 1). Each shape runs
// on SQLite (the file's bytes; by table from dbstat) and on PostgreSQL (every table of the
// store's schema after a plain VACUUM: heap, TOAST, indexes and their free-space and visibility
// maps, pg_total_relation_size), each backend's run exported from its own store. Beside
// PostgreSQL's store, its floor (postgresFloor): what no layout of its schema that finds a cached
// reply by its key could go below.
//
//   npm run build && node bench/store-size.mjs [--dist dist] [--items 500] [--subjects 2] [--replicates 3] [--single 3000]
//     [--postgres URL | --no-postgres] [--smoke]
//
// --dist points at another build (e.g. an older checkout's dist/) to compare stores before and
// after. --postgres: the server (default MINDSCOPE_BENCH_PG, else
// postgres://postgres@127.0.0.1:5432/postgres), where the bench creates a database of its own
// for each run and drops it; one that does not answer skips the PostgreSQL arm and says so.
// --smoke: tiny runs, a few seconds, nothing written to docs/performance.md.

import Database from 'better-sqlite3';
import { zipSync } from 'fflate';
import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import pg from 'pg';
import { recordPerformance } from './performance-table.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const smoke = process.argv.includes('--smoke');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const dist = resolve(arg('dist', join(here, '..', 'dist')));
const LIMIT = 8;
const PG_ADMIN = arg('postgres', process.env.MINDSCOPE_BENCH_PG || 'postgres://postgres@127.0.0.1:5432/postgres');
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

/** SQL on the PostgreSQL server (or a database on it). */
async function pgRun(url, sql) {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

/** Why the PostgreSQL arm cannot run (no server answers), or undefined when it can. */
async function pgUnavailable() {
  if (process.argv.includes('--no-postgres')) return '--no-postgres';
  try {
    await pgRun(PG_ADMIN, 'SELECT 1');
    return undefined;
  } catch (err) {
    return `no PostgreSQL server answers at ${PG_ADMIN} (${err.message || err}); pass --postgres URL`;
  }
}

/** A SQLite store for one run: its location, and its bytes in all and by table once closed. */
function sqliteArm(dir) {
  const file = join(dir, 'store.db');
  return {
    location: file,
    async size() {
      const db = new Database(file, { readonly: true });
      const tables = db.prepare('SELECT name, SUM(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC').all();
      db.close();
      return { storeBytes: statSync(file).size, tables };
    },
    async drop() {},
  };
}

/**
 * A PostgreSQL store for one run, in a database of its own: its bytes once vacuumed (as
 * autovacuum leaves a store), every table whole (heap, TOAST, its indexes, free-space and
 * visibility maps), by table with its indexes.
 */
function postgresArm() {
  const name = `mindscope_size_${randomBytes(5).toString('hex')}`;
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    location: url.toString(),
    async create() {
      await pgRun(PG_ADMIN, `CREATE DATABASE ${name}`);
    },
    async size() {
      await pgRun(url.toString(), 'VACUUM');
      const tables = (
        await pgRun(
          url.toString(),
          `SELECT c.relname AS name, pg_total_relation_size(c.oid)::bigint AS bytes, c.reltuples AS rows FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace
           WHERE c.relkind IN ('r', 'm') AND n.nspname = current_schema() ORDER BY bytes DESC, name`,
        )
      ).map((t) => ({ name: t.name, bytes: Number(t.bytes), rows: Number(t.rows) }));
      return { storeBytes: tables.reduce((a, t) => a + t.bytes, 0), tables };
    },
    async drop() {
      await pgRun(PG_ADMIN, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/**
 * The least any PostgreSQL layout of this schema could take for a run, given its gzipped JSONL:
 * the schema's own pages (an empty store, migrated and vacuumed), one row and index entry for
 * each cached call (a bare table of 16-byte keys, its primary key: the cache finds a reply by
 * its request's key), and the run's content compressed as well as gzip compresses it. Nothing
 * for trial rows, their keys, leases or scores: a floor, not an estimate.
 */
async function postgresFloor(calls, gz) {
  const arm = postgresArm();
  try {
    await arm.create();
    await (await lib.openStore(arm.location)).close();
    const schema = await arm.size();
    await pgRun(
      arm.location,
      `CREATE TABLE floor_call_keys (key BYTEA PRIMARY KEY);
       INSERT INTO floor_call_keys SELECT substr(sha256(int8send(i)), 1, 16) FROM generate_series(1, ${Number(calls)}) i`,
    );
    await pgRun(arm.location, 'VACUUM');
    const [{ bytes }] = await pgRun(arm.location, `SELECT pg_total_relation_size('floor_call_keys')::bigint AS bytes`);
    return {
      schema: schema.storeBytes,
      tables: schema.tables.length,
      callKeys: Number(bytes),
      total: schema.storeBytes + Number(bytes) + gz,
    };
  } finally {
    await arm.drop();
  }
}

/** One run of a shape on a backend: the store's bytes by table, and the same run exported (gzipped JSONL, zipped Inspect logs). */
async function measure({ items, subjects, replicates }, backend) {
  const dir = mkdtempSync(join(tmpdir(), 'mindscope-size-'));
  const arm = backend === 'postgres' ? postgresArm() : sqliteArm(dir);
  try {
    await arm.create?.();
    const store = await lib.openStore(arm.location);
    const models = Array.from({ length: subjects }, (_, i) => `openai-compatible:http://127.0.0.1:${port}/v1#ok-${i}`);
    const r = await lib.evaluate(
      { suites: ['generated-tom'], limit: items, seed: 1, trials: replicates, models },
      { store, concurrency: 64, timeoutMs: 60_000 },
    );
    await store.close();
    const { storeBytes, tables } = await arm.size();
    // The same run exported, from the same store.
    const reader = await lib.openStore(arm.location);
    const jsonl = join(dir, 'trials.jsonl');
    await lib.exportTrials(reader, r.runId, jsonl);
    const logs = join(dir, 'logs');
    await lib.exportInspectLogs(reader, r.runId, logs);
    await reader.close();
    const gz = gzipSync(readFileSync(jsonl)).length;
    const zipped = zipSync(Object.fromEntries(readdirSync(logs).map((f) => [f, readFileSync(join(logs, f))])), { level: 6 }).length;
    return { n: r.done, storeBytes, gz, zipped, tables };
  } finally {
    await arm.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const BACKENDS = { sqlite: 'SQLite', postgres: 'PostgreSQL' };
const noPostgres = await pgUnavailable();
if (noPostgres) console.log(`PostgreSQL arm skipped: ${noPostgres}`);

try {
  for (const s of shapes) {
    const shape = `${s.items} items x ${s.subjects} subjects x ${s.replicates} replicates`;
    for (const backend of noPostgres ? ['sqlite'] : ['sqlite', 'postgres']) {
      const label = BACKENDS[backend];
      const m = await measure(s, backend);
      const per = (b) => b / m.n;
      const ratio = m.storeBytes / m.gz;
      console.log(
        `${label}, ${shape} = ${m.n} MCQ trials${other}: store ${per(m.storeBytes).toFixed(0)} B/trial, gzipped JSONL ${per(m.gz).toFixed(1)} B/trial (store ${ratio.toFixed(2)}x; limit ${LIMIT}x), zipped Inspect logs ${per(m.zipped).toFixed(1)} B/trial`,
      );
      const big = m.tables.filter((t) => per(t.bytes) >= 5);
      for (const t of big) console.log(`  ${t.name.padEnd(32)} ${per(t.bytes).toFixed(0).padStart(6)} B/trial`);
      const small = m.tables.filter((t) => per(t.bytes) < 5);
      const rest = small.reduce((a, t) => a + t.bytes, 0);
      if (small.length) console.log(`  ${`(${small.length} more tables)`.padEnd(32)} ${per(rest).toFixed(0).padStart(6)} B/trial`);
      // PostgreSQL gives every table pages of its own (heap, free-space and visibility maps, each index): the same at any number of trials.
      // (trial_leases aside: its indexes keep the pages of the leases a run took and gave back, for its next leases.)
      const few = m.tables.filter((t) => t.rows !== undefined && t.rows < 10 && t.name !== 'trial_leases');
      const fixed = few.reduce((a, t) => a + t.bytes, 0);
      if (few.length)
        console.log(
          `  of which ${few.length} tables of fewer than 10 rows (their size the same at any number of trials): ${per(fixed).toFixed(0)} B/trial (${(fixed / m.gz).toFixed(2)}x the gzipped JSONL)`,
        );
      // PostgreSQL: how far below the store any layout of its schema could go (postgresFloor).
      const calls = m.tables.find((t) => t.name === 'call_cache')?.rows ?? m.n;
      const floor = backend === 'postgres' ? await postgresFloor(calls, m.gz) : undefined;
      if (floor)
        console.log(
          `  floor: the schema's pages ${per(floor.schema).toFixed(0)} + a key per cached call ${per(floor.callKeys).toFixed(0)} + gzip's content ${per(m.gz).toFixed(1)} = ${per(floor.total).toFixed(0)} B/trial (${(floor.total / m.gz).toFixed(2)}x; limit ${LIMIT}x)`,
        );
      rows.push(
        {
          figure: `${label} bytes per MCQ trial${other}, ${shape}, beside the same run as gzipped JSONL (export trials | gzip); limit ${LIMIT}x`,
          value: `${per(m.storeBytes).toFixed(0)} B`,
          peer: `${per(m.gz).toFixed(1)} B`,
          ratio,
        },
        {
          figure: `${backend === 'sqlite' ? 'The same run' : `${label}: the same run`} as zipped Inspect logs (export inspect), ${shape}`,
          value: `${per(m.storeBytes).toFixed(0)} B`,
          peer: `${per(m.zipped).toFixed(1)} B`,
          ratio: m.storeBytes / m.zipped,
        },
        ...(few.length
          ? [
              {
                figure: `${label}: of those bytes, the pages of its ${few.length} tables of fewer than 10 rows (the same at any number of trials)${other}, ${shape}, beside the same gzipped JSONL`,
                value: `${per(fixed).toFixed(0)} B`,
                peer: `${per(m.gz).toFixed(1)} B`,
                ratio: fixed / m.gz,
              },
            ]
          : []),
        ...(floor
          ? [
              {
                figure: `PostgreSQL's floor${other}, ${shape}: the schema's own pages (${floor.tables} tables, empty) ${per(floor.schema).toFixed(0)} B + a 16-byte key and its index for each of ${calls} cached calls ${per(floor.callKeys).toFixed(0)} B + the content at gzip's rate ${per(m.gz).toFixed(1)} B, beside the same gzipped JSONL; limit ${LIMIT}x`,
                value: `${per(floor.total).toFixed(0)} B`,
                peer: `${per(m.gz).toFixed(1)} B`,
                ratio: floor.total / m.gz,
              },
            ]
          : []),
        {
          figure: `${label} bytes per MCQ trial by table${other}, ${shape} (tables of 5 B a trial or more${backend === 'postgres' ? ', each with its indexes and TOAST' : ''})`,
          value: big.map((t) => `${t.name} ${per(t.bytes).toFixed(0)}`).join(', '),
        },
      );
    }
  }
  if (!smoke) recordPerformance('store-size', rows);
} finally {
  server.kill();
}
