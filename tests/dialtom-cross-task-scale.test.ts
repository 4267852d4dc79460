// DialToM's cross-task agreement (section 5.3) and performance against model scale (section 5.1)
// from the paper's Table 3 with the released item counts, through the CLI. Expected values were
// computed independently with scipy (pearsonr, spearmanr; intervals with z = 1.959964) on the same pooled counts. The paper
// reports Spearman's rho = 0.67 across tasks (reproduced: 0.673) and Pearson's p = 0.35 (not
// reproduced by pooling: 0.210; the paper does not say how it aggregates).

import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { correlationTest, knownParameters, parseParameterTable, studentTwoSidedP } from '../src/studies/dialtom/index.js';
import { PUBLISHED_ITEMS, ratesCsv } from './helpers/dialtom-paper.js';
import { runCli } from './helpers/run-cli.js';

// Table 3's fourteenth model (the shared helper holds the thirteen of Table 19's gap test).
const LLAMA_8B = [30.39, 27.12, 34.51, 6.62, 16.75, 10.33];
function table3(): string {
  const rows = ['MI', 'ESC', 'PFG'].flatMap((d, i) => [
    `Llama 3.1 8B,${d},retrospective,${LLAMA_8B[i]},${PUBLISHED_ITEMS.retrospective[d]}`,
    `Llama 3.1 8B,${d},prospective,${LLAMA_8B[3 + i]},${PUBLISHED_ITEMS.prospective[d]}`,
  ]);
  return `${ratesCsv(PUBLISHED_ITEMS)}${rows.join('\n')}\n`;
}

function workspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mindscope-dialtom-tasks-'));
  writeFileSync(join(dir, 'table3.csv'), table3());
  return dir;
}

describe('correlation with intervals and p', () => {
  it('matches scipy: Student t p-values, Fisher-z intervals, NaN with a reason when undefined', () => {
    // scipy.stats.t.sf(2.0, 10) * 2
    expect(studentTwoSidedP(2, 10)).toBeCloseTo(0.07338803477074388, 12);
    const c = correlationTest([1, 2, 3, 4, 5], [2, 1, 4, 3, 5]);
    // pearsonr: 0.8, p 0.10408803866182788; spearmanr the same (no ties).
    expect(c.pearson.estimate).toBeCloseTo(0.8, 12);
    expect(c.pearson.p).toBeCloseTo(0.10408803866182788, 10);
    expect(c.pearson.lower).toBeCloseTo(Math.tanh(Math.atanh(0.8) - 1.959963984540054 / Math.sqrt(2)), 10);
    expect(c.spearman.p).toBeCloseTo(0.10408803866182788, 10);
    const flat = correlationTest([1, 1, 1], [1, 2, 3]);
    expect(Number.isNaN(flat.pearson.estimate) && Number.isNaN(flat.spearman.p)).toBe(true);
    expect(flat.reason).toMatch(/constant/);
  });
});

describe('analyze dialtom-cross-task', () => {
  it("reproduces section 5.3's Spearman rho from Table 3 (pooled over domains), with Pearson, intervals and p", async () => {
    const dir = workspace();
    const r = await runCli(['analyze', 'dialtom-cross-task', '--rates', 'table3.csv', '--json'], { cwd: dir });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    // Per-model accuracy: Llama 3.1 8B retrospective round(30.39% x 306) + ... = 306 of 999.
    const llama = out.accuracy.find((a: { model: string; task: string }) => a.model === 'Llama 3.1 8B' && a.task === 'retrospective');
    expect(llama).toMatchObject({ correct: 306, items: 999, domains: ['ESC', 'MI', 'PFG'] });
    expect(llama.lower).toBeLessThan(llama.rate);
    const pooled = out.correlations.find((c: { scope: string }) => c.scope === 'pooled');
    expect(pooled.tasks).toEqual(['retrospective', 'prospective']);
    expect(pooled.n).toBe(14);
    expect(pooled.spearman.estimate).toBeCloseTo(0.6729074889867842, 10);
    expect(pooled.spearman.p).toBeCloseTo(0.008356428126368616, 8);
    expect(pooled.spearman.lower).toBeCloseTo(0.1602079499301976, 6);
    expect(pooled.spearman.upper).toBeCloseTo(0.8996680731924107, 6);
    expect(pooled.pearson.estimate).toBeCloseTo(0.35690647814877197, 10);
    expect(pooled.pearson.p).toBeCloseTo(0.21032201462421501, 8);
    expect(pooled.pearson.lower).toBeCloseTo(-0.2142437872877347, 6);
    expect(pooled.pearson.upper).toBeCloseTo(0.7461832957388119, 6);
    const mi = out.correlations.find((c: { scope: string }) => c.scope === 'MI');
    expect(mi.pearson.estimate).toBeCloseTo(0.4225795587143526, 10);
    expect(mi.spearman.p).toBeCloseTo(0.02488299416170009, 8);
    const text = await runCli(['analyze', 'dialtom-cross-task', '--rates', 'table3.csv'], { cwd: dir });
    expect(text.stdout).toMatch(
      /retrospective ~ prospective\s+pooled\s+14\s+0\.357 \[-0\.214, 0\.746\]\s+0\.2103\s+0\.673 \[0\.160, 0\.900\]\s+0\.0084/,
    );
    // A stored run's subjects join the published ones (fixtures: four items per task and domain).
    const run = await runCli(
      [
        ...['run', 'dialtom-retrospective', 'dialtom-prospective', '--data', join(__dirname, 'fixtures', 'data')],
        ...[
          '--model',
          'agent:answer-key',
          '--model',
          'agent:first-option',
          '--model',
          'agent:random',
          '--db',
          'r.db',
          '--run-id',
          'agents',
        ],
      ],
      { cwd: dir },
    );
    expect(run.code).toBe(0);
    const both = JSON.parse(
      (
        await runCli(['analyze', 'dialtom-cross-task', '--rates', 'table3.csv', '--run-id', 'agents', '--db', 'r.db', '--json'], {
          cwd: dir,
        })
      ).stdout,
    );
    expect(both.accuracy.filter((a: { model: string }) => a.model === 'agent:answer-key')).toEqual([
      expect.objectContaining({ task: 'retrospective', correct: 12, items: 12, rate: 1 }),
      expect.objectContaining({ task: 'prospective', correct: 12, items: 12, rate: 1 }),
    ]);
    expect(both.correlations.find((c: { scope: string }) => c.scope === 'pooled').n).toBe(17);
    const none = await runCli(['analyze', 'dialtom-cross-task'], { cwd: dir });
    expect(none.code).not.toBe(0);
    expect(none.stderr).toMatch(/needs --rates FILE or --run-id ID/);
  });
});

