// `mindscope irt calibrate`: fit an IRT model to a panel's answers (matrix files or stored runs)
// and write the item bank that the other irt subcommands read.

import type { Command } from 'commander';
import { ConfigError, openStore, runPanel, type ResponseMatrix } from '../../../index.js';
import { excludeMatrixItems, readItemExclusions } from '../../../store/index.js';
import { calibrateBank, calibrateMirtBank, combineMatrices, type IrtBank, writeIrtBank } from '../../../analysis/index.js';
import { IRT_ESTIMATORS, type IrtEstimator, irtEstimatorOptions } from '../../../stats/index.js';
import { readFileSync } from 'node:fs';
import { DEFAULT_DB, intOption, numberOption } from '../../options.js';
import { print, readMatrixFile, suiteItems } from './shared.js';

export function registerCalibrate(irt: Command): void {
  irt
    .command('calibrate')
    .description('fit a 1PL, 2PL, 3PL, bifactor or multidimensional (M2PL) model to response matrices and write an item bank')
    .option('--matrix <file...>', 'response matrices (CSV or Parquet, wide or long); subjects are the panel models')
    .option(
      '--run-id <id...>',
      'stored runs as the panel (their models are the subjects; item hashes and option counts come from the store)',
    )
    .option('--db <path>', 'store of --run-id: a SQLite file or postgres:// URL', DEFAULT_DB)
    .requiredOption('--out <file>', 'bank JSON to write')
    .option('--model <m>', '1pl, 2pl, 3pl or bifactor (general + one factor per category)', '2pl')
    .option('--guessing <g>', '3PL guessing floor: a number, or "options" for 1/k from the items (needs --items)')
    .option('--estimate-guessing', '3PL: estimate the floor with a Beta prior at it')
    .option(
      '--exclude-items <file>',
      'leave out the items an item exclusion file lists (suite and id), e.g. the flags of `mindscope probe --family shortcut --flags-out FILE`',
    )
    .option('--items <suite...>', 'suites whose items to hash (and count options of), so that the bank can detect changed items')
    .option('--data <path>', 'data folder for --items')
    .option('--fields <map>', 'field mapping for --items mcq')
    .option('--prior-a-sd <s>', 'SD of the normal prior on log a', numberOption('--prior-a-sd'), 0.5)
    .option('--prior-b-sd <s>', 'SD of the normal prior on b', numberOption('--prior-b-sd'), 2)
    .option(
      '--quadrature <n>',
      'quadrature nodes on [-6, 6], or "auto": enough for the longest test (about 4.5 sqrt(items); 41 is coarse past a few hundred items)',
      '41',
    )
    .option(
      '--estimator <e>',
      "penalised (floating prior centres, the panel's scale), map (exact marginal MAP under fixed priors) or ml (no priors on a, b)",
      'penalised',
    )
    .option('--tolerance <t>', 'EM convergence tolerance on parameters', numberOption('--tolerance'), 1e-4)
    .option('--no-validate', 'skip the hold-out validation that gp-IRT needs')
    .option('--dims <k>', 'multidimensional (M2PL) bank with K dimensions, or "auto" to choose K by held-out likelihood')
    .option('--max-dims <k>', 'largest K that --dims auto tries', intOption('--max-dims', 1), 3)
    .option(
      '--structure <s>',
      'M2PL loadings: exploratory, category (general + one dimension per category) or a JSON file mapping category to extra dimensions (2..K)',
      'exploratory',
    )
    .option('--seed <s>', 'M2PL: seed of start values, held-out cells and quasi-Monte-Carlo nodes', intOption('--seed', 0), 1)
    .option('--json', 'print a JSON summary')
    .action(
      async (f: {
        matrix?: string[];
        runId?: string[];
        db: string;
        out: string;
        model: string;
        guessing?: string;
        estimateGuessing?: boolean;
        items?: string[];
        excludeItems?: string;
        data?: string;
        fields?: string;
        priorASd: number;
        priorBSd: number;
        quadrature: string;
        estimator: string;
        tolerance: number;
        validate: boolean;
        dims?: string;
        maxDims: number;
        structure: string;
        seed: number;
        json?: boolean;
      }) => {
        if (f.model !== '1pl' && f.model !== '2pl' && f.model !== '3pl' && f.model !== 'bifactor')
          throw new ConfigError(`--model must be 1pl, 2pl, 3pl or bifactor, not "${f.model}"`);
        if (!f.matrix?.length && !f.runId?.length)
          throw new ConfigError('give the panel: --run-id ID... (stored runs) or --matrix FILE...');
        if (!IRT_ESTIMATORS.includes(f.estimator as IrtEstimator))
          throw new ConfigError(`--estimator must be ${IRT_ESTIMATORS.join(', ')}, not "${f.estimator}"`);
        const quadrature = f.quadrature === 'auto' ? 'auto' : intOption('--quadrature', 3)(f.quadrature);
        const estimator = irtEstimatorOptions(f.estimator as IrtEstimator);
        const parts: ResponseMatrix[] = f.matrix?.length ? await Promise.all(f.matrix.map(readMatrixFile)) : [];
        let hashes: Map<string, string> | undefined;
        let options: Map<string, number> | undefined;
        if (f.runId?.length) {
          const store = await openStore(f.db);
          try {
            const panel = await runPanel(store, f.runId);
            parts.push(panel.matrix);
            hashes = panel.hashes;
            options = panel.options;
          } finally {
            await store.close();
          }
        }
        let matrix = parts.length === 1 ? parts[0]! : combineMatrices(parts);
        if (f.excludeItems) {
          const { keys, reason } = readItemExclusions(f.excludeItems);
          const out = excludeMatrixItems(matrix, keys);
          process.stderr.write(`${out.dropped} of ${matrix.items.length} items left out (${reason}, ${f.excludeItems})\n`);
          matrix = out.matrix;
        }
        for (const suite of f.items ?? []) {
          const got = await suiteItems(suite, f.data, f.fields);
          hashes = new Map([...(hashes ?? []), ...got.hashes]);
          options = new Map([...(options ?? []), ...got.options]);
        }
        let guessing: number | Map<string, number> | undefined;
        if (f.model === '3pl') {
          if (f.guessing === undefined) throw new ConfigError('--model 3pl needs --guessing (a number, or "options" with --items)');
          if (f.guessing === 'options') {
            if (!options) throw new ConfigError("--guessing options needs --items to count each item's options");
            guessing = new Map([...options].map(([k, n]) => [k, 1 / n]));
          } else {
            const g = Number(f.guessing);
            if (!(g > 0 && g < 1)) throw new ConfigError(`--guessing must be in (0, 1) or "options", not "${f.guessing}"`);
            guessing = g;
          }
        }
        const source = [...(f.runId ?? []).map((r) => `run ${r}`), ...(f.matrix ?? [])].join(', ');
        let bank: IrtBank;
        if (f.dims !== undefined) {
          const dims = f.dims === 'auto' ? 'auto' : Number(f.dims);
          if (dims !== 'auto' && !(Number.isInteger(dims) && dims >= 1 && dims <= 20))
            throw new ConfigError(`--dims must be an integer in 1..20 or "auto", not "${f.dims}"`);
          if (f.model !== '2pl') throw new ConfigError('--dims fits an M2PL (2PL on K dimensions): leave --model at 2pl');
          if (f.estimator !== 'penalised' || f.quadrature !== '41')
            throw new ConfigError(
              '--estimator and --quadrature set the one-dimensional fit; an M2PL (--dims) chooses its own grid: leave them out',
            );
          let structure: 'exploratory' | 'category' | Record<string, number[]>;
          if (f.structure === 'exploratory' || f.structure === 'category') structure = f.structure;
          else {
            let parsed: unknown;
            try {
              parsed = JSON.parse(readFileSync(f.structure, 'utf8'));
            } catch (err) {
              throw new ConfigError(
                `--structure ${f.structure}: not exploratory, category or a readable JSON file (${(err as Error).message})`,
              );
            }
            if (
              !parsed ||
              typeof parsed !== 'object' ||
              Array.isArray(parsed) ||
              !Object.values(parsed).every((v) => Array.isArray(v) && v.every(Number.isInteger))
            )
              throw new ConfigError(
                `--structure ${f.structure}: expected a JSON object mapping each category to a list of dimension numbers`,
              );
            structure = parsed as Record<string, number[]>;
          }
          bank = calibrateMirtBank(matrix, { dims, maxDims: f.maxDims, structure, hashes, source, validate: f.validate, seed: f.seed });
        } else
          bank = calibrateBank(matrix, {
            model: f.model,
            guessing,
            estimateGuessing: f.estimateGuessing,
            hashes,
            source,
            priors: estimator.priors ?? { logA: { mean: 0, sd: f.priorASd }, b: { mean: 0, sd: f.priorBSd } },
            floatPriors: estimator.floatPriors,
            parameterExpansion: estimator.parameterExpansion,
            quadraturePoints: quadrature,
            tolerance: f.tolerance,
            validate: f.validate,
          });
        writeIrtBank(f.out, bank);
        const misfit = bank.items.filter((it) => Math.abs(it.fit.infitT ?? 0) > 2 || Math.abs(it.fit.outfitT ?? 0) > 2).length;
        const summary = {
          bankId: bank.bankId,
          out: f.out,
          model: bank.model,
          models: bank.panel.models.length,
          items: bank.items.length,
          dropped: bank.dropped.length,
          ...(bank.dimensions ? { dimensions: bank.dimensions } : {}),
          converged: bank.convergence.converged,
          iterations: bank.convergence.iterations,
          logLikelihood: bank.convergence.logLikelihood,
          misfitItems: misfit,
          groups: bank.groups,
          warnings: bank.warnings,
        };
        if (f.json) return print(summary);
        process.stdout.write(
          `${bank.bankId}: ${bank.model.toUpperCase()}${bank.dimensions ? ` (${bank.dimensions.k} dimension${bank.dimensions.k === 1 ? '' : 's'}, ${bank.dimensions.structure})` : ''} on ${summary.models} models x ${summary.items} items ` +
            `(${summary.converged ? 'converged' : 'NOT converged'} in ${summary.iterations} EM iterations), written to ${f.out}\n` +
            `items with |infit t| or |outfit t| > 2: ${misfit}\n`,
        );
        for (const s of bank.dimensions?.choice?.scores ?? [])
          process.stdout.write(`held-out log likelihood per answer, ${s.k} dimension(s): ${s.heldOutLogLik.toFixed(4)}\n`);
        for (const w of bank.warnings) process.stdout.write(`warning: ${w}\n`);
      },
    );
}
