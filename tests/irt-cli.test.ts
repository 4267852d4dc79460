// `mindscope irt ...` as a user runs it (the built CLI, run in process): calibrate a 3PL bank
// with content hashes from a generic MCQ file, choose a tiny set, estimate from answers, refuse
// the bank once an item's text changes, replay adaptive tests, simulate, chart; bad flags.

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeMatrixCsv } from '../src/index.js';
import { formatCsv } from '../src/core/index.js';
import { simulateIrtPanel } from '../src/analysis/index.js';
import { runCli } from './helpers/run-cli.js';

const ROOT = join(__dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-irt-cli-'));
const FIELDS = 'id=id,question=question,options=options,answer=answer,category=category';

const cli = (args: string[]) => runCli(args, { cwd: dir });

const ids = Array.from({ length: 40 }, (_, k) => `q${k + 1}`);
function writeItems(changedId?: string) {
  const lines = ids.map((id, k) =>
    JSON.stringify({
      id,
      question: `Where will Sally look for the marble? (${id}${id === changedId ? ', reworded' : ''})`,
      options: ['basket', 'box', 'bag', 'drawer'],
      answer: 'A',
      category: k % 2 === 0 ? 'belief' : 'desire',
    }),
  );
  writeFileSync(join(dir, 'items.jsonl'), `${lines.join('\n')}\n`);
}

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'cli', 'main.js'))) throw new Error('run "npm run build" before the CLI tests (npm test does)');
  writeItems();
  // 30 simulated models answering the 40 items from a 3PL with a 1/4 floor.
  const sim = simulateIrtPanel({
    models: 30,
    suites: [{ name: 'mcq', items: { belief: 20, desire: 20 } }],
    model: '3pl',
    guessing: 0.25,
    seed: 5,
  });
  const byCat = { belief: ids.filter((_, k) => k % 2 === 0), desire: ids.filter((_, k) => k % 2 === 1) };
  const counters = { belief: 0, desire: 0 };
  sim.matrix.items = sim.matrix.items.map((it) => ({
    ...it,
    itemId: byCat[it.category as 'belief' | 'desire'][counters[it.category as 'belief' | 'desire']++]!,
  }));
  writeMatrixCsv(join(dir, 'panel.csv'), sim.matrix);
});

