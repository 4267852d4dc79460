// `mindscope irt ...`: calibrate item banks from response matrices, choose tiny benchmarks,
// estimate accuracies from few answers, replay adaptive tests, simulate IRT panels, chart a bank.

import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ConfigError,
  InputError,
  loadSuite,
  openStore,
  runPanel,
  readMatrixCsv,
  readMatrixParquet,
  type ResponseMatrix,
  writeMatrixCsv,
  writeMatrixParquet,
} from '../../index.js';
import { readJson, makeDirectory } from '../../core/index.js';
import { itemHash } from '../../runner/index.js';
import {
  calibrateBank,
  combineMatrices,
  createAdaptiveSession,
  estimateAccuracyFromAnswers,
  irtChartData,
  irtItemKey,
  parseTinySet,
  readIrtBank,
  selectTinyItems,
  simulateIrtPanel,
  TINY_STRATEGIES,
  type TinyStrategy,
  type IrtBank,
  verifyBankItems,
  writeIrtBank,
} from '../../analysis/index.js';
import {
  estimatedAccuracySpec,
  formatTextTable,
  informationSpec,
  itemCharacteristicSpec,
  renderSvg,
  wrightMapSpec,
} from '../../report/index.js';
import { DEFAULT_DB, intOption, numberOption, parseFieldMap } from '../options.js';
import { printResult } from '../output.js';

async function readMatrixFile(path: string): Promise<ResponseMatrix> {
  return path.endsWith('.parquet') ? readMatrixParquet(path, { anyCategory: true }) : readMatrixCsv(path, { anyCategory: true });
}

/** Content hashes (and option counts) of a suite's items, keyed by irtItemKey. */
async function suiteItems(
  suite: string,
  data: string | undefined,
  fields: string | undefined,
): Promise<{ hashes: Map<string, string>; options: Map<string, number> }> {
  const { items } = await loadSuite(suite, { data, seed: 0, fields: fields ? parseFieldMap(fields) : undefined });
  const hashes = new Map<string, string>();
  const options = new Map<string, number>();
  for (const item of items) {
    const key = irtItemKey(item.suite, item.id);
    hashes.set(key, itemHash(item));
    const opts = (item.payload as { options?: unknown[] } | null)?.options;
    if (Array.isArray(opts) && opts.length > 1) options.set(key, opts.length);
  }
  return { hashes, options };
}

const pct = (x: number | null | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '-' : (100 * x).toFixed(1));
const print = (value: unknown): void => {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
};

function registerCalibrate(irt: Command): void {
  irt
    .command('calibrate')
    .description('fit a 1PL, 2PL, 3PL or bifactor model to response matrices and write an item bank')
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
    .option('--items <suite...>', 'suites whose items to hash (and count options of), so that the bank can detect changed items')
    .option('--data <path>', 'data folder for --items')
    .option('--fields <map>', 'field mapping for --items mcq')
    .option('--prior-a-sd <s>', 'SD of the normal prior on log a', numberOption('--prior-a-sd'), 0.5)
    .option('--prior-b-sd <s>', 'SD of the normal prior on b', numberOption('--prior-b-sd'), 2)
    .option('--quadrature <n>', 'quadrature nodes', intOption('--quadrature', 3), 41)
    .option('--tolerance <t>', 'EM convergence tolerance on parameters', numberOption('--tolerance'), 1e-4)
    .option('--no-validate', 'skip the hold-out validation that gp-IRT needs')
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
        data?: string;
        fields?: string;
        priorASd: number;
        priorBSd: number;
        quadrature: number;
        tolerance: number;
        validate: boolean;
        json?: boolean;
      }) => {
        if (f.model !== '1pl' && f.model !== '2pl' && f.model !== '3pl' && f.model !== 'bifactor')
          throw new ConfigError(`--model must be 1pl, 2pl, 3pl or bifactor, not "${f.model}"`);
        if (!f.matrix?.length && !f.runId?.length)
          throw new ConfigError('give the panel: --run-id ID... (stored runs) or --matrix FILE...');
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
        const matrix = parts.length === 1 ? parts[0]! : combineMatrices(parts);
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
        const bank = calibrateBank(matrix, {
          model: f.model,
          guessing,
          estimateGuessing: f.estimateGuessing,
          hashes,
          source: [...(f.runId ?? []).map((r) => `run ${r}`), ...(f.matrix ?? [])].join(', '),
          priors: { logA: { mean: 0, sd: f.priorASd }, b: { mean: 0, sd: f.priorBSd } },
          quadraturePoints: f.quadrature,
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
          converged: bank.convergence.converged,
          iterations: bank.convergence.iterations,
          logLikelihood: bank.convergence.logLikelihood,
          misfitItems: misfit,
          groups: bank.groups,
          warnings: bank.warnings,
        };
        if (f.json) return print(summary);
        process.stdout.write(
          `${bank.bankId}: ${bank.model.toUpperCase()} on ${summary.models} models x ${summary.items} items ` +
            `(${summary.converged ? 'converged' : 'NOT converged'} in ${summary.iterations} EM iterations), written to ${f.out}\n` +
            `items with |infit t| or |outfit t| > 2: ${misfit}\n`,
        );
        for (const w of bank.warnings) process.stdout.write(`warning: ${w}\n`);
      },
    );
}

