import type { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, writeMatrixCsv, writeMatrixParquet } from '../../index.js';
import { formatCsv, isCategory } from '../../core/index.js';
import { simulatePanel } from '../../analysis/index.js';
import { intOption, numberOption } from '../options.js';

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
    .option('--general-loading <w>', 'weight of general ability in the ToM abilities (0..1)', numberOption('--general-loading'), 0.5)
    .option('--null-share <share>', 'share of items with no signal (discrimination 0)', numberOption('--null-share'), 0.25)
    .option('--controls <names>', 'general-ability control benchmarks', 'general1,general2')
    .option('--seed <s>', 'seed', intOption('--seed', 0), 0)
    .option('--format <f>', 'csv or parquet', 'csv')
    .action(
      (f: {
        out: string;
        models: number;
        benchmarks: string;
        categories: string;
        items: number;
        structure: string;
        generalLoading: number;
        nullShare: number;
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
          controls: Object.fromEntries(
            f.controls
              .split(',')
              .filter(Boolean)
              .map((c) => [c.trim(), 200]),
          ),
          seed: f.seed,
        });
        mkdirSync(f.out, { recursive: true });
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
        process.stdout.write(
          `wrote ${panel.matrices.length} ToM and ${panel.controlMatrices.length} control matrices (${f.format}) and scores.csv to ${f.out}\n`,
        );
      },
    );
}
