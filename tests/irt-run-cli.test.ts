// `irt calibrate --run-id` and `run --tiny / --adaptive` as a user runs them (the built CLI, run
// in process): a bank calibrated from a stored run carries the stored item hashes, tiny and
// adaptive runs print and store their estimates, bad flag combinations and mismatched banks are
// refused with a message that says what to do.

import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { readIrtBank } from '../src/analysis/index.js';
import { runCli } from './helpers/run-cli.js';

const ROOT = join(__dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-irt-run-cli-'));
const DB = join(dir, 'runs.db');
const AGENTS = ['agent:oracle', 'agent:first-order', 'agent:reality', 'agent:first-option', 'agent:random'];

const cli = (args: string[]) => runCli(args, { cwd: dir });

let fullRunId = '';

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('run "npm run build" before the CLI tests (npm test does)');
  const r = await cli(['run', 'generated-tom', '--limit', '100', '--model', ...AGENTS, '--db', DB, '--quiet', '--json']);
  expect(r.code, r.stderr).toBe(0);
  fullRunId = JSON.parse(r.stdout).runId;
}, 120_000);

describe('irt calibrate --run-id', () => {
  it('calibrates on the stored run, with the stored item hashes', async () => {
    const r = await cli(['irt', 'calibrate', '--run-id', fullRunId, '--db', DB, '--out', 'bank.json', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.models).toBe(5);
    expect(summary.items).toBeGreaterThan(0);
    const bank = readIrtBank(join(dir, 'bank.json'));
    expect(bank.panel.source).toBe(`run ${fullRunId}`);
    expect(bank.panel.models.sort()).toEqual([...AGENTS].sort());
    expect(bank.items.every((i) => /^[0-9a-f]{64}$/.test(i.hash ?? ''))).toBe(true);
    expect(bank.warnings.some((w) => /no content hash/.test(w))).toBe(false);
  });

  it('refuses an unknown run and a missing panel', async () => {
    expect((await cli(['irt', 'calibrate', '--run-id', 'run-nope', '--db', DB, '--out', 'x.json'])).stderr).toContain('no run "run-nope"');
    expect((await cli(['irt', 'calibrate', '--out', 'x.json'])).stderr).toContain(
      'give the panel: --run-id ID... (stored runs) or --matrix FILE...',
    );
  });
});

describe('run --tiny and --adaptive', () => {
  it('runs the tiny items, prints the estimate and puts it in --json and the report', async () => {
    const args = ['run', 'generated-tom', '--limit', '100', '--model', 'agent:reality', '--db', DB, '--quiet'];
    const json = await cli([...args, '--tiny', '20', '--bank', 'bank.json', '--tiny-strategy', 'stratified', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout);
    expect(out.done).toBe(20);
    expect(out.runId).not.toBe(fullRunId);
    const [r] = out.irt;
    expect(r).toMatchObject({
      subject: 'agent:reality',
      suite: 'generated-tom',
      mode: 'tiny',
      strategy: 'stratified',
      itemsAsked: 20,
      suiteItems: 100,
    });
    expect(r.items).toHaveLength(20);
    // The same command again: nothing to run, the same estimate, printed as a table.
    const text = await cli([...args, '--tiny', '20', '--bank', 'bank.json', '--tiny-strategy', 'stratified']);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain('0 done, 0 failed, 20 already done');
    expect(text.stdout).toContain('estimated full-suite accuracy from the items asked');
    const whole = r.accuracy.find((a: { category: string | null }) => a.category === null);
    expect(text.stdout).toContain(`${(100 * whole.pIrt.estimate).toFixed(1)} [`);
    const report = await cli(['report', '--run-id', out.runId, '--db', DB, '--out', 'report']);
    expect(report.code, report.stderr).toBe(0);
    expect(readFileSync(join(dir, 'report', 'index.html'), 'utf8')).toContain('Estimated full-suite accuracy (item response theory)');
  });

  it('runs an adaptive test in waves to an item budget', async () => {
    const r = await cli([
      'run',
      'generated-tom',
      '--limit',
      '100',
      '--model',
      'agent:first-order',
      '--db',
      DB,
      '--quiet',
      '--json',
      '--adaptive',
      '--bank',
      'bank.json',
      '--se',
      '0.01',
      '--max-items',
      '12',
      '--adaptive-wave',
      '4',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.done).toBe(12);
    expect(out.irt[0]).toMatchObject({ mode: 'adaptive', stopReason: 'max-items', itemsAnswered: 12 });
  });

  it('runs the accuracy-targeted test on a multidimensional bank (--accuracy-se)', async () => {
    const cal = await cli(['irt', 'calibrate', '--run-id', fullRunId, '--db', DB, '--out', 'bank2.json', '--dims', '2', '--json']);
    expect(cal.code, cal.stderr).toBe(0);
    expect(readIrtBank(join(dir, 'bank2.json')).model).toBe('m2pl');
    const args = ['run', 'generated-tom', '--limit', '100', '--model', 'agent:first-order', '--db', DB, '--quiet', '--adaptive'];
    const r = await cli([...args, '--json', '--bank', 'bank2.json', '--accuracy-se', '0.001', '--max-items', '8', '--adaptive-wave', '4']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.done).toBe(8);
    expect(out.irt[0]).toMatchObject({ mode: 'adaptive', stopReason: 'max-items', itemsAnswered: 8 });
    expect(out.irt[0].accuracySe).toBeGreaterThan(0.001);
    // Ability's SE is the one-dimensional stop; a 2PL bank refuses the accuracy's.
    expect((await cli([...args, '--bank', 'bank.json', '--accuracy-se', '0.05'])).stderr).toContain(
      '--accuracy-se needs a multidimensional bank',
    );
  });

  it('takes the tiny settings from a config file, the bank relative to it', async () => {
    mkdirSync(join(dir, 'study'), { recursive: true });
    writeFileSync(
      join(dir, 'study', 'study.yaml'),
      'suites: [generated-tom]\nmodels: [agent:oracle]\nlimit: 100\nirt: { mode: tiny, bank: ../bank.json, k: 10, strategy: irt }\n',
    );
    const r = await cli(['run', '--config', join(dir, 'study', 'study.yaml'), '--db', DB, '--quiet', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).irt[0]).toMatchObject({ mode: 'tiny', strategy: 'irt', itemsAsked: 10 });
  });

  it('refuses bad flag combinations and a bank of other items', async () => {
    const base = ['run', 'generated-tom', '--limit', '100', '--model', 'agent:oracle', '--db', DB, '--quiet'];
    expect((await cli([...base, '--tiny', '10'])).stderr).toContain('--tiny needs an item bank: --bank bank.json');
    expect((await cli([...base, '--se', '0.3'])).stderr).toContain('--se need --tiny K or --adaptive');
    expect((await cli([...base, '--tiny', '10', '--adaptive', '--bank', 'bank.json'])).stderr).toContain(
      '--tiny and --adaptive exclude each other',
    );
    expect((await cli([...base, '--tiny', '10', '--bank', 'bank.json', '--max-items', '5'])).stderr).toContain(
      '--max-items belong to --adaptive',
    );
    expect((await cli([...base, '--tiny', '10', '--bank', 'bank.json', '--accuracy-se', '0.02'])).stderr).toContain(
      '--accuracy-se belong to --adaptive',
    );
    expect((await cli([...base, '--adaptive', '--bank', 'bank.json', '--accuracy-se', '2'])).stderr).toContain(
      '--accuracy-se expects a number between',
    );
    expect((await cli([...base, '--tiny', '10', '--bank', 'bank.json', '--tiny-strategy', 'best'])).stderr).toContain(
      '--tiny-strategy expects random, stratified, clustering',
    );
    expect((await cli([...base, '--tiny', '10', '--bank', 'bank.json', '--tiny-strategy', 'clustering'])).stderr).toContain(
      'give the panel matrix with --tiny-matrix FILE',
    );
    const other = await cli([...base, '--tiny', '10', '--bank', 'bank.json', '--limit', '60']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/bank\.json: bank bank-[0-9a-f]+: \d+ item\(s\) changed since calibration/);
  });
});
