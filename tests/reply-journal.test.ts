// A reply the cache took survives the process that received it: it is journaled before the
// group commit (which waits up to 100 ms, longer when the database is busy), so a process killed
// with SIGKILL costs no call but those in flight. On PostgreSQL the commit is held back for
// certain by a lock on the cache table while the run receives replies; SQLite's lock would stop
// the writer's thread itself (better-sqlite3 waits for it synchronously), so there the run is
// killed mid-stream against a fast server, which leaves tens of replies inside the commit's
// window. Either way the same command is run again and the server must hear only the calls
// the first process had in flight. And the journal itself: a line cut by the kill is skipped,
// a live process's journal is left alone, a committed journal is deleted.

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { ReplyJournal } from '../src/store/sql/reply-journal.js';
import { createTestDatabase, dropTestDatabases, pgAvailable, pgSkipNote } from './helpers/postgres.js';
import { runCli } from './helpers/run-cli.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

const ROOT = join(__dirname, '..');
const BIN = join(ROOT, 'bin', 'mindscope.js');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-journal-'));
const CONCURRENCY = 8;

let server: ModelServer;
beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('run "npm run build" before the CLI tests (npm test does)');
  server = await startModelServer();
});
afterAll(async () => {
  await server?.stop();
  await dropTestDatabases();
});

const until = async (what: string, test: () => Promise<boolean>) => {
  for (let t = 0; !(await test()); t++) {
    if (t > 1200) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
};

const TRIALS = 300;

/**
 * Run TRIALS trials against a fast model, hold the store's commits back with `lock` (if any)
 * once the first request arrived, kill the run after 12 more, release, and run it again; the
 * requests the rerun made.
 */
async function killedWhileUncommitted(db: string, lock?: () => Promise<() => Promise<void>>) {
  const args = ['run', 'generated-tom', '--limit', String(TRIALS), '--model', `openai-compatible:${server.url}/v1#ok`];
  const opts = ['--run-id', 'k', '--db', db, '--concurrency', String(CONCURRENCY), '--quiet'];
  const requests = async () => (await server.stats()).requests;
  const start = await requests();
  const run = spawn(process.execPath, [BIN, ...args, ...opts], { cwd: dir, stdio: 'ignore' });
  const exited = new Promise((resolve) => run.on('exit', resolve));
  await until('the first request', async () => (await requests()) > start);
  const release = lock ? await lock() : async () => {};
  const lockedAt = await requests();
  await until('12 more replies', async () => (await requests()) >= lockedAt + 12);
  run.kill('SIGKILL');
  await exited;
  const beforeRerun = await requests();
  await release();
  const again = await runCli([...args, ...opts, '--json'], { cwd: dir });
  expect(again.code, again.stderr).toBe(0);
  const summary = JSON.parse(again.stdout);
  return { paidAgain: (await requests()) - beforeRerun, answeredBeforeKill: beforeRerun - start, summary };
}

describe('replies received before a kill are not paid for again', () => {
  it('SQLite: only the calls in flight at the kill are made again', async () => {
    const db = join(dir, 'killed.db');
    const r = await killedWhileUncommitted(db);
    expect(r.answeredBeforeKill).toBeGreaterThanOrEqual(12);
    // Replies received before the kill come from the journal; at most the calls in flight are made again.
    expect(r.paidAgain).toBeLessThanOrEqual(TRIALS - r.answeredBeforeKill + CONCURRENCY);
    expect(r.summary.calls.cached).toBeGreaterThanOrEqual(r.answeredBeforeKill - CONCURRENCY - r.summary.skipped);
    // Replayed and committed, the journal is gone.
    expect(existsSync(`${db}-replies`)).toBe(false);
  });

  it.skipIf(!pgAvailable)(`PostgreSQL: only the calls in flight at the kill are made again${pgSkipNote}`, async () => {
    const url = await createTestDatabase();
    const cache = join(dir, 'xdg');
    process.env.MINDSCOPE_CACHE = cache;
    try {
      // The schema first (the lock needs the table).
      await (await openStore(url)).close();
      const r = await killedWhileUncommitted(url, async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.query('BEGIN');
        await client.query('LOCK TABLE call_cache IN EXCLUSIVE MODE');
        return async () => {
          await client.query('ROLLBACK');
          await client.end();
        };
      });
      expect(r.answeredBeforeKill).toBeGreaterThanOrEqual(12);
      expect(r.paidAgain).toBeLessThanOrEqual(TRIALS - r.answeredBeforeKill + CONCURRENCY);
      expect(r.summary.calls.cached).toBeGreaterThanOrEqual(r.answeredBeforeKill - CONCURRENCY);
      expect(r.summary.calls.cachedFrom).toEqual([{ origin: 'k', calls: r.summary.calls.cached }]);
    } finally {
      delete process.env.MINDSCOPE_CACHE;
    }
  });
});

describe('the journal', () => {
  const line = (key: string) => `${JSON.stringify([key, 'openai', 'openai:m', 'run-1', '[0,"x"]'])}\n`;

  it('replays a dead process’s entries, skipping a line cut short, and leaves a live process’s file alone', () => {
    const folder = join(dir, 'orphans');
    mkdirSync(folder, { recursive: true });
    const host = hostname().replace(/[^A-Za-z0-9.-]/g, '_') || 'host';
    // A pid that no process has (beyond the kernel's limit).
    writeFileSync(join(folder, `${host}-4194399-0123abcd-0.jsonl`), `${line('a')}${line('b')}["c", "openai"`);
    writeFileSync(join(folder, `${host}-${process.ppid}-0123abcd-0.jsonl`), line('live'));
    writeFileSync(join(folder, `other-host-4194399-0123abcd-0.jsonl`), line('elsewhere'));
    const found = ReplyJournal.orphans(folder);
    expect(found.entries.map((e) => e.key)).toEqual(['a', 'b']);
    expect(found.entries[0]).toEqual({ key: 'a', provider: 'openai', model: 'openai:m', origin: 'run-1', body: '[0,"x"]' });
    found.remove();
    expect(readdirSync(folder).sort()).toEqual(['other-host-4194399-0123abcd-0.jsonl', `${host}-${process.ppid}-0123abcd-0.jsonl`].sort());
  });

  it('is deleted once its replies are committed, and kept when they are not', () => {
    const folder = join(dir, 'own');
    const journal = new ReplyJournal(folder);
    const committed = journal.append({ key: 'k1', provider: 'p', model: 'm', body: '[0]', origin: null });
    journal.append({ key: 'k2', provider: 'p', model: 'm', body: '[0]', origin: null });
    expect(readdirSync(folder)).toHaveLength(1);
    committed();
    journal.close();
    // k2 was never committed: its file stays for the next process.
    expect(readdirSync(folder)).toHaveLength(1);
    const done = new ReplyJournal(join(dir, 'own-done'));
    done.append({ key: 'k', provider: 'p', model: 'm', body: '[0]', origin: null })();
    done.close();
    expect(existsSync(join(dir, 'own-done'))).toBe(false);
  });
});
