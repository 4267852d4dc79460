import type { Command } from 'commander';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  auditBenchmarks,
  auditMatrices,
  ConfigError,
  formatTextTable,
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
  type MatrixAudit,
  type ResponseMatrix,
} from '../../index.js';
import { intOption } from '../options.js';

const list = (v: string) => v.split(',').map((s) => s.trim()).filter(Boolean);
const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');

function printBenchmarkAudit(a: BenchmarkAudit): string {
  const tauRows = (label: string, cells: BenchmarkAudit['withinTom']) => cells.map((c) => [label, `${c.a} ~ ${c.b}`, f3(c.tau), `[${f3(c.lower)}, ${f3(c.upper)}]`]);
  const out = [
    `benchmark-level audit of ${a.models} models (model bootstrap: ${a.bootstrap.iterations} resamples, seed ${a.bootstrap.seed})`,
    '',
    formatTextTable(['type', 'pair', 'tau-b', '95% CI'], [
      ...tauRows('within-ToM', a.withinTom),
      ['', 'mean', f3(a.means.withinTom), ''],
      ...tauRows('within-general', a.withinGeneral),
      ...tauRows('cross-construct', a.crossConstruct),
      ['', 'mean', f3(a.means.crossConstruct), ''],
    ]),
    '',
    `partial tau (${a.method} method)`,
    formatTextTable(
      ['pair', 'control', 'zero-order', 'partial', '95% CI', 'p (boot)', 'shrinkage'],
      a.partial.map((p) => [`${p.a} ~ ${p.b}`, p.controls.join(' + '), f3(p.zeroOrder), f3(p.partial), `[${f3(p.lower)}, ${f3(p.upper)}]`, p.pBootstrap.toFixed(4), `${(p.shrinkage * 100).toFixed(1)}%`]),
    ),
  ];
  if (a.varianceDecomposition.length) {
    out.push('', 'variance decomposition (R-squared on the mean of the standardised general benchmarks)');
    out.push(formatTextTable(['benchmark', 'general', 'unexplained'], a.varianceDecomposition.map((v) => [v.benchmark, `${(v.generalShare * 100).toFixed(1)}%`, `${(v.unexplained * 100).toFixed(1)}%`])));
  }
  return out.join('\n');
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function printMatrixAudit(a: MatrixAudit): string {
  const out = [`audit of ${a.models.length} models on ${a.benchmarks.map((b) => `${b.name} (${b.items} items${b.droppedIncomplete ? `, ${b.droppedIncomplete} incomplete left out` : ''})`).join(', ')}`];
  if (a.droppedModels.length) out.push(`models left out (not in every benchmark): ${a.droppedModels.join(', ')}`);
  const rule = a.convergence.rule;
  out.push('', `stage 1, convergent validity (accept: tau >= ${rule.tauMin} and lower bound >= ${rule.lowerMin}; Holm within pair)`);
  out.push(
    formatTextTable(
      ['pair', 'category', 'items', 'tau-b', '95% CI', 'p (Holm)', 'accepted', 'tau filtered'],
      a.convergence.cells.map((c, i) => [
        c.pair.join(' ~ '),
        c.category,
        `${c.itemsA}/${c.itemsB}`,
        f3(c.tau),
        `[${f3(c.lower)}, ${f3(c.upper)}]`,
        c.pHolm.toExponential(2),
        c.accepted ? 'yes' : 'no',
        f3(a.convergenceFiltered.cells[i]?.tau ?? Number.NaN),
      ]),
    ),
  );
  for (const p of a.convergence.pairs) if (p.excludedCategories.length) out.push(`${p.pair.join(' ~ ')}: categories in one benchmark only, left out: ${p.excludedCategories.join(', ')}`);
  out.push(`overall mean tau ${f3(a.convergence.overallMeanTau)}`);
  out.push('', `stage 2, item filter (point-biserial < ${a.filter.threshold} or zero variance)`);
  out.push(formatTextTable(['benchmark', 'category', 'kept', 'total', 'retained'], a.filter.benchmarks.flatMap((b) => [...b.retention.map((r) => [b.name, r.category, String(r.kept), String(r.total), pct(r.share)]), [b.name, 'all', String(b.kept), String(b.total), pct(b.kept / b.total)]])));
  const s = a.crossFit.settings;
  out.push('', `stage 3, repeated cross-fit (${s.folds} folds x ${s.seeds} seeds; delta tau after - before filtering held-out items)`);
  out.push(formatTextTable(['pair', 'category', 'folds', 'mean delta', '95% CI', 'p (Holm)', 'sample loss'], a.crossFit.cells.map((c) => [c.pair.join(' ~ '), c.category, String(c.folds), f3(c.meanDelta), `[${f3(c.lower)}, ${f3(c.upper)}]`, c.pHolm.toFixed(4), pct(c.sampleLoss)])));
  out.push(`aggregate delta ${f3(a.crossFit.aggregate.meanDelta)}, conservative interval [${f3(a.crossFit.aggregate.lower)}, ${f3(a.crossFit.aggregate.upper)}], mean sample loss ${pct(a.crossFit.aggregate.sampleLoss)}`);
  out.push('', 'factor structure (parallel analysis; PCA)');
  out.push(
    formatTextTable(
      ['matrix', 'items', 'components', 'EFA factors', 'factor variance', 'PC1', 'PC2', 'cum. 5 PC', 'KMO'],
      a.structure.map((x) => [x.name, String(x.items), String(x.nComponents), String(x.efa.factors), x.efa.varianceShare.map(pct).join(' '), pct(x.pcShares[0]), pct(x.pcShares[1] ?? 0), pct(x.cumulative5), x.kmo === null ? 'n/a' : x.kmo.toFixed(3)]),
    ),
  );
  for (const x of a.structure) if (x.note) out.push(`${x.name}: ${x.note}`);
  return out.join('\n');
}

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
