// The three-stage audit recovers known structure from simulated 2PL panels, and bad matrices
// get a clear error or a stated exclusion.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResponseMatrix } from '../src/index.js';
import { auditMatrices, simulatePanel } from '../src/studies/audit/index.js';
import { runCli } from './helpers/run-cli.js';

const cats = { belief: 70, desire: 50, emotion: 50, intention: 50, knowledge: 50 };
const fast = { convergence: { iterations: 200 }, crossFit: { iterations: 200 }, parallelIterations: 20 };

describe('audit on simulated panels', () => {
  it('one latent ToM factor: one component and one factor, convergence accepted, positive filter gain', async () => {
    const panel = simulatePanel({
      models: 27,
      benchmarks: [
        { name: 'A', items: cats },
        { name: 'B', items: cats },
      ],
      structure: 'single',
      seed: 3,
    });
    const a = await auditMatrices(panel.matrices, fast);
    expect(a.structure.map((s) => [s.name, s.method, s.nComponents, s.nFactors, s.efa?.factors])).toEqual([
      ['A', 'wide', 1, 1, 1],
      ['B', 'wide', 1, 1, 1],
      ['pooled', 'wide', 1, 1, 1],
    ]);
    expect(a.convergence.overallMeanTau).toBeGreaterThan(0.6);
    expect(a.convergence.cells.filter((c) => c.accepted).length).toBeGreaterThanOrEqual(4);
    expect(a.crossFit.aggregate.meanDelta).toBeGreaterThan(0);
    expect(a.crossFit.cells.every((c) => c.lower > 0)).toBe(true);
    // The filter removes most no-signal items and keeps most signal items.
    const flags = a.filter.benchmarks[0]!.flags;
    const label = new Map(panel.matrices[0]!.matrix.items.map((i) => [i.itemId, i.originalLabel]));
    const dropShare = (l: string) =>
      flags.filter((f) => label.get(f.id) === l && !f.kept).length / flags.filter((f) => label.get(f.id) === l).length;
    expect(dropShare('no-signal')).toBeGreaterThan(0.7);
    expect(dropShare('signal')).toBeLessThan(0.25);
  });

  it('independent category abilities: as many components and factors as categories, not one', async () => {
    const panel = simulatePanel({
      models: 27,
      benchmarks: [
        { name: 'A', items: cats },
        { name: 'B', items: cats },
      ],
      structure: 'independent',
      generalLoading: 0,
      seed: 3,
    });
    const a = await auditMatrices(panel.matrices, fast);
    for (const s of a.structure) expect([s.nComponents, s.nFactors, s.efa?.factors, s.efa?.varianceShare.length]).toEqual([5, 5, 5, 5]);
    expect(a.structure[0]!.method).toBe('wide');
    expect(a.structure[0]!.note).toMatch(/rank at most 26/);
    // PCA only: no parallel analysis, no EFA, the same components' shares.
    const pcaOnly = await auditMatrices(panel.matrices, { ...fast, structure: 'pca' });
    expect(pcaOnly.structure.map((s) => [s.nComponents, s.nFactors, s.efa])).toEqual(a.structure.map(() => [null, null, null]));
    expect(pcaOnly.structure.map((s) => s.pcShares)).toEqual(a.structure.map((s) => s.pcShares));
  });

  it('is deterministic for a seed', async () => {
    const panel = simulatePanel({
      models: 10,
      benchmarks: [
        { name: 'A', items: { belief: 30 } },
        { name: 'B', items: { belief: 30 } },
      ],
      structure: 'single',
      seed: 1,
    });
    const strip = (x: Awaited<ReturnType<typeof auditMatrices>>) => JSON.stringify({ ...x, timingsMs: null });
    expect(strip(await auditMatrices(panel.matrices, fast))).toBe(strip(await auditMatrices(panel.matrices, fast)));
  });
});