describe('analyze dialtom-scale', () => {
  it('knows the open-weights counts by name or spec, and reads a parameters file with line numbers in its errors', () => {
    expect(knownParameters('meta-llama/llama-3.1-8b-instruct')).toEqual({ total: 8, family: 'Llama' });
    expect(knownParameters('openrouter:deepseek/deepseek-chat-v3-0324')).toEqual({ total: 671, active: 37, family: 'DeepSeek' });
    expect(knownParameters('Qwen3 235B')).toMatchObject({ total: 235, active: 22 });
    expect(knownParameters('Gemini 2.5 Pro')).toBeUndefined();
    expect(parseParameterTable('model,params_b,active_b,family\nX,30,3,Fam\n').get('X')).toEqual({ total: 30, active: 3, family: 'Fam' });
    expect(() => parseParameterTable('model,params_b\nX,big\n', 'p.csv')).toThrow(/p\.csv:2: params_b must be a positive number/);
    expect(() => parseParameterTable('model,params_b,active_b\nX,3,30\n', 'p.csv')).toThrow(/p\.csv:2: active_b \(30\) exceeds/);
  });

  it('correlates correctness with scale per task, names within-family inversions and models without counts, and plots', async () => {
    const dir = workspace();
    const r = await runCli(['analyze', 'dialtom-scale', '--rates', 'table3.csv', '--plot', 'scale.svg', '--json'], { cwd: dir });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.unknown).toEqual(['Gemini 3 Pro', 'GPT-5', 'GPT-4.1', 'Gemini 2.5 Pro', 'Gemini 2.5 Flash']);
    const retro = out.correlations.find((c: { task: string }) => c.task === 'retrospective');
    expect(retro.n).toBe(9);
    expect(retro.spearman.estimate).toBeCloseTo(0.912141875543738, 10);
    expect(retro.spearman.p).toBeCloseTo(0.000606850679471502, 9);
    expect(retro.pearson.estimate).toBeCloseTo(0.9045428098809948, 10);
    const pro = out.correlations.find((c: { task: string }) => c.task === 'prospective');
    expect(pro.spearman.estimate).toBeCloseTo(0.3, 10);
    expect(pro.spearman.p).toBeCloseTo(0.43284532670948234, 8);
    // The paper's Llama anomaly: the 8B model above Maverick on the prospective task.
    expect(out.inversions).toContainEqual(
      expect.objectContaining({ task: 'prospective', family: 'Llama', smaller: 'Llama 3.1 8B', larger: 'Llama 4 Maverick' }),
    );
    expect(out.inversions.filter((i: { task: string }) => i.task === 'retrospective')).toEqual([]);
    const svg = readFileSync(join(dir, 'scale.svg'), 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('Llama 3.1 8B');
    // Active parameters of the mixture-of-experts models change the retrospective ranking.
    const active = JSON.parse(
      (await runCli(['analyze', 'dialtom-scale', '--rates', 'table3.csv', '--measure', 'active', '--json'], { cwd: dir })).stdout,
    );
    expect(active.correlations[0].spearman.estimate).toBeCloseTo(0.5188329934285483, 10);
    // Counts given for closed models bring them in.
    writeFileSync(join(dir, 'params.csv'), 'model,params_b,active_b,family\nGPT-5,1800,,GPT\nGPT-4.1,1000,,GPT\n');
    const given = JSON.parse(
      (await runCli(['analyze', 'dialtom-scale', '--rates', 'table3.csv', '--params', 'params.csv', '--json'], { cwd: dir })).stdout,
    );
    expect(given.unknown).not.toContain('GPT-5');
    expect(given.points.find((p: { model: string }) => p.model === 'GPT-5')).toMatchObject({
      params: 1800,
      source: 'given',
      family: 'GPT',
    });
    expect(given.correlations[0].n).toBe(11);
    const text = await runCli(['analyze', 'dialtom-scale', '--rates', 'table3.csv'], { cwd: dir });
    expect(text.stdout).toMatch(/retrospective\s+9\s+0\.912 \[0\.528, 0\.986\]\s+0\.0006/);
    expect(text.stdout).toContain('prospective, Llama: Llama 3.1 8B 11.9% > Llama 4 Maverick 9.0%');
    expect(existsSync(join(dir, 'scale.svg'))).toBe(true);
  });
});
