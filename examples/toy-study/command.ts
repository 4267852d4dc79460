// `mindscope sally-anne`: the study's table of a stored run, as text or JSON.

import type { Command } from 'commander';
import { openStore, resolveRunId } from 'mindscope';
import { beliefTable } from './belief-table.js';

/** Register the command on the program. */
export function registerSallyAnne(program: Command): void {
  program
    .command('sally-anne')
    .description('toy study: accuracy on true- and false-belief stories of a stored run')
    .option('--config <file>', 'the config file that adds this command')
    .option('--db <file>', 'store', 'mindscope.db')
    .option('--run-id <id>', 'run (default: the latest)')
    .option('--json', 'print JSON')
    .action(async (f: { db: string; runId?: string; json?: boolean }) => {
      const store = await openStore(f.db);
      try {
        const rows = await beliefTable(store, await resolveRunId(store, f.runId));
        if (f.json) process.stdout.write(`${JSON.stringify(rows)}\n`);
        else
          for (const r of rows)
            process.stdout.write(`${r.subject}\t${r.condition}\t${r.accuracy.toFixed(3)} [${r.lower.toFixed(3)}, ${r.upper.toFixed(3)}]\n`);
      } finally {
        await store.close();
      }
    });
}
