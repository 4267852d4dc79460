import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as stats from '../../../stats/index.js';
import { ConfigError, writeMatrixCsv, writeMatrixParquet } from '../../../index.js';
import { formatCsv, isCategory, makeDirectory } from '../../../core/index.js';
import { intervalCoverage, simulatePanel, trueStage1Tau } from '../analysis/index.js';
import { formatTextTable } from '../../../report/index.js';
import { intOption, numberOption, printResult } from '../../../cli/toolkit.js';

export function registerSimulate(program: Command): void {
  const sim = program.command('simulate').description('simulated data with known structure');
  sim
    .command('panel')
    .description('model x item matrices from a multidimensional 2PL IRT model, plus a per-model score table')
    .requiredOption('--out <dir>', 'output folder')
    .option('--models <n>', 'number of models', intOption('--models', 3), 27)
    .option('--benchmarks <names>', 'ToM benchmark names', 'benchA,benchB,benchC')
    .option('--categories <list>', 'categories', 'belief,desire,emotion,intention,knowledge')
    .option('--items <n>', 'items per benchmark and category', intOption('--items', 2), 100)
    .option('--structure <s>', 'single (one latent ToM factor) or independent (one per category)', 'single')
    .option('--general-loading <w>', 'weight of general ability in the ToM abilities (0..1)', numberOption('--general-loading', 0, 1), 0.5)
    .option('--null-share <share>', 'share of items with no signal (discrimination 0)', numberOption('--null-share', 0, 1), 0.25)
    .option(
      '--benchmark-share <share>',
      'benchmark-specific share of each category ability (0..1; 0: every benchmark measures the same ability, true tau 1)',
      numberOption('--benchmark-share', 0, 1),
      0,
    )
    .option('--controls <names>', 'general-ability control benchmarks', 'general1,general2')
    .option('--seed <s>', 'seed', intOption('--seed', 0), 0)
    .option('--format <f>', 'csv or parquet', 'csv')
    .option('--json', 'print JSON')
    .action(
      (f: {
        json?: boolean;
        out: string;
        models: number;
        benchmarks: string;
        categories: string;
        items: number;
        structure: string;
        generalLoading: number;
        nullShare: number;
        benchmarkShare: number;
        controls: string;
        seed: number;
        format: string;
      }) => {
        if (f.structure !== 'single' && f.structure !== 'independent')
          throw new ConfigError(`--structure must be single or independent, not "${f.structure}"`);
        if (f.format !== 'csv' && f.format !== 'parquet') throw new ConfigError(`--format must be csv or parquet, not "${f.format}"`);
        const categories = f.categories.split(',').map((c) => c.trim());
        for (const c of categories) if (!isCategory(c)) throw new ConfigError(`--categories: "${c}" is not an ATOMS category`);
        const panel = simulatePanel({
          models: f.models,
          benchmarks: f.benchmarks
            .split(',')
            .map((name) => ({ name: name.trim(), items: Object.fromEntries(categories.map((c) => [c, f.items])) })),
          structure: f.structure,
          generalLoading: f.generalLoading,
          noSignalShare: f.nullShare,
          benchmarkShare: f.benchmarkShare,
          controls: Object.fromEntries(
            f.controls
              .split(',')
              .filter(Boolean)
              .map((c) => [c.trim(), 200]),
          ),
          seed: f.seed,
        });
        makeDirectory(f.out);
        for (const { name, matrix } of [...panel.matrices, ...panel.controlMatrices]) {
          const path = join(f.out, `${name}.${f.format}`);
          if (f.format === 'csv') writeMatrixCsv(path, matrix);
          else writeMatrixParquet(path, matrix);
        }
        const names = [...panel.matrices.map((m) => m.name), ...Object.keys(panel.controlScores)];
        const rows = panel.models.map((model, m) => [
          model,
          ...panel.matrices.map(({ matrix }) => matrix.cells.reduce((s, row) => s + (row[m] ?? 0), 0) / matrix.cells.length),
          ...Object.values(panel.controlScores).map((scores) => scores[m]),
        ]);
        writeFileSync(join(f.out, 'scores.csv'), formatCsv(['model', ...names], rows));
        // The known stage-1 estimand of every benchmark pair and category.
        const truth: Array<Array<string | number>> = [];
        panel.matrices.forEach((a, i) =>
          panel.matrices.slice(i + 1).forEach((b) => {
            for (const c of categories) truth.push([a.name, b.name, c, trueStage1Tau(panel, a.name, b.name, c)]);
          }),
        );
        writeFileSync(join(f.out, 'true-tau.csv'), formatCsv(['benchmark_a', 'benchmark_b', 'category', 'true_tau'], truth));
        printResult(
          f.json,
          {
            out: f.out,
            format: f.format,
            matrices: panel.matrices.map((m) => m.name),
            controls: panel.controlMatrices.map((m) => m.name),
            files: ['scores.csv', 'true-tau.csv'],
          },
          `wrote ${panel.matrices.length} ToM and ${panel.controlMatrices.length} control matrices (${f.format}), scores.csv and true-tau.csv to ${f.out}`,
        );
      },
    );
  sim
    .command('coverage')
    .description('coverage of the stage-1 intervals (percentile, basic, BC, BCa) of a known true tau, over simulated panels')
    .option('--replications <n>', 'simulated panels (each with a new set of models and items)', intOption('--replications', 1), 200)
    .option('--models <n>', 'number of models', intOption('--models', 3), 27)
    .option('--items <n>', 'items per benchmark and category', intOption('--items', 2), 300)
    .option('--categories <list>', 'categories (cells per panel)', 'belief,desire,emotion,intention,knowledge')
    .option(
      '--benchmark-share <share>',
      'benchmark-specific share of each category ability (0..1)',
      numberOption('--benchmark-share', 0, 1),
      0.1,
    )
    .option('--general-loading <w>', 'weight of general ability in the ToM abilities (0..1)', numberOption('--general-loading', 0, 1), 0.5)
    .option('--null-share <share>', 'share of items with no signal', numberOption('--null-share', 0, 1), 0.25)
    .option('--bootstrap <n>', 'bootstrap resamples per cell', intOption('--bootstrap', 10), 1000)
    .option('--seed <s>', 'seed', intOption('--seed', 0), 0)
    .option('--json', 'print JSON')
    .action(
      (f: {
        replications: number;
        models: number;
        items: number;
        categories: string;
        benchmarkShare: number;
        generalLoading: number;
        nullShare: number;
        bootstrap: number;
        seed: number;
        json?: boolean;
      }) => {
        const categories = f.categories.split(',').map((c) => c.trim());
        for (const c of categories) if (!isCategory(c)) throw new ConfigError(`--categories: "${c}" is not an ATOMS category`);
        const r = intervalCoverage({
          replications: f.replications,
          models: f.models,
          items: f.items,
          categories,
          benchmarkShare: f.benchmarkShare,
          generalLoading: f.generalLoading,
          noSignalShare: f.nullShare,
          iterations: f.bootstrap,
          seed: f.seed,
          methods: stats.INTERVAL_METHODS,
        });
        if (f.json) {
          process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
          return;
        }
        const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
        process.stdout.write(
          `stage-1 interval coverage: ${f.replications} panels x ${categories.length} cells, ${f.models} models, ${f.items} items per benchmark and category, benchmark share ${f.benchmarkShare}, ${f.bootstrap} resamples; mean true tau ${r.meanTrueTau.toFixed(3)}, mean estimate ${r.meanEstimate.toFixed(3)}\n${formatTextTable(
            ['interval', 'coverage (nominal 95%)', 'se', 'below truth', 'above truth', 'mean width', 'excludes its estimate'],
            r.rows.map((x) => [
              x.method,
              pct(x.coverage),
              pct(x.se),
              String(x.below),
              String(x.above),
              x.meanWidth.toFixed(3),
              String(x.excludeEstimate),
            ]),
          )}\n`,
        );
      },
    );
}
