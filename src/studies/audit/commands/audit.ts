import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
// Only what auditing matrix files needs is loaded up front: the store and run layers (--run-id),
// Parquet, and the HTML report load when asked for (the whole library takes about 0.5 s to load,
// a third of a paper-scale audit in PCA mode).
import * as stats from '../../../stats/index.js';
// The audit's own entry point, not mindscope/analysis, mindscope/store or mindscope/core: an
// audit of matrix files loads the statistics only (about 0.1 s less at every start).
import {
  auditBenchmarks,
  auditMatrices,
  ConfigError,
  controlFromMatrix,
  controlsFromTable,
  discriminantValidity,
  parseScoreTable,
  readMatrixCsv,
  writeMatrixCsv,
  type BenchmarkAudit,
  type CfaStructure,
  type ResponseMatrix,
} from '../analysis/index.js';
import { DEFAULT_DB, intOption, numberOption } from '../../../cli/toolkit.js';

/** core's file helpers, loaded when a flag needs them (core's index loads every record schema). */
const core = () => import('../../../core/index.js');
/** The text tables, loaded for text output only. */
const text = () => import('./audit-text.js');

const list = (v: string) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

async function readMatrixFile(path: string, opts: { anyCategory?: boolean } = {}): Promise<ResponseMatrix> {
  if (!path.endsWith('.parquet')) return readMatrixCsv(path, opts);
  const { readMatrixParquet } = await import('../../../store/index.js');
  return readMatrixParquet(path, opts);
}

/** NAME=FILE, or FILE (named after the file). */
/** The matrix, refused when its name is taken: two matrices under one name would be analysed as one benchmark. */
function uniquelyNamed<T extends { name: string }>(flag: string, spec: string, input: T, taken: ReadonlyArray<{ name: string }>): T {
  if (taken.some((b) => b.name === input.name))
    throw new ConfigError(`${flag} ${spec}: the name "${input.name}" is given twice; name each benchmark once`);
  return input;
}

async function readNamedMatrix(spec: string, opts: { anyCategory?: boolean } = {}): Promise<{ name: string; matrix: ResponseMatrix }> {
  const eq = spec.indexOf('=');
  const name = eq > 0 ? spec.slice(0, eq) : spec.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '');
  return { name, matrix: await readMatrixFile(eq > 0 ? spec.slice(eq + 1) : spec, opts) };
}

/** The benchmarks without the items an exclusion file lists; says on stderr how many each lost. */
async function withoutExcludedItems(
  inputs: Array<{ name: string; matrix: ResponseMatrix }>,
  file: string,
): Promise<Array<{ name: string; matrix: ResponseMatrix }>> {
  const { readItemExclusions, excludeMatrixItems } = await import('../../../store/matrix/index.js');
  const { keys, reason } = readItemExclusions(file);
  return inputs.map((b) => {
    const { matrix, dropped } = excludeMatrixItems(b.matrix, keys, b.name);
    process.stderr.write(`${b.name}: ${dropped} of ${b.matrix.items.length} items left out (${reason}, ${file})\n`);
    return { name: b.name, matrix };
  });
}

