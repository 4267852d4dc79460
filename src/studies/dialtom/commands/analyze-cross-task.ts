import type { Command } from 'commander';
import { formatPValue, formatTextTable } from '../../../report/index.js';
import { DEFAULT_DB, printResult } from '../../../cli/toolkit.js';
import { crossTaskCorrelation, modelTaskAccuracy } from '../index.js';
import { pct, readRates, withInterval } from './rates-input.js';

interface Flags {
  rates?: string;
  runId?: string;
  db: string;
  json?: boolean;
}

async function crossTask(f: Flags): Promise<void> {
  const rows = await readRates(f, 'analyze dialtom-cross-task');
  const accuracy = modelTaskAccuracy(rows);
  const correlations = crossTaskCorrelation(rows);
  const text = `per-model correctness per task, pooled over domains (correct = round(rate x items); 95% Wilson intervals)\n${formatTextTable(
    ['model', 'task', 'domains', 'items', 'CR %', 'Wilson'],
    accuracy.map((a) => [a.model, a.task, a.domains.join(' '), String(a.items), pct(a.rate), `[${pct(a.lower)}, ${pct(a.upper)}]`]),
  )}\n\ncross-task correlation of per-model correctness (Pearson: Fisher-z interval, t-test; Spearman: Fisher-z interval with the Bonett-Wright error, t approximation)\n${formatTextTable(
    ['tasks', 'scope', 'models', 'Pearson r [95%]', 'p', 'Spearman rho [95%]', 'p'],
    correlations.map((c) => [
      c.tasks.join(' ~ '),
      c.scope,
      String(c.n),
      withInterval(c.pearson),
      formatPValue(c.pearson.p),
      withInterval(c.spearman),
      formatPValue(c.spearman.p),
    ]),
  )}\n${correlations
    .filter((c) => c.reason)
    .map((c) => `${c.tasks.join(' ~ ')} ${c.scope}: ${c.reason}\n`)
    .join('')}`;
  printResult(f.json, { accuracy, correlations }, text);
}

/**
 * `analyze dialtom-cross-task --json` prints `{ accuracy: [{ model, task, domains, correct, items, rate, lower, upper }],
 * correlations: [{ tasks, scope, models, n, pearson: { estimate, lower, upper, p }, spearman: {...}, reason? }] }`.
 */
export function registerCrossTask(analyze: Command): void {
  analyze
    .command('dialtom-cross-task')
    .description(
      "DialToM cross-task agreement (section 5.3): each model's correctness per task pooled over domains (Wilson intervals), and Pearson and Spearman correlations between tasks across models (intervals, p), pooled and per domain",
    )
    .option('--rates <file>', 'published rates: CSV with model,domain,task,correct_rate,items')
    .option('--run-id <id>', 'a stored run with DialToM suites')
    .option('--db <path>', 'store file (a SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--json', 'print JSON')
    .action(crossTask);
}