describe('bad matrices', () => {
  const m = (cells: Array<Array<number | null>>, subjects = ['m1', 'm2', 'm3'], category = 'belief'): ResponseMatrix => ({
    subjects,
    items: cells.map((_, i) => ({ suite: 's', itemId: `i${i}`, category, originalLabel: '' })),
    cells,
  });
  it('non-binary cells, too few models, missing cells, categories in one benchmark only', async () => {
    await expect(
      auditMatrices([
        { name: 'A', matrix: m([[1, 0.5, 1]]) },
        { name: 'B', matrix: m([[1, 0, 1]]) },
      ]),
    ).rejects.toThrow(/A: item i0 has the non-binary cell 0.5 for m2/);
    await expect(
      auditMatrices([
        { name: 'A', matrix: m([[1, 0]], ['m1', 'm2']) },
        { name: 'B', matrix: m([[1, 0]], ['m1', 'm2']) },
      ]),
    ).rejects.toThrow(/at least 3 models present in every benchmark; found 2/);
    const rows = (k: number) => Array.from({ length: k }, (_, i) => [i % 2, (i + 1) % 2, i % 3 === 0 ? 1 : 0, 1, 0]);
    const five = ['m1', 'm2', 'm3', 'm4', 'm5'];
    const withGap = rows(12).map((r, i) => (i === 0 ? [null, ...r.slice(1)] : r));
    const a = await auditMatrices(
      [
        { name: 'A', matrix: m(withGap, five) },
        {
          name: 'B',
          matrix: {
            ...m(rows(12), five),
            items: m(rows(12), five).items.map((it, i) => ({ ...it, category: i < 6 ? 'belief' : 'desire' })),
          },
        },
      ],
      fast,
    );
    expect(a.benchmarks[0]).toMatchObject({ name: 'A', droppedIncomplete: 1, items: 11 });
    expect(a.convergence.pairs[0]!.excludedCategories).toEqual(['desire']);
    expect(JSON.stringify(a.convergence)).not.toMatch(/NaN|null/);
  });

  it('the CLI reads CSV matrices and names a bad file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-audit-m-'));
    const sim = await runCli(['simulate', 'panel', '--out', dir, '--items', '20', '--models', '12', '--seed', '5']);
    expect(sim.code).toBe(0);
    const r = await runCli([
      'audit',
      '--matrix',
      `A=${join(dir, 'benchA.csv')}`,
      `B=${join(dir, 'benchB.csv')}`,
      '--bootstrap',
      '50',
      '--seeds',
      '2',
      '--json',
    ]);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.convergence.cells).toHaveLength(5);
    expect(out.crossFit.settings).toMatchObject({ folds: 5, seeds: 2 });
    // Worker threads (the compiled CLI has them) give the same audit as one thread in process.
    const one = await runCli([
      'audit',
      '--matrix',
      `A=${join(dir, 'benchA.csv')}`,
      `B=${join(dir, 'benchB.csv')}`,
      '--bootstrap',
      '50',
      '--seeds',
      '2',
      '--threads',
      '1',
      '--json',
    ]);
    const strip = (text: string) => JSON.stringify({ ...JSON.parse(text), timingsMs: null, threads: null });
    expect(out.threads).toBe(Math.min(4, availableParallelism()));
    expect(JSON.parse(one.stdout).threads).toBe(1);
    expect(strip(one.stdout)).toBe(strip(r.stdout));
    // General-ability controls from the simulated score table: discriminant validity.
    const d = await runCli([
      'audit',
      '--matrix',
      `A=${join(dir, 'benchA.csv')}`,
      `B=${join(dir, 'benchB.csv')}`,
      '--bootstrap',
      '50',
      '--seeds',
      '1',
      '--scores',
      join(dir, 'scores.csv'),
      '--general',
      'general1,general2',
      '--json',
    ]);
    expect(d.code).toBe(0);
    const disc = JSON.parse(d.stdout).discriminant;
    expect(disc.withinTom[0]).toMatchObject({ a: 'A', b: 'B' });
    expect(disc.partial).toHaveLength(3);
    expect(disc.varianceDecomposition.map((v: { benchmark: string }) => v.benchmark)).toEqual(['A', 'B']);
    // The same controls as response matrices: the same scores, so the same discriminant audit.
    const dm = await runCli([
      'audit',
      '--matrix',
      `A=${join(dir, 'benchA.csv')}`,
      `B=${join(dir, 'benchB.csv')}`,
      '--bootstrap',
      '50',
      '--seeds',
      '1',
      '--control',
      `general1=${join(dir, 'general1.csv')}`,
      `general2=${join(dir, 'general2.csv')}`,
      '--json',
      '--report',
      join(dir, 'report'),
    ]);
    expect(dm.code).toBe(0);
    const html = readFileSync(join(dir, 'report', 'audit.html'), 'utf8');
    expect(html).toContain('Discriminant validity');
    expect(html.match(/<svg/g)).toHaveLength(6); // the stage-2 retention chart (Figure 2) joins the five charts
    expect(JSON.parse(dm.stdout).controls[0]).toEqual({ name: 'general1', source: 'matrix, 200 items' });
    const discM = JSON.parse(dm.stdout).discriminant;
    expect(discM.partial.map((p: { partial: number }) => p.partial)).toEqual(disc.partial.map((p: { partial: number }) => p.partial));
    expect(discM.varianceDecomposition).toEqual(disc.varianceDecomposition);
    // A control matrix without some audited model is named, with the models it lacks.
    writeFileSync(join(dir, 'short.csv'), 'suite,item_id,category,original_label,model-01\ng,1,general,l,1\n');
    const short = await runCli([
      'audit',
      '--matrix',
      `A=${join(dir, 'benchA.csv')}`,
      `B=${join(dir, 'benchB.csv')}`,
      '--bootstrap',
      '20',
      '--seeds',
      '1',
      '--structure',
      'pca',
      '--control',
      `short=${join(dir, 'short.csv')}`,
    ]);
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/control "short" has no responses from 11 audited model\(s\): model-02/);
    writeFileSync(join(dir, 'bad.csv'), 'suite,item_id,category,original_label,m1,m2,m3\nx,1,belief,l,1,0\n');
    const bad = await runCli(['audit', '--matrix', join(dir, 'bad.csv'), join(dir, 'benchA.csv')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad\.csv:2: row has 6 fields, the header has 7/);
  });
});

