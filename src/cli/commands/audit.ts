import type { Command } from 'commander';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  auditBenchmarks,
  auditMatrices,
  ConfigError,
  InputError,
  openStore,
  parseScoreTable,
  readMatrixCsv,
  renderAuditReport,
  renderBenchmarkAuditReport,
  writeMatrixCsv,
  readMatrixParquet,
  resolveRunId,
  runMatricesBySuite,
  type BenchmarkAudit,
  type ResponseMatrix,
} from '../../index.js';
import { intOption } from '../options.js';
import { printBenchmarkAudit, printMatrixAudit } from './audit-text.js';

const list = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);

async function readMatrixFile(path: string): Promise<ResponseMatrix> {
  return path.endsWith('.parquet') ? readMatrixParquet(path) : readMatrixCsv(path);
}

export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description('psychometric audit of ToM benchmarks (now: the benchmark-level analyses from a score table)')
    .option('--matrix <name=file...>', 'benchmark response matrices (CSV or Parquet, wide or long), e.g. tombench=tb.parquet')
    .option('--run-id <id>', 'audit a stored run: one benchmark per suite')
    .option('--db <path>', 'store file (with --run-id)', 'mindscope.db')
    .option('--folds <k>', 'cross-fit folds', intOption('--folds', 2), 5)
    .option('--seeds <n>', 'cross-fit seeds', intOption('--seeds', 1), 10)
    .option('--threshold <r>', 'point-biserial threshold of the item filter', Number, 0.15)
    .option('--tau-min <t>', 'acceptance: minimum tau', Number, 0.6)
    .option('--lower-min <t>', 'acceptance: minimum lower CI bound', Number, 0.4)
    .option('--report <dir>', 'also write the audit as a self-contained HTML report (DIR/audit.html; with --scores alone DIR/audit-scores.html)')
    .option('--export-filtered <dir>', 'write each benchmark matrix restricted to the items the stage-2 filter keeps (CSV)')
    .option('--scores <file>', 'CSV with one row per model and one column per benchmark (with --matrix: the general-ability controls)')
    .option('--tom <names>', 'comma-separated ToM benchmark columns')
    .option('--general <names>', 'comma-separated general-ability benchmark columns (discriminant controls)', '')
    .option('--bootstrap <n>', 'bootstrap resamples', intOption('--bootstrap', 10), 1000)
    .option('--seed <s>', 'bootstrap seed', intOption('--seed', 0), 0)
    .option('--method <m>', 'partial tau: residual (default) or inverse', 'residual')
    .option('--json', 'print JSON')
    .action(async (flags: {
      matrix?: string[];
      runId?: string;
      db: string;
      report?: string;
      exportFiltered?: string;
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
      method: string;
      json?: boolean;
    }) => {
      if (flags.matrix || flags.runId) {
        let inputs: Array<{ name: string; matrix: ResponseMatrix }>;
        if (flags.runId) {
          const store = openStore(flags.db);
          try {
            inputs = runMatricesBySuite(store, resolveRunId(store, flags.runId));
          } finally {
            store.close();
          }
        } else {
          inputs = [];
          for (const spec of flags.matrix!) {
            const eq = spec.indexOf('=');
            const name = eq > 0 ? spec.slice(0, eq) : spec.replace(/^.*[\\/]/, '').replace(/\.[^.]+$/, '');
            inputs.push({ name, matrix: await readMatrixFile(eq > 0 ? spec.slice(eq + 1) : spec) });
          }
        }
        const audit = auditMatrices(inputs, {
          seed: flags.seed,
          convergence: { iterations: flags.bootstrap, tauMin: flags.tauMin, lowerMin: flags.lowerMin },
          filter: { threshold: flags.threshold },
          crossFit: { folds: flags.folds, seeds: flags.seeds, threshold: flags.threshold, iterations: flags.bootstrap },
        });
        // Discriminant validity: the matrices' overall accuracies against general-ability scores.
        let discriminant: BenchmarkAudit | undefined;
        if (flags.scores) {
          const general = list(flags.general);
          if (general.length === 0) throw new ConfigError('with --matrix, --scores gives general-ability benchmarks: name them with --general x,y');
          const table = parseScoreTable(readFileSync(flags.scores, 'utf8'), flags.scores);
          const missing = audit.models.filter((m) => !table.models.includes(m));
          if (missing.length) throw new InputError(`no scores for ${missing.length} audited model(s): ${missing.join(', ')}`, flags.scores);
          const rowOf = (m: string) => table.models.indexOf(m);
          const benchmarks: Record<string, number[]> = {};
          for (const b of audit.benchmarks) benchmarks[b.name] = audit.accuracy.map((r) => r.byBenchmark[b.name]);
          for (const g of general) {
            if (!table.benchmarks[g]) throw new ConfigError(`no column "${g}" in ${flags.scores}`);
            benchmarks[g] = audit.models.map((m) => table.benchmarks[g][rowOf(m)]);
          }
          discriminant = auditBenchmarks({ models: audit.models, benchmarks }, { tom: audit.benchmarks.map((b) => b.name), general, iterations: flags.bootstrap, seed: flags.seed, method: flags.method as 'residual' | 'inverse' });
        }
        if (flags.report) {
          mkdirSync(flags.report, { recursive: true });
          writeFileSync(join(flags.report, 'audit.html'), await renderAuditReport(audit));
        }
        if (flags.exportFiltered) {
          mkdirSync(flags.exportFiltered, { recursive: true });
          for (const [k, input] of inputs.entries()) {
            const kept = new Set(audit.filter.benchmarks[k].flags.filter((x) => x.kept).map((x) => x.id));
            const idx = input.matrix.items.map((it, i) => (kept.has(it.itemId) ? i : -1)).filter((i) => i >= 0);
            writeMatrixCsv(join(flags.exportFiltered, `${input.name}.filtered.csv`), { subjects: input.matrix.subjects, items: idx.map((i) => input.matrix.items[i]), cells: idx.map((i) => input.matrix.cells[i]) });
          }
        }
        const { filter, ...rest } = audit;
        process.stdout.write(
          flags.json
            ? `${JSON.stringify({ ...rest, filter: { threshold: filter.threshold, benchmarks: filter.benchmarks.map(({ flags: f, ...b }) => ({ ...b, flagged: f.filter((x) => !x.kept) })) }, discriminant }, null, 2)}\n`
            : `${printMatrixAudit(audit)}\n${discriminant ? `\ndiscriminant validity\n${printBenchmarkAudit(discriminant)}\n` : ''}`,
        );
        return;
      }
      if (!flags.scores) throw new ConfigError('audit needs --matrix NAME=FILE (two or more), --run-id ID, or --scores FILE.csv');
      if (!flags.tom) throw new ConfigError('audit --scores needs --tom a,b[,c]');
      if (flags.method !== 'residual' && flags.method !== 'inverse') throw new ConfigError(`--method must be residual or inverse, not "${flags.method}"`);
      let text: string;
      try {
        text = readFileSync(flags.scores, 'utf8');
      } catch (err) {
        throw new InputError(`cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, flags.scores);
      }
      const audit = auditBenchmarks(parseScoreTable(text, flags.scores), {
        tom: list(flags.tom),
        general: list(flags.general),
        iterations: flags.bootstrap,
        seed: flags.seed,
        method: flags.method,
      });
      if (flags.report) {
        mkdirSync(flags.report, { recursive: true });
        writeFileSync(join(flags.report, 'audit-scores.html'), await renderBenchmarkAuditReport(audit));
      }
      process.stdout.write(flags.json ? `${JSON.stringify(audit, null, 2)}\n` : `${printBenchmarkAudit(audit)}\n`);
    });
}
