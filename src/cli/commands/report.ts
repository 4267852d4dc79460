import type { Command } from 'commander';
import { openStore, resolveRunId, writeRunReport } from '../../index.js';
import { DEFAULT_DB } from '../options.js';

export function registerReport(program: Command): void {
  program
    .command('report')
    .description('write a self-contained HTML report of a run')
    .requiredOption('--out <dir>', 'output folder (index.html is written there)')
    .option('--run-id <id>', 'run (default: the newest)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--audit', "add the psychometric audit of the run's suites (two or more suites, three or more subjects)")
    .action(async (flags: { out: string; runId?: string; db: string; audit?: boolean }) => {
      const store = await openStore(flags.db);
      try {
        const path = await writeRunReport(store, await resolveRunId(store, flags.runId), flags.out, { audit: flags.audit });
        process.stdout.write(`wrote ${path}\n`);
      } finally {
        await store.close();
      }
    });
}
