import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { auditBenchmarks, ConfigError, formatTextTable, InputError, parseScoreTable, type BenchmarkAudit } from '../../index.js';
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

export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description('psychometric audit of ToM benchmarks (now: the benchmark-level analyses from a score table)')
    .option('--scores <file>', 'CSV with one row per model and one column per benchmark')
    .option('--tom <names>', 'comma-separated ToM benchmark columns')
    .option('--general <names>', 'comma-separated general-ability benchmark columns (discriminant controls)', '')
    .option('--bootstrap <n>', 'bootstrap resamples', intOption('--bootstrap', 10), 1000)
    .option('--seed <s>', 'bootstrap seed', intOption('--seed', 0), 0)
    .option('--method <m>', 'partial tau: residual (default) or inverse', 'residual')
    .option('--json', 'print JSON')
    .action((flags: { scores?: string; tom?: string; general: string; bootstrap: number; seed: number; method: string; json?: boolean }) => {
      if (!flags.scores) throw new ConfigError('audit needs --scores FILE.csv (response-matrix audits are not built yet)');
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
      process.stdout.write(flags.json ? `${JSON.stringify(audit, null, 2)}\n` : `${printBenchmarkAudit(audit)}\n`);
    });
}
