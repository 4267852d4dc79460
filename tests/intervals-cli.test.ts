// Intervals as the command line prints them (the built CLI, run in process): replicates of
// an item do not narrow the run summary's interval below what its items support, and compare's
// paired interval keeps its width when every item is discordant the same way.

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { newcombePairedInterval, wilsonInterval } from '../src/stats/index.js';
import { runCli } from './helpers/run-cli.js';

const ROOT = join(__dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-intervals-'));

const cli = (args: string[]) => runCli(args, { cwd: dir });

/** The overall row of a run summary's accuracy table: accuracy, interval and n of one subject. */
function summaryRow(stdout: string, subject: string): { accuracy: number; lower: number; upper: number; n: number } {
  const line = stdout.split('\n').find((l) => l.startsWith(`${subject} `));
  const m = line?.match(/(\d+\.\d)\s+\[(\d+\.\d), (\d+\.\d)\]\s+(\d+)\s+\d+$/);
  if (!m) throw new Error(`no accuracy row for ${subject} in:\n${stdout}`);
  return { accuracy: Number(m[1]), lower: Number(m[2]), upper: Number(m[3]), n: Number(m[4]) };
}

const pct = (x: number) => Number((x * 100).toFixed(1));

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('run "npm run build" before the CLI tests (npm test does)');
});

describe('run summary intervals with replicates', () => {
  it('all-correct replicates of 3 items give the interval of 3 items, in the summary and the report, not a zero-width one', async () => {
    const one = await cli(['run', 'generated-tom', '--limit', '3', '--model', 'agent:oracle', '--db', 'one.db', '--quiet']);
    const two = await cli([
      'run',
      'generated-tom',
      '--limit',
      '3',
      '--trials',
      '2',
      '--model',
      'agent:oracle',
      '--db',
      'two.db',
      '--quiet',
    ]);
    expect(one.code).toBe(0);
    expect(two.code).toBe(0);
    const w = wilsonInterval(3, 3);
    // One trial per item: the Wilson interval over the 3 items, [43.9, 100.0].
    expect(summaryRow(one.stdout, 'agent:oracle')).toEqual({ accuracy: 100, lower: pct(w.lower), upper: 100, n: 3 });
    expect(pct(w.lower)).toBe(43.9);
    // Two replicates of the same 3 items add no information on other items: the same interval.
    expect(summaryRow(two.stdout, 'agent:oracle')).toEqual({ accuracy: 100, lower: 43.9, upper: 100, n: 3 });
    expect(two.stdout).toMatch(/95% CI \*/);
    expect(two.stdout).toMatch(/\n\* over items \(n\): an item's replicates are not independent/);
    expect(one.stdout).not.toMatch(/95% CI \*/);
    // The HTML report of the replicated run: the same interval, and how replicates count.
    expect((await cli(['report', '--db', 'two.db', '--out', 'two-report'])).code).toBe(0);
    const html = readFileSync(join(dir, 'two-report', 'index.html'), 'utf8');
    expect(html).toContain("Wilson with the items' effective number of trials");
    expect(html).toContain('[43.9%, 100.0%]');
    expect(html).not.toContain('[100.0%, 100.0%]');
  });
});

describe('compare intervals', () => {
  it('an oracle against a subject wrong on all 4 items: a positive-width interval, not [100.0, 100.0]', async () => {
    const made = await cli([
      'run',
      'generated-tom',
      '--limit',
      '4',
      '--model',
      'agent:oracle',
      'agent:silent',
      '--db',
      'cmp.db',
      '--quiet',
    ]);
    expect(made.code).toBe(0);
    const json = await cli(['compare', '--db', 'cmp.db', '--json']);
    expect(json.code).toBe(0);
    const all = JSON.parse(json.stdout).find((c: { group: string }) => c.group === 'all');
    expect(all).toMatchObject({ a: 'agent:oracle', b: 'agent:silent', n: 4, onlyA: 4, onlyB: 0, difference: 1, upper: 1 });
    expect(all.note).toBeUndefined();
    const expected = newcombePairedInterval({ both: 0, onlyFirst: 4, onlySecond: 0, neither: 0 });
    expect(all.lower).toBe(expected.lower);
    expect(all.lower).toBeGreaterThan(0.3);
    expect(all.lower).toBeLessThan(0.31);
    const text = await cli(['compare', '--db', 'cmp.db']);
    expect(text.stdout).toMatch(/all\s+4\s+100\.0\s+0\.0\s+100\.0\s+\[30\.7, 100\.0\]/);
    expect(text.stdout).not.toContain('[100.0, 100.0]');
    expect(text.stdout).toContain("95% CI: Newcombe's hybrid score interval for paired proportions");
  });

  it('says why there is no interval where two subjects answered no item in common', async () => {
    writeFileSync(join(dir, 'apart.csv'), 'suite,item_id,category,original_label,A,B\ns,i1,belief,,1,\ns,i2,belief,,,0\n');
    const text = await cli(['compare', '--matrix', 'apart.csv']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/A\s+B\s+all\s+0\s+NaN\s+NaN\s+NaN\s+- \*\s/);
    expect(text.stdout).toMatch(/\n\* no item answered by both subjects\n$/);
    const [all] = JSON.parse((await cli(['compare', '--matrix', 'apart.csv', '--json'])).stdout);
    expect(all).toMatchObject({ n: 0, lower: null, upper: null, note: 'no item answered by both subjects' });
  });
});
