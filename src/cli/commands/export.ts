import type { Command } from 'commander';
import { exportMatrix, resolveRunId } from '../../index.js';
import { openExistingStore } from '../existing-store.js';
import { intOption, DEFAULT_DB } from '../options.js';

/** `export matrix --json` prints `{ runId, path, items, subjects }`. */
export function registerExport(program: Command): void {
  const exp = program.command('export').description('export results');
  exp
    .command('matrix')
    .description('the response matrix (items x subjects, 1/0/blank, with suite, category and original label) as CSV or Parquet')
    .requiredOption('--out <file>', 'FILE.csv or FILE.parquet')
    .option('--run-id <id>', 'run (default: the newest)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--replicate <r>', 'one replicate only (default: the mean over replicates)', intOption('--replicate', 0))
    .option('--json', 'print JSON')
    .action(async (flags: { out: string; runId?: string; db: string; replicate?: number; json?: boolean }) => {
      const store = await openExistingStore(flags.db);
      try {
        const runId = await resolveRunId(store, flags.runId);
        const m = await exportMatrix(store, runId, flags.out, flags.replicate);
        process.stdout.write(
          flags.json
            ? `${JSON.stringify({ runId, path: flags.out, items: m.items.length, subjects: m.subjects })}\n`
            : `wrote ${flags.out}: ${m.items.length} items x ${m.subjects.length} subjects (run ${runId})\n`,
        );
      } finally {
        await store.close();
      }
    });
}