describe('packed bootstrap sums', () => {
  it('equal the plain per-model sums exactly', async () => {
    const { PackedItems, flatten, flatAccuracies } = await import('../src/studies/audit/index.js');

    const { createRng } = await import('../src/core/index.js');
    const rng = createRng(4);
    for (const models of [3, 27, 30, 32, 33, 70]) {
      const items = Array.from({ length: 500 }, (_, k) => ({
        id: String(k),
        category: 'belief',
        responses: Uint8Array.from({ length: models }, () => (rng.next() < 0.5 ? 1 : 0)),
      }));
      const idx = rng.fillInts(new Int32Array(500), 500);
      const packed = new PackedItems(items, models).accuracies(idx, new Float64Array(models));
      expect(Array.from(packed)).toEqual(Array.from(flatAccuracies(flatten(items, models), models, idx)));
    }
  });
});

describe('audit report', () => {
  it('renders forest plots, the scree plot and the tables as one self-contained HTML file', async () => {
    const { renderAuditReport } = await import('../src/studies/audit/index.js');
    const panel = simulatePanel({
      models: 12,
      benchmarks: [
        { name: 'A', items: { belief: 40, desire: 40 } },
        { name: 'B', items: { belief: 40, desire: 40 } },
      ],
      structure: 'single',
      seed: 2,
    });
    const html = await renderAuditReport(await auditMatrices(panel.matrices, fast));
    expect(html.match(/<svg/g)).toHaveLength(4); // forest, retention (Figure 2), cross-fit, scree
    expect(html).toContain('A ~ B belief');
    expect(html).toContain('Per-model accuracy');
    expect(html).not.toMatch(/NaN|<script/);
  });
});
