// `mindscope irt simulate`: a panel drawn from a known IRT model, written as a response matrix
// with the true parameters beside it, to check that calibration recovers them.

import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, writeMatrixCsv, writeMatrixParquet } from '../../../index.js';
import { makeDirectory } from '../../../core/index.js';
import { simulateIrtPanel } from '../../../analysis/index.js';
import { intOption, numberOption } from '../../options.js';
import { print } from './shared.js';

export function registerSimulate(irt: Command): void {
  irt
    .command('simulate')
    .description('simulate a panel from a known IRT model: a response matrix and the true parameters')
    .requiredOption('--out <dir>', 'output folder')
    .option('--models <n>', 'models', intOption('--models', 1), 100)
    .option('--items <n>', 'items per suite and category', intOption('--items', 1), 100)
    .option('--suites <names>', 'suite names', 'sim')
    .option('--categories <list>', 'categories', 'belief,desire,emotion,intention,knowledge')
    .option('--model <m>', '1pl, 2pl, 3pl, bifactor or m2pl (a general dimension plus category dimensions)', '2pl')
    .option('--dims <k>', 'm2pl: dimensions (categories go round-robin to general only, dimension 2, ...)', intOption('--dims', 1), 2)
    .option(
      '--specific-ratio <r>',
      'bifactor and m2pl: scale of the category slopes relative to the general',
      numberOption('--specific-ratio', 0),
      0.6,
    )
    .option('--mean-log-a <m>', 'mean of log a', numberOption('--mean-log-a', Number.NEGATIVE_INFINITY), 0.3)
    .option('--sd-log-a <s>', 'SD of log a', numberOption('--sd-log-a'), 0.4)
    .option('--sd-b <s>', 'SD of b', numberOption('--sd-b'), 1.2)
    .option('--guessing <g>', '3PL guessing floor', numberOption('--guessing', 0, 1), 0.25)
    .option('--missing <share>', 'share of cells left blank', numberOption('--missing', 0, 1), 0)
    .option('--seed <s>', 'seed', intOption('--seed', 0), 0)
    .option('--format <f>', 'csv or parquet', 'csv')
    .option('--json', 'print a JSON summary')
    .action(
      (f: {
        out: string;
        models: number;
        items: number;
        suites: string;
        categories: string;
        model: string;
        dims: number;
        specificRatio: number;
        meanLogA: number;
        sdLogA: number;
        sdB: number;
        guessing: number;
        missing: number;
        seed: number;
        format: string;
        json?: boolean;
      }) => {
        if (!['1pl', '2pl', '3pl', 'bifactor', 'm2pl'].includes(f.model))
          throw new ConfigError(`--model must be 1pl, 2pl, 3pl, bifactor or m2pl, not "${f.model}"`);
        if (f.dims > 10) throw new ConfigError(`--dims must be at most 10, not ${f.dims}`);
        if (f.format !== 'csv' && f.format !== 'parquet') throw new ConfigError(`--format must be csv or parquet, not "${f.format}"`);
        if (!(f.missing < 1)) throw new ConfigError('--missing must be below 1');
        const categories = f.categories
          .split(',')
          .map((c) => c.trim())
          .filter(Boolean);
        const panel = simulateIrtPanel({
          models: f.models,
          suites: f.suites
            .split(',')
            .map((name) => ({ name: name.trim(), items: Object.fromEntries(categories.map((c) => [c, f.items])) })),
          model: f.model as '1pl' | '2pl' | '3pl' | 'bifactor' | 'm2pl',
          dimensions: f.dims,
          specificRatio: f.specificRatio,
          discrimination: { meanLog: f.meanLogA, sdLog: f.sdLogA },
          difficulty: { mean: 0, sd: f.sdB },
          guessing: f.guessing,
          missingShare: f.missing,
          seed: f.seed,
        });
        makeDirectory(f.out);
        const matrixPath = join(f.out, `matrix.${f.format}`);
        if (f.format === 'csv') writeMatrixCsv(matrixPath, panel.matrix);
        else writeMatrixParquet(matrixPath, panel.matrix);
        const truthPath = join(f.out, 'truth.json');
        writeFileSync(
          truthPath,
          `${JSON.stringify(
            {
              model: f.model,
              seed: f.seed,
              models: panel.matrix.subjects.map((m, j) => ({
                model: m,
                theta: panel.truth.theta[j],
                ...(panel.truth.abilities ? { thetas: panel.truth.abilities[j] } : {}),
              })),
              items: panel.matrix.items.map((it, i) => ({
                suite: it.suite,
                id: it.itemId,
                category: it.category,
                a: panel.truth.a[i],
                b: panel.truth.b[i],
                c: panel.truth.c[i],
                ...(panel.truth.aSpecific ? { aSpecific: panel.truth.aSpecific[i] } : {}),
                ...(panel.truth.slopes ? { slopes: panel.truth.slopes[i], intercept: panel.truth.intercepts![i] } : {}),
              })),
              ...(panel.truth.specific ? { specific: panel.truth.specific } : {}),
            },
            null,
            2,
          )}\n`,
        );
        const summary = { matrix: matrixPath, truth: truthPath, models: panel.matrix.subjects.length, items: panel.matrix.items.length };
        if (f.json) return print(summary);
        process.stdout.write(
          `wrote ${summary.models} models x ${summary.items} items to ${matrixPath} and the true parameters to ${truthPath}\n`,
        );
      },
    );
}