export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description('psychometric audit of ToM benchmarks: response matrices (--matrix), a stored run (--run-id) or a score table (--scores)')
    .option('--matrix <name=file...>', 'benchmark response matrices (CSV or Parquet, wide or long), e.g. tombench=tb.parquet')
    .option('--run-id <id>', 'audit a stored run: one benchmark per suite')
    .option('--db <path>', 'store, a SQLite file or postgres:// URL (with --run-id)', DEFAULT_DB)
    .option('--folds <k>', 'cross-fit folds', intOption('--folds', 2), 5)
    .option('--seeds <n>', 'cross-fit seeds', intOption('--seeds', 1), 10)
    .option('--threshold <r>', 'point-biserial threshold of the item filter', numberOption('--threshold', -1, 1), 0.15)
    .option('--tau-min <t>', 'acceptance: minimum tau', numberOption('--tau-min', -1, 1), 0.6)
    .option('--lower-min <t>', 'acceptance: minimum lower CI bound', numberOption('--lower-min', -1, 1), 0.4)
    .option(
      '--report <dir>',
      'also write the audit as a self-contained HTML report (DIR/audit.html; with --scores alone DIR/audit-scores.html)',
    )
    .option(
      '--exclude-items <file>',
      'leave out the items an item exclusion file lists (suite and id), e.g. the flags of `mindscope probe --family shortcut --flags-out FILE`',
    )
    .option('--export-filtered <dir>', 'write each benchmark matrix restricted to the items the stage-2 filter keeps (CSV)')
    .option(
      '--control <name=file...>',
      'general-ability response matrices, the discriminant controls of a --matrix or --run-id audit (e.g. mmlu=mmlu.csv)',
    )
    .option(
      '--scores <file>',
      'CSV with one row per model and one column per benchmark (with --matrix: general-ability controls, named by --general)',
    )
    .option('--tom <names>', 'comma-separated ToM benchmark columns')
    .option('--general <names>', 'comma-separated general-ability benchmark columns (discriminant controls)', '')
    .option('--bootstrap <n>', 'bootstrap resamples', intOption('--bootstrap', 10), 1000)
    .option('--seed <s>', 'bootstrap seed', intOption('--seed', 0), 0)
    .option('--method <m>', 'partial tau: residual (default) or inverse', 'residual')
    .option(
      '--categories <list>',
      'categories tested in stages 1 and 3 (comma-separated, or all); default: the five ATOMS categories for ToMBench/ToMATO/CogToM, else every shared category',
    )
    .option(
      '--interval <method>',
      "stage-1 interval: basic (default, bias-corrected reverse percentile), bca, bc, or percentile (the paper's item-bootstrap percentile)",
      'basic',
    )
    .option('--structure <depth>', 'factor structure: full (parallel analysis, EFA and PCA) or pca (PCA only, faster)', 'full')
    .option(
      '--cfa <model>',
      'confirmatory factor analysis of the categories on each matrix: one-per-category (correlated factors) or bifactor (a general factor and one per category), each against one factor; ML on Pearson correlations of item parcels',
    )
    .option(
      '--cfa-parcels <k>',
      'CFA indicators: item parcels per category (0: the items themselves, fewer than models)',
      intOption('--cfa-parcels', 0),
      3,
    )
    .option(
      '--threads <n>',
      'worker threads for the audit (default: one per core, at most 4; with pca, 1 (in process) unless models x stage-1 items reach 2,000,000)',
      intOption('--threads', 1),
    )
    .option('--json', 'print JSON')
    .action(
      async (flags: {
        categories?: string;
        interval: string;
        control?: string[];
        structure: string;
        cfa?: string;
        cfaParcels: number;
        threads?: number;
        matrix?: string[];
        runId?: string;
        db: string;
        report?: string;
        exportFiltered?: string;
        excludeItems?: string;
        folds: number;
        seeds: number;
        threshold: number;
        tauMin: number;
        lowerMin: number;
        scores?: string;
        tom?: string;
        general: string;
        bootstrap: number;
        seed: number;
        method: 'residual' | 'inverse';
        json?: boolean;
      }) => {
        if (flags.matrix || flags.runId) {
          let inputs: Array<{ name: string; matrix: ResponseMatrix }>;
          if (flags.runId) {
            const { openStore, resolveRunId, runMatricesBySuite } = await import('../../../index.js');
            const store = await openStore(flags.db);
            try {
              inputs = await runMatricesBySuite(store, await resolveRunId(store, flags.runId));
            } finally {
              await store.close();
            }
          } else {
            inputs = [];
            for (const spec of flags.matrix!) inputs.push(uniquelyNamed('--matrix', spec, await readNamedMatrix(spec), inputs));
          }
          if (flags.excludeItems) inputs = await withoutExcludedItems(inputs, flags.excludeItems);
          if (flags.structure !== 'full' && flags.structure !== 'pca')
            throw new ConfigError(`--structure must be full or pca, not "${flags.structure}"`);
          if (flags.method !== 'residual' && flags.method !== 'inverse')
            throw new ConfigError(`--method must be residual or inverse, not "${flags.method}"`);
          if (flags.cfa !== undefined && flags.cfa !== 'one-per-category' && flags.cfa !== 'bifactor')
            throw new ConfigError(`--cfa must be one-per-category or bifactor, not "${flags.cfa}"`);
          if (flags.cfaParcels === 1) throw new ConfigError('--cfa-parcels must be 0 (the items) or at least 2, not 1');
          if (!(stats.INTERVAL_METHODS as readonly string[]).includes(flags.interval))
            throw new ConfigError(`--interval must be one of ${stats.INTERVAL_METHODS.join(', ')}, not "${flags.interval}"`);
          const categories =
            flags.categories === undefined ? undefined : flags.categories.trim() === 'all' ? 'all' : list(flags.categories);
          if (Array.isArray(categories)) {
            if (categories.length === 0) throw new ConfigError('--categories needs at least one category (or all)');
            const present = new Set(inputs.flatMap((b) => b.matrix.items.map((it) => it.category)));
            const missing = categories.filter((c) => !present.has(c));
            if (missing.length)
              throw new ConfigError(
                `--categories: no benchmark has items in ${missing.join(', ')} (categories present: ${[...present].sort().join(', ')})`,
              );
          }
          const controlMatrices: Array<{ name: string; matrix: ResponseMatrix }> = [];
          for (const spec of flags.control ?? [])
            controlMatrices.push(
              uniquelyNamed('--control', spec, await readNamedMatrix(spec, { anyCategory: true }), [...inputs, ...controlMatrices]),
            );
          const general = list(flags.general);
          if (flags.scores && general.length === 0)
            throw new ConfigError('with --matrix or --run-id, --scores gives general-ability benchmarks: name them with --general x,y');
          if (inputs.length === 1)
            process.stderr.write(
              `warning: one benchmark (${inputs[0]!.name}): stages 1 and 3 compare benchmarks, so their tables are empty; the item filter and the factor structure are computed\n`,
            );
          const audit = await auditMatrices(inputs, {
            seed: flags.seed,
            categories,
            convergence: {
              iterations: flags.bootstrap,
              tauMin: flags.tauMin,
              lowerMin: flags.lowerMin,
              interval: flags.interval as stats.IntervalMethod,
            },
            filter: { threshold: flags.threshold },
            crossFit: { folds: flags.folds, seeds: flags.seeds, threshold: flags.threshold, iterations: flags.bootstrap },
            structure: flags.structure,
            ...(flags.cfa ? { cfa: { structure: flags.cfa as CfaStructure, parcels: flags.cfaParcels } } : {}),
            threads: flags.threads,
          });
          // Discriminant validity: the matrices' overall accuracies against general-ability controls.
          let discriminant: BenchmarkAudit | undefined;
          const controls = [
            ...controlMatrices.map((c) => controlFromMatrix(c.name, c.matrix, audit.models)),
            ...(flags.scores
              ? controlsFromTable(parseScoreTable((await core()).readText(flags.scores), flags.scores), general, audit.models, flags.scores)
              : []),
          ];
          if (controls.length)
            discriminant = discriminantValidity(audit, controls, { iterations: flags.bootstrap, seed: flags.seed, method: flags.method });
          if (flags.report) {
            (await core()).makeDirectory(flags.report);
            const { renderAuditReport } = await import('../index.js');
            writeFileSync(join(flags.report, 'audit.html'), await renderAuditReport(audit, { discriminant }));
          }
          if (flags.exportFiltered) {
            (await core()).makeDirectory(flags.exportFiltered);
            for (const [k, input] of inputs.entries()) {
              const kept = new Set(audit.filter.benchmarks[k]!.flags.filter((x) => x.kept).map((x) => x.id));
              const idx = input.matrix.items.map((it, i) => (kept.has(it.itemId) ? i : -1)).filter((i) => i >= 0);
              writeMatrixCsv(join(flags.exportFiltered, `${input.name}.filtered.csv`), {
                subjects: input.matrix.subjects,
                items: idx.map((i) => input.matrix.items[i]!),
                cells: idx.map((i) => input.matrix.cells[i]!),
              });
            }
          }
          const { filter, ...rest } = audit;
          process.stdout.write(
            flags.json
              ? `${JSON.stringify({ ...rest, filter: { threshold: filter.threshold, benchmarks: filter.benchmarks.map(({ flags: f, ...b }) => ({ ...b, flagged: f.filter((x) => !x.kept) })) }, discriminant, controls: controls.map(({ name, source }) => ({ name, source })) }, null, 2)}\n`
              : `${(await text()).printMatrixAudit(audit)}\n${audit.cfa ? `\n${(await import('./cfa-text.js')).printConfirmatory(audit)}\n` : ''}${discriminant ? `\ndiscriminant validity (controls: ${controls.map((c) => `${c.name}, ${c.source}`).join('; ')})\n${(await text()).printBenchmarkAudit(discriminant)}\n` : ''}`,
          );
          return;
        }
        if (!flags.scores) throw new ConfigError('audit needs --matrix NAME=FILE (two or more), --run-id ID, or --scores FILE.csv');
        if (!flags.tom) throw new ConfigError('audit --scores needs --tom a,b[,c]');
        if (flags.method !== 'residual' && flags.method !== 'inverse')
          throw new ConfigError(`--method must be residual or inverse, not "${flags.method}"`);
        const audit = auditBenchmarks(parseScoreTable((await core()).readText(flags.scores), flags.scores), {
          tom: list(flags.tom),
          general: list(flags.general),
          iterations: flags.bootstrap,
          seed: flags.seed,
          method: flags.method,
        });
        if (flags.report) {
          (await core()).makeDirectory(flags.report);
          const { renderBenchmarkAuditReport } = await import('../index.js');
          writeFileSync(join(flags.report, 'audit-scores.html'), await renderBenchmarkAuditReport(audit));
        }
        process.stdout.write(flags.json ? `${JSON.stringify(audit, null, 2)}\n` : `${(await text()).printBenchmarkAudit(audit)}\n`);
      },
    );
}
