// The call cache answers a call only with a reply to the same call: the same request to the
// same endpoint, for the same trial (suite, item, replicate) and turn. Run through the built CLI
// against real local model servers: a run pointed at another server asks that server; an
// unreachable server is not hidden behind cached replies; a question asked twice in one trial
// (the Director Task's c.Q1 repeats prompt a) is two draws; replicates are draws of their own;
// and the same trial run again (another run id, same spec) is answered from the cache, which
// the summary says, naming the run the replies came from.

import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer } from './helpers/servers.js';
import { sqliteQuery } from './helpers/sqlite.js';
import { runCli } from './helpers/run-cli.js';

const ROOT = join(__dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-cache-identity-'));

const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { cwd: dir, env });
const openAiAt = (server: ModelServer | string) => ({
  OPENAI_API_KEY: 'sk-test',
  OPENAI_BASE_URL: `${typeof server === 'string' ? server : server.url}/v1`,
});
const runJson = async (args: string[], env: Record<string, string>) => {
  const r = await cli([...args, '--json'], env);
  return { ...r, json: r.stdout.trim() ? JSON.parse(r.stdout) : undefined };
};

let a: ModelServer;
let b: ModelServer;
beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('run "npm run build" before the CLI tests (npm test does)');
  [a, b] = await Promise.all([startModelServer(), startModelServer()]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
});

describe('the call cache keys replies by endpoint', () => {
  const db = join(dir, 'endpoints.db');
  const run = (runId: string, env: Record<string, string>) =>
    runJson(['run', 'generated-tom', '--limit', '5', '--model', 'openai:gpt-4o-mini', '--run-id', runId, '--db', db], env);

  it('a run against another server asks that server, not the first one’s replies', async () => {
    const first = await run('at-a', openAiAt(a));
    expect(first.code).toBe(0);
    expect((await a.stats()).requests).toBe(5);
    const second = await run('at-b', openAiAt(b));
    expect(second.code).toBe(0);
    expect((await b.stats()).requests).toBe(5);
    expect(second.json.calls).toEqual({ made: 5, cached: 0, cachedFrom: [] });
  });

  it('an unreachable server is reported, not answered from the cache', async () => {
    const r = await run('nowhere', openAiAt('http://127.0.0.1:1'));
    expect(r.code).not.toBe(0);
    expect(r.json.done).toBe(0);
    expect(r.json.aborted[0].error).toMatch(/cannot reach http:\/\/127\.0\.0\.1:1\/v1/);
  });

  it('the same trials run again against the same server are answered from the cache, and the summary names the run', async () => {
    const before = (await a.stats()).requests;
    const again = await run('at-a-again', openAiAt(a));
    expect(again.code).toBe(0);
    expect((await a.stats()).requests).toBe(before);
    expect(again.json.calls).toEqual({ made: 5, cached: 5, cachedFrom: [{ origin: 'at-a', calls: 5 }] });
    const text = await cli(
      ['run', 'generated-tom', '--limit', '5', '--model', 'openai:gpt-4o-mini', '--run-id', 'at-a-text', '--db', db],
      openAiAt(a),
    );
    expect(text.stdout).toMatch(/5 of 5 model call\(s\) were answered from the call cache \(5 from run at-a\)/);
  });

  it('the cache rows keep the run that paid for them', async () => {
    const rows = await sqliteQuery(
      db,
      'SELECT o.origin AS origin, COUNT(*) AS n FROM call_cache c JOIN cache_origins o ON o.id = c.origin_id GROUP BY o.origin ORDER BY o.origin',
    );
    expect(rows).toEqual([
      { origin: 'at-a', n: 5 },
      { origin: 'at-b', n: 5 },
    ]);
    // A copy of the store keeps them.
    const copy = join(dir, 'endpoints-copy.db');
    expect((await cli(['db', 'copy', '--from', `sqlite:${db}`, '--to', `sqlite:${copy}`])).code).toBe(0);
    expect(
      await sqliteQuery(
        copy,
        'SELECT o.origin AS origin, COUNT(*) AS n FROM call_cache c JOIN cache_origins o ON o.id = c.origin_id GROUP BY o.origin ORDER BY o.origin',
      ),
    ).toEqual(rows);
  });
});

describe('each trial and turn is a draw of its own', () => {
  it('the Director Task’s c.Q1, worded as prompt a, is asked again, not copied from a', async () => {
    const db = join(dir, 'director.db');
    const before = (await a.stats()).requests;
    const r = await runJson(['run', 'director', '--limit', '4', '--model', 'openai:gpt-4o-mini', '--run-id', 'd', '--db', db], openAiAt(a));
    expect(r.code).toBe(0);
    // Four scenes, four calls each (a, b, c.Q1, c.Q2): every one reaches the server.
    expect(r.json.calls).toEqual({ made: 16, cached: 0, cachedFrom: [] });
    expect((await a.stats()).requests - before).toBe(16);
    const transcripts = await sqliteQuery(db, 'SELECT cached_calls AS cached, total_calls AS total FROM trials');
    expect(transcripts.every((t) => t.cached === 0 && t.total === 4)).toBe(true);
  });

  it('replicates are separate draws, and a resumed replicate finds its own', async () => {
    const db = join(dir, 'replicates.db');
    const before = (await b.stats()).requests;
    const args = ['run', 'generated-tom', '--limit', '3', '--trials', '2', '--model', 'openai:gpt-4o-mini', '--db', db];
    const first = await runJson([...args, '--run-id', 'rep'], openAiAt(b));
    expect(first.json.calls).toEqual({ made: 6, cached: 0, cachedFrom: [] });
    expect((await b.stats()).requests - before).toBe(6);
    const second = await runJson([...args, '--run-id', 'rep-2'], openAiAt(b));
    expect(second.json.calls).toEqual({ made: 6, cached: 6, cachedFrom: [{ origin: 'rep', calls: 6 }] });
    expect((await b.stats()).requests - before).toBe(6);
  });
});
