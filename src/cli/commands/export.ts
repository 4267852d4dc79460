import type { Command } from 'commander';
import { exportMatrix, openStore, resolveRunId } from '../../index.js';
import { intOption } from '../options.js';

export function registerExport(program: Command): void {
  const exp = program.command('export').description('export results');
  exp
    .command('matrix')
    .description('the response matrix (items x subjects, 1/0/blank, with suite, category and original label) as CSV or Parquet')
    .requiredOption('--out <file>', 'FILE.csv or FILE.parquet')
    .option('--run-id <id>', 'run (default: the newest)')
    .option('--db <path>', 'store file', 'mindscope.db')
    .option('--replicate <r>', 'one replicate only (default: the mean over replicates)', intOption('--replicate', 0))
    .action((flags: { out: string; runId?: string; db: string; replicate?: number }) => {
      const store = openStore(flags.db);
      try {
        const runId = resolveRunId(store, flags.runId);
        const m = exportMatrix(store, runId, flags.out, flags.replicate);
        process.stdout.write(`wrote ${flags.out}: ${m.items.length} items x ${m.subjects.length} subjects (run ${runId})\n`);
      } finally {
        store.close();
      }
    });
}
