import type { Command } from 'commander';
import { ConfigError, openStore } from '../../index.js';
import { DEFAULT_DB } from '../options.js';
import { traceEffect } from '../../analysis/index.js';
import { formatPValue, formatTextTable } from '../../report/index.js';

/** `analyze` and the kernel's analyses under it; the studies add theirs (their manifests' commands in the `analyze` group). */
export function registerAnalyze(program: Command): void {
  const analyze = program.command('analyze').description('analyses of one paper family over stored runs or published rates');
  analyze
    .command('traces')
    .description('the effect of reasoning-trace injection: McNemar per subject and suite between a run without and a run with --traces')
    .requiredOption('--baseline <id>', 'run without traces')
    .requiredOption('--treated <id>', 'run with --traces')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--json', 'print JSON')
    .action(async (f: { baseline: string; treated: string; db: string; json?: boolean }) => {
      const store = await openStore(f.db);
      try {
        for (const id of [f.baseline, f.treated]) if (!(await store.getRun(id))) throw new ConfigError(`no run "${id}" in ${f.db}`);
        const r = await traceEffect(store, f.baseline, f.treated);
        if (r.length === 0) throw new ConfigError('the two runs share no subject and item');
        if (f.json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
        else
          process.stdout.write(
            `${formatTextTable(
              ['subject', 'suite', 'items', 'without %', 'with %', 'only without', 'only with', 'p (McNemar)', 'p (exact)'],
              r.map((x) => [
                x.subject,
                x.suite,
                String(x.items),
                (x.baseline * 100).toFixed(1),
                (x.treated * 100).toFixed(1),
                String(x.table[0][1]),
                String(x.table[1][0]),
                formatPValue(x.pCorrected),
                formatPValue(x.pExact),
              ]),
            )}\n`,
          );
      } finally {
        await store.close();
      }
    });
}
