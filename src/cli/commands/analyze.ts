import type { Command } from 'commander';
import { ConfigError, openStore } from '../../index.js';
import { DEFAULT_DB } from '../options.js';
import { traceEffect } from '../../analysis/index.js';
import { formatPValue, formatTextTable } from '../../report/index.js';
import { registerTimeOfDay } from './analyze-time-of-day.js';

/** `analyze` and the kernel's analyses under it; the studies add theirs (their manifests' commands in the `analyze` group). */
export function registerAnalyze(program: Command): void {
  const analyze = program.command('analyze').description('analyses of one paper family over stored runs or published rates');
  analyze
    .command('traces')
    .description(
      'the effect of reasoning-trace injection: McNemar per subject and suite between a run without and a run with --traces, over the items that were shown a trace',
    )
    .requiredOption('--baseline <id>', 'run without traces')
    .requiredOption('--treated <id>', 'run with --traces')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--json', 'print JSON: [{ subject, suite, items, untraced, baseline, treated, table, pCorrected, pExact }]')
    .action(async (f: { baseline: string; treated: string; db: string; json?: boolean }) => {
      const store = await openStore(f.db);
      try {
        for (const id of [f.baseline, f.treated]) if (!(await store.getRun(id))) throw new ConfigError(`no run "${id}" in ${f.db}`);
        const r = await traceEffect(store, f.baseline, f.treated);
        if (r.length === 0) throw new ConfigError('the two runs share no subject and item');
        if (r.every((x) => x.items === 0))
          throw new ConfigError(`run ${f.treated} showed no item a trace: run it with --traces FILE (JSONL of { item_id, trace })`);
        const pct = (x: number | null) => (x === null ? '-' : (x * 100).toFixed(1));
        const p = (x: number | null) => (x === null ? '-' : formatPValue(x));
        if (f.json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
        else
          process.stdout.write(
            `${formatTextTable(
              [
                'subject',
                'suite',
                'items',
                'no trace (left out)',
                'without %',
                'with %',
                'only without',
                'only with',
                'p (McNemar)',
                'p (exact)',
              ],
              r.map((x) => [
                x.subject,
                x.suite,
                String(x.items),
                String(x.untraced),
                pct(x.baseline),
                pct(x.treated),
                String(x.table[0][1]),
                String(x.table[1][0]),
                p(x.pCorrected),
                p(x.pExact),
              ]),
            )}\n${
              r.some((x) => x.untraced > 0)
                ? `${r.reduce((s, x) => s + x.untraced, 0)} paired item(s) had no trace in run ${f.treated} and are left out: only items shown a trace are compared\n`
                : ''
            }`,
          );
      } finally {
        await store.close();
      }
    });
  registerTimeOfDay(analyze);
}
