// The interoperability commands as a user runs them (the built CLI, run in process):
// export trials and export inspect on a run of reference agents, then import inspect of those
// logs into another store, whose exported matrix is the run's.

import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers/run-cli.js';

const ROOT = join(__dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-interop-cli-'));

const cli = (args: string[]) => runCli(args, { cwd: dir });

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('run "npm run build" before the CLI tests (npm test does)');
});

describe('mindscope export trials / export inspect / import inspect', () => {
  it('exports a run for other tools and imports its Inspect logs back to the same matrix', async () => {
    const db = join(dir, 'runs.db');
    const run = await cli([
      'run',
      'generated-tom',
      '--limit',
      '15',
      '--trials',
      '2',
      '--model',
      'agent:oracle',
      'agent:random',
      'agent:reality',
      '--db',
      db,
      '--run-id',
      'gt',
      '--quiet',
    ]);
    expect(run.code).toBe(0);
    const trials = await cli(['export', 'trials', '--db', db, '--out', join(dir, 'gt.jsonl')]);
    expect(trials.stdout).toBe(`wrote ${join(dir, 'gt.jsonl')}: 90 trials (run gt)\n`);
    const lines = readFileSync(join(dir, 'gt.jsonl'), 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(90);
    expect((await cli(['export', 'trials', '--db', db, '--out', join(dir, 'gt.parquet')])).code).toBe(0);
    const inspect = await cli(['export', 'inspect', '--db', db, '--out', join(dir, 'logs')]);
    expect(inspect.stdout).toMatch(/wrote 3 Inspect eval log\(s\) with 90 samples/);
    expect(readdirSync(join(dir, 'logs'))).toHaveLength(3);
    const back = join(dir, 'back.db');
    const imp = await cli(['import', 'inspect', join(dir, 'logs'), '--db', back, '--run-id', 'gt-back']);
    expect(imp.stderr).toBe('');
    expect(imp.stdout).toMatch(/imported 3 Inspect log\(s\) as run gt-back: 90 trials \(0 failed, 0 already there\)/);
    expect((await cli(['export', 'matrix', '--db', db, '--out', join(dir, 'a.csv')])).code).toBe(0);
    expect((await cli(['export', 'matrix', '--db', back, '--out', join(dir, 'b.csv')])).code).toBe(0);
    expect(readFileSync(join(dir, 'b.csv'), 'utf8')).toBe(readFileSync(join(dir, 'a.csv'), 'utf8'));
    // Bad input: one line naming the file and what is wrong, exit 1.
    const bad = await cli(['import', 'inspect', join(dir, 'gt.jsonl'), '--db', back]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/gt\.jsonl: an Inspect log ends in \.json or \.eval/);
    const cat = await cli(['import', 'inspect', join(dir, 'logs'), '--db', back, '--category', 'feelings']);
    expect(cat.stderr).toMatch(/--category "feelings" is not a ToM category/);
  }, 240_000);

  it('gives the audit the same input: the audit of an imported two-suite run equals the original', async () => {
    const DATA = join(ROOT, 'tests', 'fixtures', 'data');
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
          '40',
          '--shuffle',
          '--model',
          ...agents,
          '--db',
          db,
          '--run-id',
          'two',
          '--quiet',
        ])
      ).code,
    ).toBe(0);
    expect((await cli(['export', 'inspect', '--db', db, '--run-id', 'two', '--out', join(dir, 'two-logs')])).stdout).toMatch(
      /wrote 10 Inspect eval log\(s\) with 400 samples/,
    );
    const back = join(dir, 'two-back.db');
    expect((await cli(['import', 'inspect', join(dir, 'two-logs'), '--db', back, '--run-id', 'two-back'])).code).toBe(0);
    const audit = async (store: string, runId: string) => {
      const r = await cli(['audit', '--db', store, '--run-id', runId, '--bootstrap', '100', '--json']);
      expect(r.code).toBe(0);
      const { timingsMs: _t, ...rest } = JSON.parse(r.stdout);
      return rest;
    };
    const original = await audit(db, 'two');
    expect(original.benchmarks.map((b: { name: string }) => b.name)).toEqual(['generated-tom', 'tomi']);
    expect(await audit(back, 'two-back')).toEqual(original);
  }, 240_000);
});
