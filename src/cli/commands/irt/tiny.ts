// `mindscope irt tiny`: choose a tiny benchmark (k items per suite) from a bank, so that a model
// answers a few items and `irt estimate` gives its accuracy on the whole suite.

import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { ConfigError } from '../../../index.js';
import {
  combineMatrices,
  defaultTinyStrategy,
  readIrtBank,
  selectTinyItems,
  TINY_STRATEGIES,
  type TinyStrategy,
} from '../../../analysis/index.js';
import { intOption } from '../../options.js';
import { print, readMatrixFile } from './shared.js';

export function registerTiny(irt: Command): void {
  irt
    .command('tiny')
    .description('choose k items per suite from a bank (tinyBenchmarks strategies)')
    .requiredOption('--bank <file>', 'item bank JSON')
    .requiredOption('--out <file>', 'tiny set JSON to write')
    .option('--k <n>', 'items per suite', intOption('--k', 1), 100)
    .option(
      '--strategy <s>',
      `one of ${TINY_STRATEGIES.join(', ')} (default: information with 100+ panel models, else correctness with --matrix, else stratified)`,
    )
    .option('--by <unit>', 'category (anchors in every category) or suite', 'category')
    .option('--matrix <file...>', 'the panel response matrices (the correctness strategy needs them)')
    .option('--seed <s>', 'seed', intOption('--seed', 0), 0)
    .option('--json', 'print the tiny set')
    .action(
      async (f: {
        bank: string;
        out: string;
        k: number;
        strategy?: string;
        by: string;
        matrix?: string[];
        seed: number;
        json?: boolean;
      }) => {
        if (f.strategy !== undefined && !TINY_STRATEGIES.includes(f.strategy as TinyStrategy))
          throw new ConfigError(`--strategy must be one of ${TINY_STRATEGIES.join(', ')}, not "${f.strategy}"`);
        if (f.by !== 'category' && f.by !== 'suite') throw new ConfigError(`--by must be category or suite, not "${f.by}"`);
        const bank = readIrtBank(f.bank);
        const matrix = f.matrix ? combineMatrices(await Promise.all(f.matrix.map(readMatrixFile))) : undefined;
        // No --strategy: the same default as run --tiny (defaultTinyStrategy says why).
        const strategy = (f.strategy as TinyStrategy | undefined) ?? defaultTinyStrategy(bank, matrix !== undefined);
        const tiny = selectTinyItems(bank, { k: f.k, strategy, by: f.by, seed: f.seed, matrix });
        writeFileSync(f.out, `${JSON.stringify(tiny, null, 2)}\n`);
        if (f.json) return print(tiny);
        const perSuite = new Map<string, number>();
        for (const it of tiny.items) perSuite.set(it.suite, (perSuite.get(it.suite) ?? 0) + 1);
        process.stdout.write(
          `${[...perSuite].map(([s, n]) => `${s}: ${n} items`).join(', ')} (${tiny.strategy}, by ${tiny.by}), written to ${f.out}\n`,
        );
        for (const w of tiny.warnings) process.stdout.write(`warning: ${w}\n`);
      },
    );
}