function registerTiny(irt: Command): void {
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
        strategy: string;
        by: string;
        matrix?: string[];
        seed: number;
        json?: boolean;
      }) => {
        if (!TINY_STRATEGIES.includes(f.strategy as TinyStrategy))
          throw new ConfigError(`--strategy must be one of ${TINY_STRATEGIES.join(', ')}`);
        if (f.by !== 'category' && f.by !== 'suite') throw new ConfigError(`--by must be category or suite, not "${f.by}"`);
        const bank = readIrtBank(f.bank);
        const matrix = f.matrix ? combineMatrices(await Promise.all(f.matrix.map(readMatrixFile))) : undefined;
        const tiny = selectTinyItems(bank, { k: f.k, strategy: f.strategy as TinyStrategy, by: f.by, seed: f.seed, matrix });
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

async function verifyAgainstSuites(
  bank: IrtBank,
  suites: string[] | undefined,
  data: string | undefined,
  fields: string | undefined,
  file: string,
): Promise<void> {
  if (!suites) return;
  const current: Array<{ suite: string; id: string; hash: string }> = [];
  for (const suite of suites) {
    const { hashes } = await suiteItems(suite, data, fields);
    for (const [key, hash] of hashes) {
      const [s, id] = key.split('\u0000') as [string, string];
      current.push({ suite: s, id, hash });
    }
  }
  verifyBankItems(bank, current, { file });
}

function registerEstimate(irt: Command): void {
  irt
    .command('estimate')
    .description("estimate each model's accuracy per suite and category from its answers to some bank items")
    .requiredOption('--bank <file>', 'item bank JSON')
    .requiredOption('--answers <file...>', 'response matrices with the answers (any subset of the bank items)')
    .option('--tiny <file>', 'the tiny set the answers come from (its anchor weights)')
    .option('--items <suite...>', "check the bank against these suites' current items (refused when an item changed)")
    .option('--data <path>', 'data folder for --items')
    .option('--fields <map>', 'field mapping for --items mcq')
    .option(
      '--draws <n>',
      "item parameter sets drawn from the bank's standard errors for the intervals (0: parameters as known)",
      intOption('--draws', 0),
      20,
    )
    .option('--json', 'print JSON')
    .action(
      async (f: {
        bank: string;
        answers: string[];
        tiny?: string;
        items?: string[];
        data?: string;
        fields?: string;
        draws: number;
        json?: boolean;
      }) => {
        const bank = readIrtBank(f.bank);
        await verifyAgainstSuites(bank, f.items, f.data, f.fields, f.bank);
        const tiny = f.tiny ? parseTinySet(readJson(f.tiny), bank, f.tiny) : undefined;
        const matrix = combineMatrices(await Promise.all(f.answers.map(readMatrixFile)));
        const results = matrix.subjects.map((subject, j) => {
          const answers = new Map<string, number>();
          matrix.items.forEach((it, i) => {
            const v = matrix.cells[i]![j];
            if (v !== null && v !== undefined) answers.set(irtItemKey(it.suite, it.itemId), v);
          });
          return { subject, ...estimateAccuracyFromAnswers(bank, answers, { tiny, parameterDraws: f.draws }) };
        });
        if (f.json) return print(results);
        for (const r of results) {
          process.stdout.write(
            `\n${r.subject}: theta ${r.theta.toFixed(2)} (SD ${r.thetaSd.toFixed(2)}), ${r.answered} answers${r.unknownItems ? `, ${r.unknownItems} not in the bank` : ''}\n`,
          );
          const rows = r.rows.map((row) => [
            row.category === null ? row.suite : `  ${row.category}`,
            `${row.answered}/${row.items}`,
            pct(row.anchor.estimate),
            pct(row.irt.estimate),
            `${pct(row.pIrt.estimate)} [${pct(row.pIrt.lower)}, ${pct(row.pIrt.upper)}]`,
            row.gpIrt ? `${pct(row.gpIrt.estimate)} [${pct(row.gpIrt.lower)}, ${pct(row.gpIrt.upper)}]` : '-',
          ]);
          process.stdout.write(`${formatTextTable(['group', 'answered', 'anchor %', 'IRT %', 'p-IRT % [95%]', 'gp-IRT % [95%]'], rows)}\n`);
        }
      },
    );
}

function registerAdaptive(irt: Command): void {
  irt
    .command('adaptive')
    .description('replay adaptive tests on recorded answers: items used, ability, SE and estimated against full accuracy')
    .requiredOption('--bank <file>', 'item bank JSON')
    .requiredOption('--answers <file...>', "response matrices with every model's answers to the suite")
    .option('--suite <id>', 'suite to test (when the bank has several)')
    .option('--se <t>', 'target standard error of ability', numberOption('--se'), 0.25)
    .option('--max-items <n>', 'item budget', intOption('--max-items', 1))
    .option('--min-items <n>', 'fewest items before stopping', intOption('--min-items', 1), 5)
    .option('--randomesque <n>', 'exposure control: draw among the n most informative items (1 = none)', intOption('--randomesque', 1), 5)
    .option('--no-balance', 'no content balancing across categories')
    .option('--seed <s>', 'seed', intOption('--seed', 0), 0)
    .option('--json', 'print JSON')
    .action(
      async (f: {
        bank: string;
        answers: string[];
        suite?: string;
        se: number;
        maxItems?: number;
        minItems: number;
        randomesque: number;
        balance: boolean;
        seed: number;
        json?: boolean;
      }) => {
        const bank = readIrtBank(f.bank);
        const matrix = combineMatrices(await Promise.all(f.answers.map(readMatrixFile)));
        const results = matrix.subjects.map((subject, j) => {
          const session = createAdaptiveSession(bank, {
            suite: f.suite,
            targetSe: f.se,
            maxItems: f.maxItems,
            minItems: f.minItems,
            exposure: f.randomesque > 1 ? { method: 'randomesque', candidates: f.randomesque } : { method: 'none' },
            contentBalance: f.balance,
            seed: f.seed + j,
          });
          const byId = new Map<string, number>();
          let full = 0;
          let n = 0;
          matrix.items.forEach((it, i) => {
            const v = matrix.cells[i]![j];
            if (v === null || v === undefined) return;
            byId.set(irtItemKey(it.suite, it.itemId), v);
          });
          const suite = session.result().suite;
          for (const it of bank.items) {
            const v = byId.get(irtItemKey(it.suite, it.id));
            if (it.suite === suite && v !== undefined) {
              full += v;
              n++;
            }
          }
          for (let id = session.next(); id !== null; id = session.next()) {
            const v = byId.get(irtItemKey(suite, id));
            if (v === undefined) throw new InputError(`${subject} has no answer to ${suite}/${id}, which the adaptive test asked`);
            session.record(id, v);
          }
          const r = session.result();
          const overall = r.accuracy.find((a) => a.category === null)!;
          return {
            subject,
            suite,
            theta: r.theta,
            se: r.se,
            itemsUsed: r.itemsUsed,
            stopReason: r.stopReason,
            estimate: overall.pIrt,
            fullAccuracy: n > 0 ? full / n : null,
            items: r.items,
          };
        });
        if (f.json) return print(results);
        const rows = results.map((r) => [
          r.subject,
          String(r.itemsUsed),
          r.theta.toFixed(2),
          r.se.toFixed(2),
          `${pct(r.estimate.estimate)} [${pct(r.estimate.lower)}, ${pct(r.estimate.upper)}]`,
          pct(r.fullAccuracy),
          r.stopReason ?? '',
        ]);
        process.stdout.write(`${formatTextTable(['subject', 'items', 'theta', 'SE', 'estimated % [95%]', 'full %', 'stop'], rows)}\n`);
      },
    );
}

function registerSimulate(irt: Command): void {
  irt
    .command('simulate')
    .description('simulate a panel from a known IRT model: a response matrix and the true parameters')
    .requiredOption('--out <dir>', 'output folder')
    .option('--models <n>', 'models', intOption('--models', 1), 100)
    .option('--items <n>', 'items per suite and category', intOption('--items', 1), 100)
    .option('--suites <names>', 'suite names', 'sim')
    .option('--categories <list>', 'categories', 'belief,desire,emotion,intention,knowledge')
    .option('--model <m>', '1pl, 2pl, 3pl or bifactor', '2pl')
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
        meanLogA: number;
        sdLogA: number;
        sdB: number;
        guessing: number;
        missing: number;
        seed: number;
        format: string;
        json?: boolean;
      }) => {
        if (!['1pl', '2pl', '3pl', 'bifactor'].includes(f.model))
          throw new ConfigError(`--model must be 1pl, 2pl, 3pl or bifactor, not "${f.model}"`);
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
          model: f.model as '1pl' | '2pl' | '3pl' | 'bifactor',
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
              models: panel.matrix.subjects.map((m, j) => ({ model: m, theta: panel.truth.theta[j] })),
              items: panel.matrix.items.map((it, i) => ({
                suite: it.suite,
                id: it.itemId,
                category: it.category,
                a: panel.truth.a[i],
                b: panel.truth.b[i],
                c: panel.truth.c[i],
                ...(panel.truth.aSpecific ? { aSpecific: panel.truth.aSpecific[i] } : {}),
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

function registerReport(irt: Command): void {
  irt
    .command('report')
    .description('item characteristic and information curves and the Wright map of a bank, as SVG')
    .requiredOption('--bank <file>', 'item bank JSON')
    .requiredOption('--out <dir>', 'output folder')
    .option('--item <ids...>', 'items to draw curves for (default: 8 spread over difficulty)')
    .option('--estimates <file>', 'JSON list of { model, full, estimate, lower, upper, method } for the estimated-vs-full plot')
    .option('--json', 'print JSON: { out, files }')
    .action(async (f: { bank: string; out: string; item?: string[]; estimates?: string; json?: boolean }) => {
      const bank = readIrtBank(f.bank);
      const data = irtChartData(bank, { items: f.item });
      makeDirectory(f.out);
      const files: string[] = [];
      const write = async (name: string, svg: Promise<string>) => {
        writeFileSync(join(f.out, name), await svg);
        files.push(name);
      };
      await write('item-curves.svg', renderSvg(itemCharacteristicSpec(data)));
      await write('information.svg', renderSvg(informationSpec(data)));
      if (data.wright.models.length > 0) await write('wright-map.svg', renderSvg(wrightMapSpec(data)));
      if (f.estimates)
        await write(
          'estimated-vs-full.svg',
          renderSvg(estimatedAccuracySpec(readJson(f.estimates) as Parameters<typeof estimatedAccuracySpec>[0])),
        );
      printResult(f.json, { out: f.out, files }, `wrote ${files.join(', ')} to ${f.out}`);
    });
}

export function registerIrt(program: Command): void {
  const irt = program.command('irt').description('item response theory: item banks, tiny benchmarks, adaptive tests');
  registerCalibrate(irt);
  registerTiny(irt);
  registerEstimate(irt);
  registerAdaptive(irt);
  registerSimulate(irt);
  registerReport(irt);
}
