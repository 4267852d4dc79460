// The command line where the machine pushes back: a reader that goes away (`run | head`), a
// disk that fills up, a reference agent run where it cannot answer, and the progress line
// during a long Retry-After wait. Each case failed before the change it covers.

import Database from 'better-sqlite3';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { createProgress } from '../src/cli/progress.js';
import { evaluate, openStore } from '../src/index.js';
import { GroupCommit } from '../src/store/sql/group-commit.js';
import { asStoreFull } from '../src/store/sql/store-full.js';
import { runCli } from './helpers/run-cli.js';
import { startModelServer } from './helpers/servers.js';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'mindscope.js');
const FIXTURES = join(ROOT, 'tests', 'fixtures', 'data');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-cli-resilience-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a closed stdout (run | head)', () => {
  it('exits quietly with no EPIPE stack trace', async () => {
    const child = spawn(
      process.execPath,
      [BIN, 'run', 'generated-tom', '--model', 'agent:oracle', 'agent:reality', '--limit', '20', '--db', join(dir, 'epipe.db'), '--quiet'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // The reader is gone before the first line is written: every write to stdout fails with EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});

describe('the call-limit flags', () => {
  it('--max-reply-bytes, --max-consecutive-timeouts and --max-wait reach the runner', async () => {
    const server = await startModelServer();
    try {
      const cli = (model: string, ...flags: string[]) =>
        runCli([
          'run',
          'generated-tom',
          '--model',
          `openai-compatible:${server.url}/v1#${model}`,
          '--limit',
          '2',
          '--db',
          join(dir, `${model}.db`),
          '--quiet',
          ...flags,
        ]);
      const big = await cli('huge-64', '--max-reply-bytes', '10000');
      expect(big.code).toBe(2);
      expect(big.stdout).toMatch(/2 failed/);
      const hung = await cli('hang-100', '--timeout', '0.2', '--max-consecutive-timeouts', '2', '--concurrency', '1');
      expect(hung.code).toBe(2);
      expect(hung.stdout).toMatch(/2 calls in a row to .* got no answer within 0\.2s/);
      const limited = await cli('rl-100-200', '--max-wait', '0.5');
      expect(limited.code).toBe(2);
      expect(limited.stdout).toMatch(/still rate limited after 0\.\ds of waiting \(--max-wait 0\.5s\)/);
      // The same limits from a config file; a flag given on the command line wins over it.
      const config = join(dir, 'limits.yaml');
      writeFileSync(config, 'maxReplyBytes: 10000\nmaxWait: 0.5\n');
      const bigFromConfig = await cli('huge-64', '--config', config, '--run-id', 'cfg');
      expect(bigFromConfig.code).toBe(2);
      expect(bigFromConfig.stdout).toMatch(/2 failed/);
      expect((await cli('huge-64', '--config', config, '--run-id', 'flag', '--max-reply-bytes', '1000000')).code).toBe(0);
    } finally {
      await server.stop();
    }
  });
});

describe('a full disk', () => {
  it('turns SQLITE_FULL into one short line naming the database, however many writes it refused', async () => {
    // A real SQLITE_FULL: a database limited to a few pages.
    const path = join(dir, 'pages.db');
    const db = new Database(path);
    db.exec('CREATE TABLE t (v TEXT)');
    db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
    const commits = new GroupCommit<string>(async (writes) => {
      try {
        db.transaction(() => writes.forEach((w) => db.prepare('INSERT INTO t VALUES (?)').run(w.repeat(4000))))();
      } catch (err) {
        throw asStoreFull(err, path);
      }
    }, path);
    const writes = Array.from({ length: 200 }, (_, i) => commits.add(`trial generated-tom/item-${i}#0`, `x${i}`));
    const failed = await Promise.allSettled(writes);
    expect(failed.every((r) => r.status === 'rejected')).toBe(true);
    const err = await commits.flush().then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toBe(
      `${path}: the disk is full, nothing more can be stored: free some space (or use another --db); what was stored is kept and the same command continues the run`,
    );
    db.close();
  });

  // A real full file system: a 1.5 MB tmpfs, mounted for this test only (needs root; skipped where mounting is not allowed).
  it('a run on a full disk ends with one short line naming the database file', async (ctx) => {
    const tiny = join(dir, 'tiny');
    mkdirSync(tiny, { recursive: true });
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1500k', 'tmpfs', tiny]).status !== 0) ctx.skip();
    try {
      const db = join(tiny, 'full.db');
      const r = await runCli([
        'run',
        'generated-tom',
        '--model',
        'agent:oracle',
        'agent:reality',
        'agent:random',
        '--limit',
        '20',
        '--trials',
        '100',
        '--db',
        db,
        '--quiet',
      ]);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual([
        `mindscope: ${db}: the disk is full, nothing more can be stored: free some space (or use another --db); what was stored is kept and the same command continues the run`,
      ]);
    } finally {
      spawnSync('umount', [tiny]);
    }
  });
});

describe('reference agents on released benchmarks', () => {
  it('agent:oracle on tombench warns at the start that it needs a generated suite, and names agent:answer-key', async () => {
    const store = await openStore(':memory:');
    const warnings: string[] = [];
    const r = await evaluate(
      { suites: ['tombench'], models: ['agent:oracle', 'agent:answer-key'], data: join(FIXTURES, 'tombench') },
      { store, onWarning: (w) => warnings.push(w) },
    );
    const oracle = warnings.filter((w) => w.startsWith('agent:oracle'));
    expect(oracle).toHaveLength(1);
    expect(oracle[0]).toMatch(/^agent:oracle cannot answer any of the \d+ items of tombench: it needs items that carry a world model/);
    expect(oracle[0]).toMatch(/generated suite such as generated-tom.*use agent:answer-key/);
    // agent:answer-key answers them all, and says nothing.
    expect(warnings.some((w) => w.startsWith('agent:answer-key'))).toBe(false);
    expect(r.done).toBeGreaterThan(0);
    await store.close();
  });

  it('says nothing on a generated suite, where agent:oracle answers every item', async () => {
    const store = await openStore(':memory:');
    const warnings: string[] = [];
    await evaluate({ suites: ['generated-tom'], models: ['agent:oracle'], limit: 10 }, { store, onWarning: (w) => warnings.push(w) });
    expect(warnings.filter((w) => /cannot answer/.test(w))).toEqual([]);
    await store.close();
  });
});

describe('the progress line during a long wait', () => {
  it('announces a Retry-After of an hour and shows it in the periodic line', () => {
    const stream = new PassThrough() as unknown as NodeJS.WriteStream;
    let text = '';
    (stream as unknown as PassThrough).on('data', (d) => (text += d));
    const p = createProgress(stream);
    p.onEvent({ type: 'start', runId: 'r', planned: 10, spentUsd: 0 });
    p.onEvent({ type: 'retry', spec: 'openai:gpt-x', error: 'HTTP 429: rate limited', retry: 1, delayMs: 3_600_000 });
    p.stop();
    expect(text).toMatch(/waiting 1h 0m for openai:gpt-x \(until \d\d:\d\d:\d\d UTC\): HTTP 429: rate limited/);
    expect(text).toMatch(/progress: 0\/10 .*\| waiting (1h 0m|59m 59s) for openai:gpt-x/);
  });
});