describe('mindscope irt', () => {
  it('calibrate: a 3PL bank with 1/k floors from the items and their content hashes', async () => {
    const r = await cli([
      'irt',
      'calibrate',
      '--matrix',
      'panel.csv',
      '--model',
      '3pl',
      '--guessing',
      'options',
      '--items',
      'mcq',
      '--data',
      'items.jsonl',
      '--fields',
      FIELDS,
      '--out',
      'bank.json',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual([
      'bankId',
      'out',
      'model',
      'models',
      'items',
      'dropped',
      'converged',
      'iterations',
      'logLikelihood',
      'misfitItems',
      'groups',
      'warnings',
    ]);
    expect(out).toMatchObject({ model: '3pl', models: 30, items: 40, dropped: 0, converged: true });
    const bank = JSON.parse(readFileSync(join(dir, 'bank.json'), 'utf8'));
    expect(bank.items.every((it: { c: number; hash: string | null }) => it.c === 0.25 && /^[0-9a-f]{64}$/.test(it.hash ?? ''))).toBe(true);
  });

  it('tiny, then estimate from the tiny answers alone (checked against the current items)', async () => {
    const t = await cli(['irt', 'tiny', '--bank', 'bank.json', '--k', '10', '--strategy', 'irt', '--out', 'tiny.json', '--json']);
    expect(t.code).toBe(0);
    const tiny = JSON.parse(t.stdout);
    expect(tiny.items).toHaveLength(10);
    // No --strategy: the default run --tiny uses (30 panel models, no --matrix: stratified; with it: correctness).
    const plain = await cli(['irt', 'tiny', '--bank', 'bank.json', '--k', '10', '--out', 'tiny-default.json', '--json']);
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout)).toMatchObject({ strategy: 'stratified' });
    const withPanel = await cli([
      'irt',
      'tiny',
      '--bank',
      'bank.json',
      '--k',
      '10',
      '--matrix',
      'panel.csv',
      '--out',
      'tiny-default.json',
      '--json',
    ]);
    expect(JSON.parse(withPanel.stdout)).toMatchObject({ strategy: 'correctness' });
    const panel = readFileSync(join(dir, 'panel.csv'), 'utf8').trim().split('\n');
    const header = panel[0]!.split(',');
    const keep = new Set(tiny.items.map((i: { id: string }) => i.id));
    const rows = panel
      .slice(1)
      .map((l) => l.split(','))
      .filter((f) => keep.has(f[1]!))
      .map((f) => [f[0]!, f[1]!, f[2]!, f[3]!, f[4]!]);
    writeFileSync(join(dir, 'answers.csv'), formatCsv(header.slice(0, 5), rows));
    const e = await cli([
      'irt',
      'estimate',
      '--bank',
      'bank.json',
      '--answers',
      'answers.csv',
      '--tiny',
      'tiny.json',
      '--items',
      'mcq',
      '--data',
      'items.jsonl',
      '--fields',
      FIELDS,
      '--json',
    ]);
    expect(e.stderr).toBe('');
    expect(e.code).toBe(0);
    const [res] = JSON.parse(e.stdout);
    expect(res.subject).toBe(header[4]);
    expect(res.answered).toBe(10);
    const all = res.rows.find((r: { category: string | null }) => r.category === null);
    expect(all.items).toBe(40);
    for (const k of ['anchor', 'irt', 'pIrt', 'gpIrt']) {
      expect(all[k].estimate).toBeGreaterThanOrEqual(0);
      expect(all[k].lower).toBeLessThanOrEqual(all[k].estimate);
      expect(all[k].upper).toBeGreaterThanOrEqual(all[k].estimate);
    }
    // --data is the data root of the suites that read files: a generated suite beside them takes none (it was refused).
    const mixed = await cli(
      ['irt', 'estimate', '--bank', 'bank.json', '--answers', 'answers.csv', '--tiny', 'tiny.json'].concat([
        '--items',
        'mcq',
        'generated-tom',
        '--data',
        'items.jsonl',
        '--fields',
        FIELDS,
        '--json',
      ]),
    );
    expect(mixed.stderr).toBe('');
    expect(mixed.code).toBe(0);
    const text = await cli(['irt', 'estimate', '--bank', 'bank.json', '--answers', 'answers.csv', '--tiny', 'tiny.json']);
    expect(text.stdout).toMatch(/p-IRT % \[95%\]/);
  });

  it('refuses the bank once an item changed, naming it', async () => {
    writeItems('q7');
    const e = await cli([
      'irt',
      'estimate',
      '--bank',
      'bank.json',
      '--answers',
      'answers.csv',
      '--items',
      'mcq',
      '--data',
      'items.jsonl',
      '--fields',
      FIELDS,
    ]);
    expect(e.code).toBe(1);
    expect(e.stderr).toMatch(/bank\.json: bank bank-[0-9a-f]+: 1 item\(s\) changed since calibration \(content hash differs\): mcq\/q7\./);
    writeItems();
  });

  it('adaptive: replays tests on recorded answers', async () => {
    const r = await cli(['irt', 'adaptive', '--bank', 'bank.json', '--answers', 'panel.csv', '--se', '0.5', '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out).toHaveLength(30);
    for (const s of out) {
      expect(s.itemsUsed).toBe(s.items.length);
      expect(s.itemsUsed).toBeLessThanOrEqual(40);
      expect(s.fullAccuracy).toBeGreaterThanOrEqual(0);
    }
    expect(out.some((s: { stopReason: string }) => s.stopReason === 'target-se')).toBe(true);
  });

  it('simulate and report write their files', async () => {
    const s = await cli(['irt', 'simulate', '--out', 'sim', '--models', '6', '--items', '3', '--model', '2pl', '--json']);
    expect(s.code).toBe(0);
    expect(JSON.parse(s.stdout)).toMatchObject({ models: 6, items: 15 });
    const truth = JSON.parse(readFileSync(join(dir, 'sim', 'truth.json'), 'utf8'));
    expect(truth.items).toHaveLength(15);
    const bf = await cli([
      'irt',
      'calibrate',
      '--matrix',
      join('sim', 'matrix.csv'),
      '--model',
      'bifactor',
      '--out',
      'bifactor.json',
      '--json',
    ]);
    expect(bf.stderr).toBe('');
    expect(JSON.parse(bf.stdout)).toMatchObject({ model: 'bifactor', models: 6, items: 15 });
    const rep = await cli(['irt', 'report', '--bank', 'bank.json', '--out', 'rep']);
    expect(rep.code).toBe(0);
    for (const f of ['item-curves.svg', 'information.svg', 'wright-map.svg'])
      expect(readFileSync(join(dir, 'rep', f), 'utf8').startsWith('<svg')).toBe(true);
  });

  it('bad flags: one line naming the flag', async () => {
    const r = await cli(['irt', 'calibrate', '--matrix', 'panel.csv', '--model', '4pl', '--out', 'x.json']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('mindscope: --model must be 1pl, 2pl, 3pl or bifactor, not "4pl"\n');
    const t = await cli(['irt', 'tiny', '--bank', 'bank.json', '--strategy', 'best', '--out', 'x.json']);
    expect(t.stderr).toMatch(/--strategy must be one of random, stratified, correctness, irt, information/);
    const g = await cli(['irt', 'calibrate', '--matrix', 'panel.csv', '--model', '3pl', '--out', 'x.json']);
    expect(g.stderr).toMatch(/--model 3pl needs --guessing/);
  });
});
