import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { readText } from '../../../core/index.js';
import { formatPValue, formatTextTable, renderSvg } from '../../../report/index.js';
import { choiceOption, DEFAULT_DB, printResult } from '../../../cli/toolkit.js';
import { modelTaskAccuracy, type ModelParameters, parseParameterTable, type ScaleMeasure, scaleAnalysis } from '../index.js';
import { scaleChartSpec } from '../report/scale-chart.js';
import { pct, readRates, withInterval } from './rates-input.js';

interface Flags {
  rates?: string;
  runId?: string;
  db: string;
  params?: string;
  measure: ScaleMeasure;
  plot?: string;
  json?: boolean;
}

const billions = (b: number) => (b >= 1000 ? `${b / 1000}T` : `${b}B`);

async function scale(f: Flags): Promise<void> {
  const rows = await readRates(f, 'analyze dialtom-scale');
  const given: ReadonlyMap<string, ModelParameters> = f.params ? parseParameterTable(readText(f.params), f.params) : new Map();
  const r = scaleAnalysis(modelTaskAccuracy(rows), given, f.measure);
  if (f.plot) writeFileSync(f.plot, await renderSvg(scaleChartSpec(r)));
  const text = `correctness against model scale (${r.measure} parameters; correctness pooled over domains with 95% Wilson intervals)\n${formatTextTable(
    ['model', 'task', 'parameters', 'family', 'source', 'CR %', 'Wilson'],
    [...r.points]
      .sort((a, b) => a.task.localeCompare(b.task) || a.params - b.params)
      .map((p) => [p.model, p.task, billions(p.params), p.family ?? '', p.source, pct(p.rate), `[${pct(p.lower)}, ${pct(p.upper)}]`]),
  )}\n\nrank correlation with scale (Spearman, Fisher-z interval, t approximation; Pearson on log10 parameters beside it)\n${formatTextTable(
    ['task', 'models', 'Spearman rho [95%]', 'p', 'Pearson r, log10 [95%]', 'p'],
    r.correlations.map((c) => [
      c.task,
      String(c.n),
      withInterval(c.spearman),
      formatPValue(c.spearman.p),
      withInterval(c.pearson),
      formatPValue(c.pearson.p),
    ]),
  )}\n${
    r.inversions.length
      ? `\nwithin a family, the smaller model scores higher:\n${r.inversions
          .map((i) => `  ${i.task}, ${i.family}: ${i.smaller} ${pct(i.smallerRate)}% > ${i.larger} ${pct(i.largerRate)}%\n`)
          .join('')}`
      : ''
  }${r.unknown.length ? `\nno parameter count (give them in --params): ${r.unknown.join(', ')}\n` : ''}${f.plot ? `\nplot: ${f.plot}\n` : ''}`;
  printResult(f.json, { ...r, ...(f.plot ? { plot: f.plot } : {}) }, text);
}

/**
 * `analyze dialtom-scale --json` prints `{ measure, points: [{ model, task, params, family?, source, rate, lower, upper, ... }],
 * unknown: [model], correlations: [{ task, n, spearman, pearson, note, reason? }], inversions: [{ task, family, smaller, larger, smallerRate, largerRate }], plot? }`.
 */
export function registerScale(analyze: Command): void {
  analyze
    .command('dialtom-scale')
    .description(
      "DialToM performance against model scale (section 5.1): each model's parameter count (given, or published for open-weights models) and correctness with intervals, the rank correlation with scale per task, within-family inversions, and a plot",
    )
    .option('--rates <file>', 'published rates: CSV with model,domain,task,correct_rate,items')
    .option('--run-id <id>', 'a stored run with DialToM suites')
    .option('--db <path>', 'store file (a SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--params <file>', 'parameter counts: CSV model,params_b[,active_b][,family] (billions; overrides the published counts)')
    .option(
      '--measure <m>',
      'total or active parameters (mixture-of-experts models differ)',
      choiceOption('--measure', ['total', 'active'] as const),
      'total',
    )
    .option('--plot <file>', 'write the figure (SVG): correctness against parameters, a panel per task')
    .option('--json', 'print JSON')
    .action(scale);
}
