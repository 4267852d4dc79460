// `mindscope score` as several processes run it on one run: each judged trial is leased, so two
// processes share the run's trials and every judge call is made once; a score of a scored run
// reports the stored analysis (means and family cells), not empty means. Two real CLI processes
// (the run before them and the score after them run in this process), a real judge server (slow
// enough that the two processes overlap), one SQLite store.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';
import { sqliteQuery } from './helpers/sqlite.js';

const ROOT = join(__dirname, '..');
const BIN = join(ROOT, 'bin', 'mindscope.js');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-score-shared-'));
const RUBRIC = `name: correctness
prompt: |
  You grade answers.
  Question: {{question}}
  Response: {{response}}
  Expected: {{expected}}
fields:
  - name: score
    min: 0
    max: 5
`;

/** A CLI process's exit code and stdout, once it ends. */
function cliAsync(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

let server: ModelServer;
beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('run "npm run build" before the CLI tests (npm test does)');
  server = await startModelServer();
});
afterAll(() => server?.stop());

describe('score shared by two processes', () => {
  it('judges each trial once, and a later score shows the stored analysis', async () => {
    const db = join(dir, 'm.db');
    const rubric = join(dir, 'correctness.yaml');
    writeFileSync(rubric, RUBRIC);
    const made = await runCli(
      ['run', 'generated-tom', '--limit', '20', '--model', 'agent:oracle', 'agent:reality', '--run-id', 'r', '--db', db, '--quiet'],
      { cwd: dir },
    );
    expect(made.code).toBe(0);
    const judge = `openai-compatible:${server.url}/v1#judge-slow-300`;
    const args = ['score', '--rubric', rubric, '--judge', judge, '--run-id', 'r', '--db', db, '--json'];
    const before = (await server.stats()).requests;
    const [one, two] = await Promise.all([cliAsync(args), cliAsync(args)]);
    expect([one.code, two.code, one.stderr, two.stderr]).toEqual([0, 0, '', '']);
    const a = JSON.parse(one.stdout);
    const b = JSON.parse(two.stdout);
    // 40 trials, each judged once by one of the two processes: 40 judge calls in all.
    expect(a.scored + b.scored).toBe(40);
    // Both took part (the judge is slow enough for them to overlap).
    expect(Math.min(a.scored, b.scored)).toBeGreaterThan(0);
    expect(a.calls.made + b.calls.made).toBe(40);
    expect((await server.stats()).requests - before).toBe(40);
    // Each process reports the whole run: what it scored and what the other did.
    expect(a.scored + a.alreadyScored).toBe(40);
    expect(b.scored + b.alreadyScored).toBe(40);
    const rows = await sqliteQuery(db, "SELECT COUNT(*) AS n FROM scores WHERE scorer = 'judge:correctness'");
    expect(rows).toEqual([{ n: 40 }]);
    // The oracle is right (5) and the reality agent wrong (0) on the false-belief items: a mean between.
    expect(a.meanByField.score).toBeGreaterThan(0);
    expect(a.meanByField).toEqual(b.meanByField);

    const again = JSON.parse((await runCli(args, { cwd: dir })).stdout);
    expect(again).toMatchObject({ scored: 0, alreadyScored: 40, calls: { made: 0 } });
    expect(again.meanByField).toEqual(a.meanByField);
    expect(again.family).toEqual(a.family);
    expect((await server.stats()).requests - before).toBe(40);
  });
});
