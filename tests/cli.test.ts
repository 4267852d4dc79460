// The command line as a user runs it (the built CLI, in process; in a child process where a
// signal stops it): items, run, status, export, report, the demo, errors on bad input, and a run
// killed with SIGKILL part-way and continued by the same command.

import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './helpers/servers.js';
import { runCli } from './helpers/run-cli.js';

const ROOT = join(__dirname, '..');
const BIN = join(ROOT, 'bin', 'mindscope.js');
// Small subsets of the public data (tests/fixtures/data/README.md); the full ToMBench counts: tests-shared/.
const DATA = join(ROOT, 'tests', 'fixtures', 'data');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-cli-'));

const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { cwd: dir, env });

let server: ModelServer;
beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('run "npm run build" before the CLI tests (npm test does)');
  server = await startModelServer();
});
afterAll(() => server.stop());

describe('mindscope items', () => {
  it('prints the documented JSON shape with the ToMBench counts of the fixture', async () => {
    const r = await cli(['items', 'tombench', '--data', DATA, '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['suite', 'count', 'byCategory', 'byAbility', 'warnings', 'first']);
    expect(out.count).toBe(44);
    expect(out.byCategory).toEqual({ belief: 8, desire: 4, emotion: 4, intention: 2, knowledge: 16, 'non-literal': 10 });
    expect(out.warnings).toEqual([expect.stringMatching(/Knowledge-Attention Links\.jsonl:11: answer "A\. " read as "A"/)]);
  });
});

describe('mindscope run / status / export / report', () => {
  it('runs, reports status as JSON, exports the matrix and writes the report', async () => {
    const db = join(dir, 'flow.db');
    const run = await cli([
      'run',
      'generated-tom',
      '--limit',
      '30',
      '--model',
      'agent:oracle',
      'agent:reality',
      `openai-compatible:${server.url}/v1#ok`,
      '--db',
      db,
      '--run-id',
      'flow',
      '--quiet',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/run flow: 90 done, 0 failed/);
    expect(run.stdout).toMatch(/agent:oracle\s+100\.0/);
    const status = JSON.parse((await cli(['status', '--db', db, '--json'])).stdout);
    expect(status.runId).toBe('flow');
    expect(status.totals).toEqual({ planned: 90, done: 90, failed: 0, pending: 0, truncated: 0 });
    expect(status.rows[0]).toEqual({
      subject: 'agent:oracle',
      subjectId: expect.stringMatching(/^s-/),
      suite: 'generated-tom',
      planned: 30,
      done: 30,
      failed: 0,
      pending: 0,
      truncated: 0,
    });
    const exp = await cli(['export', 'matrix', '--db', db, '--out', join(dir, 'flow.parquet')]);
    expect(exp.stdout).toMatch(/30 items x 3 subjects/);
    expect((await cli(['export', 'matrix', '--db', db, '--out', join(dir, 'flow.csv')])).code).toBe(0);
    const csv = readFileSync(join(dir, 'flow.csv'), 'utf8').split('\n');
    expect(csv[0]).toBe(`suite,item_id,category,original_label,agent:oracle,agent:reality,openai-compatible:${server.url}/v1#ok`);
    const rep = await cli(['report', '--db', db, '--out', join(dir, 'report')]);
    expect(rep.code).toBe(0);
    const html = readFileSync(join(dir, 'report', 'index.html'), 'utf8');
    expect(html).toContain('<svg');
    expect(html).toContain('agent:reality');
    expect(html).toMatch(/parse failures/);
    // The audit section needs two suites.
    const one = await cli(['report', '--db', db, '--out', join(dir, 'report1'), '--audit']);
    expect(one.code).toBe(1);
    expect(one.stderr).toMatch(/report --audit needs a run with two or more suites .* has 1 suite\(s\)/);
  });

  it('adds the psychometric audit of the suites to the report of a two-suite run', async () => {
    const db = join(dir, 'two.db');
    const agents = ['agent:oracle', 'agent:random', 'agent:first-option', 'agent:reality', 'agent:first-order'];
    expect(
      (
        await cli([
          'run',
          'generated-tom',
          'tomi',
          '--data',
          DATA,
          '--limit',
          '60',
          '--shuffle',
          '--model',
          ...agents,
          '--db',
          db,
          '--quiet',
        ])
      ).code,
    ).toBe(0);
    const rep = await cli(['report', '--db', db, '--out', join(dir, 'report2'), '--audit']);
    expect(rep.code).toBe(0);
    const html = readFileSync(join(dir, 'report2', 'index.html'), 'utf8');
    expect(html).toContain('Psychometric audit of the suites');
    expect(html).toContain('generated-tom ~ tomi belief');
    expect(html.match(/<svg/g)!.length).toBe(5);
  });

  it('gives one clear error and a non-zero exit for bad input', async () => {
    const db = join(dir, 'bad.db');
    const cases: Array<[string[], RegExp]> = [
      [['run', 'nonsense', '--model', 'agent:oracle', '--db', db], /^mindscope: unknown suite "nonsense"; known suites: /],
      [['run', 'generated-tom', '--model', 'gpt-5', '--db', db], /^mindscope: unknown model spec "gpt-5"/],
      [['run', 'tombench', '--model', 'agent:oracle', '--data', join(dir, 'missing'), '--db', db], /missing: no such file or directory/],
      [['run', 'generated-tom', '--model', 'openai:gpt-4o-mini', '--db', db], /openai:gpt-4o-mini: set OPENAI_API_KEY/],
      [
        ['run', 'generated-tom', '--model', 'agent:oracle', '--trials', '0', '--db', db],
        /--trials expects an integer between 1 and 10000, got "0"/,
      ],
      // These named an internal field (zod's "scoring", "limit") or none (Node's own port message).
      [
        ['run', 'generated-tom', '--model', 'agent:oracle', '--mcq-scoring', 'bogus', '--db', db],
        /--mcq-scoring expects one of generate, loglik, loglik-norm, got "bogus"/,
      ],
      [
        ['run', 'generated-tom', '--model', 'agent:oracle', '--limit', '99999999999999999999', '--db', db],
        /--limit expects an integer of at least 1/,
      ],
      [['run', 'generated-tom', '--model', 'agent:oracle', '--run-id', '', '--db', db], /--run-id expects an id of 1 to 200 characters/],
      [['view', '--port', '70000', '--db', db], /--port expects an integer between 0 and 65535, got "70000"/],
      // Planned silently for minutes before.
      [
        ['run', 'generated-tom', '--model', 'agent:oracle', '--trials', '100000000', '--db', db],
        /--trials expects an integer between 1 and 10000/,
      ],
      // Node's timers hold at most 2^31 - 1 ms: a longer limit fired at once and failed every call.
      [
        ['run', 'generated-tom', '--model', 'agent:oracle', '--timeout', '3000000', '--db', db],
        /--timeout expects a number between 0\.001 and 2147483\.647/,
      ],
      // The failed runs above left no empty store behind (they did before): status finds none.
      [['status', '--db', db, '--run-id', 'nope'], /no store at .*bad\.db \(--db\)/],
    ];
    for (const [args, re] of cases) {
      const r = await cli(args, { OPENAI_API_KEY: '' });
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(re);
    }
  });

  it('exits 2 and names the HTTP status when a subject is stopped, and keeps the key out of everything', async () => {
    const db = join(dir, 'key.db');
    const secret = 'sk-NEVER-PRINT-THIS-123456';
    const r = await cli(
      [
        'run',
        'generated-tom',
        '--limit',
        '5',
        '--model',
        `openai-compatible:${server.url}/v1#unknown-model`,
        '--api-key-env',
        'MY_KEY',
        '--db',
        db,
        '--quiet',
      ],
      { MY_KEY: secret },
    );
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/HTTP 404/);
    expect(r.stdout + r.stderr).not.toContain(secret);
    expect(readFileSync(db).toString('latin1')).not.toContain(secret);
  });

  it('keeps even a piece of the key out of errors that echo it, and credentials in a URL out of everything', async () => {
    const secret = 'sk-NEVER-PRINT-THIS-123456';
    // Any six characters of the key in a row.
    const pieces = Array.from({ length: secret.length - 5 }, (_, i) => secret.slice(i, i + 6));
    const leaks = (text: string) => pieces.filter((p) => text.includes(p));
    const db = join(dir, 'echo.db');
    // The server echoes the key: whole, cut by the error snippet's end (the body is
    // {"message":"x...x KEY..."}: after 280 x's the key starts at 292 of the 300 characters kept),
    // inside a body JSON.parse rejects (its message quotes a piece), and inside a normal reply.
    const models = ['echo-key-500-0', 'echo-key-500-280', 'echo-key-badjson', 'echo-key-reply'].flatMap((m) => [
      '--model',
      `openai-compatible:${server.url}/v1#${m}`,
    ]);
    const r = await cli(['run', 'generated-tom', '--limit', '1', ...models, '--api-key-env', 'MY_KEY', '--db', db, '--json'], {
      MY_KEY: secret,
    });
    expect(JSON.parse(r.stdout)).toMatchObject({ failed: 3, done: 1 });
    const exported = await cli(['export', 'trials', '--db', db, '--out', join(dir, 'echo.jsonl')]);
    expect(exported.code).toBe(0);
    const errors = readFileSync(join(dir, 'echo.jsonl'), 'utf8');
    expect(errors).toMatch(/\[REDACTED\] was used/);
    expect(errors).toMatch(/malformed response body \(not JSON\)/);
    // The reply that quoted the key is kept, scrubbed: in the transcript, the record and the cache.
    expect(errors).toMatch(/Answer: A \(sent with \[REDACTED\]\)/);
    expect(leaks(r.stdout + r.stderr + errors + readFileSync(db).toString('latin1'))).toEqual([]);
    // A key written into a spec's URL: refused before anything is stored, the error without it.
    const inUrl = await cli([
      'run',
      'generated-tom',
      '--model',
      `openai-compatible:http://me:${secret}@127.0.0.1:1/v1#ok`,
      '--db',
      join(dir, 'url.db'),
    ]);
    expect(inUrl.code).toBe(1);
    expect(inUrl.stderr).toMatch(/openai-compatible:http:\/\/127\.0\.0\.1:1\/v1#ok: the BASE_URL carries credentials/);
    expect(leaks(inUrl.stderr + (existsSync(join(dir, 'url.db')) ? readFileSync(join(dir, 'url.db')).toString('latin1') : ''))).toEqual([]);
    // A password holding '@' (URL parsers take the last '@'), and a key in a query string.
    const at = await cli([
      'run',
      'generated-tom',
      '--model',
      `openai-compatible:http://me:p@${secret}@127.0.0.1:1/v1#ok`,
      '--db',
      join(dir, 'url.db'),
    ]);
    expect(at.stderr).toMatch(/openai-compatible:http:\/\/127\.0\.0\.1:1\/v1#ok: the BASE_URL carries credentials/);
    const query = await cli([
      'run',
      'generated-tom',
      '--model',
      `openai-compatible:http://127.0.0.1:1/v1?api_key=${secret}#ok`,
      '--db',
      join(dir, 'url.db'),
    ]);
    expect(query.stderr).toMatch(/openai-compatible:http:\/\/127\.0\.0\.1:1\/v1\?\.\.\.#ok: the BASE_URL carries a query string/);
    expect(leaks(at.stderr + query.stderr)).toEqual([]);
    // A base URL from the environment may carry them (sent as basic auth); errors show the URL without.
    const envUrl = `${server.url.replace('http://', `http://me:p@${secret}@`)}/v1`;
    const viaEnv = await cli(
      ['run', 'generated-tom', '--limit', '1', '--model', 'openai:unknown-model', '--db', join(dir, 'env.db'), '--json'],
      {
        OPENAI_API_KEY: 'sk-other-key-000',
        OPENAI_BASE_URL: envUrl,
      },
    );
    expect(viaEnv.code).toBe(2);
    expect(viaEnv.stdout).toContain(`HTTP 404 from ${server.url}/v1`);
    expect(leaks(viaEnv.stdout + viaEnv.stderr + readFileSync(join(dir, 'env.db')).toString('latin1'))).toEqual([]);
  });
});

describe('resumption', () => {
  it('Ctrl-C stops starting trials, stores those in flight, and the rerun pays for no call twice', async () => {
    // A model name of its own: the server counts requests by model.
    const model = `openai-compatible:${server.url}/v1#slow-301`;
    const args = [
      'run',
      'generated-tom',
      '--limit',
      '120',
      '--model',
      model,
      '--concurrency',
      '16',
      '--db',
      'sigint.db',
      '--run-id',
      'int',
      '--json',
    ];
    const requests = async () =>
      ((await (await fetch(`${server.url}/stats`)).json()) as { byModel: Record<string, number> }).byModel['slow-301'] ?? 0;
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    // Interrupt once calls are in flight (each takes 301 ms; 16 at a time: 120 take over 2 s).
    for (let i = 0; i < 200 && (await requests()) < 20; i++) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGINT');
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(130);
    expect(stderr).toMatch(/stopping: no new trial starts; the trials in flight finish and are stored/);
    const first = JSON.parse(stdout);
    // `planned` is the whole plan, not the trials reached before the signal.
    expect(first).toMatchObject({ interrupted: true, failed: 0, planned: 120 });
    expect(first.done).toBeGreaterThan(0);
    expect(first.done).toBeLessThan(120);
    // Every call made was stored: none was lost in flight.
    expect(await requests()).toBe(first.done);
    const rerun = await cli(args);
    expect(rerun.code).toBe(0);
    expect(JSON.parse(rerun.stdout)).toMatchObject({ skipped: first.done, done: 120 - first.done, failed: 0 });
    expect(JSON.parse(rerun.stdout).interrupted).toBeUndefined();
    expect(await requests()).toBe(120);
  });

  it('a run killed with SIGKILL part-way finishes on rerun with no trial lost or duplicated, and the same matrix', async () => {
    const model = `openai-compatible:${server.url}/v1#slow-15`;
    const args = (db: string) => [
      'run',
      'generated-tom',
      '--limit',
      '150',
      '--seed',
      '4',
      '--shuffle',
      '--model',
      model,
      'agent:first-order',
      '--concurrency',
      '4',
      '--db',
      db,
      '--run-id',
      'resume',
      '--quiet',
    ];
    const killedDb = join(dir, 'killed.db');
    const child = spawn(process.execPath, [BIN, ...args(killedDb)], { cwd: dir, stdio: 'ignore' });
    // Wait until some, not all, trials are stored, then kill without warning.
    let doneAtKill = 0;
    for (let i = 0; i < 400 && doneAtKill < 40; i++) {
      await new Promise((r) => setTimeout(r, 25));
      if (!existsSync(killedDb)) continue;
      try {
        const db = new Database(killedDb, { readonly: true, fileMustExist: true });
        doneAtKill = (db.prepare("SELECT COUNT(*) AS n FROM trials WHERE status = 'done'").get() as { n: number }).n;
        db.close();
      } catch {
        /* the schema may not exist yet */
      }
    }
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(doneAtKill).toBeGreaterThanOrEqual(40);
    expect(doneAtKill).toBeLessThan(300);

    const rerun = await cli(args(killedDb));
    expect(rerun.code).toBe(0);
    const skipped = Number(/(\d+) already done/.exec(rerun.stdout)![1]);
    const done = Number(/(\d+) done,/.exec(rerun.stdout)![1]);
    expect(skipped).toBeGreaterThanOrEqual(doneAtKill);
    expect(skipped + done).toBe(300);

    const db = new Database(killedDb, { readonly: true });
    expect(db.prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT subject_id || suite || item_id || replicate) AS u FROM trials').get()).toEqual({
      n: 300,
      u: 300,
    });
    expect(
      db
        .prepare(
          "SELECT COUNT(*) AS n FROM trials t JOIN transcripts tr ON tr.trial_id = t.id JOIN scores s ON s.trial_id = t.id WHERE t.status = 'done'",
        )
        .get(),
    ).toEqual({ n: 300 });
    db.close();

    const cleanDb = join(dir, 'clean.db');
    expect((await cli(args(cleanDb))).code).toBe(0);
    await cli(['export', 'matrix', '--db', killedDb, '--out', join(dir, 'killed.csv')]);
    await cli(['export', 'matrix', '--db', cleanDb, '--out', join(dir, 'clean.csv')]);
    expect(readFileSync(join(dir, 'killed.csv'), 'utf8')).toBe(readFileSync(join(dir, 'clean.csv'), 'utf8'));
  });
});

describe('mindscope demo', () => {
  it('runs offline and writes the store, the report and a summary table', async () => {
    const out = join(dir, 'demo');
    const r = await cli(['demo', '--out', out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/1500 done, 0 failed/);
    expect(r.stdout).toMatch(/agent:oracle\s+100\.0/);
    expect(existsSync(join(out, 'report', 'index.html'))).toBe(true);
    expect(existsSync(join(out, 'mindscope.db'))).toBe(true);
  });
});
