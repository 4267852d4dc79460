import type { Command } from 'commander';
import { ConfigError, isCategory } from '../../core/index.js';
import { importInspectLogs } from '../../index.js';
import { withStore } from '../fresh-store.js';
import { DEFAULT_DB } from '../options.js';
import { printResult } from '../output.js';

export function registerImport(program: Command): void {
  const imp = program.command('import').description('bring results of other tools into the store');
  imp
    .command('inspect')
    .description('Inspect AI eval logs (.json, or .eval) as a run: models become subjects, tasks suites, samples items, epochs replicates')
    .argument('<paths...>', 'log files or directories of logs')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--run-id <id>', 'run to create (default: inspect- and a hash of the files)')
    .option('--scorer <name>', "the Inspect scorer whose value is the trial's score (default: each log's first)")
    .option('--category <category>', 'category of samples whose metadata names none (e.g. belief)')
    .option('--json', 'print JSON (the import summary)')
    .action(async (paths: string[], flags: { db: string; runId?: string; scorer?: string; category?: string; json?: boolean }) => {
      const { category: given } = flags;
      if (given !== undefined && !isCategory(given)) throw new ConfigError(`--category "${given}" is not a ToM category`);
      const category = given !== undefined && isCategory(given) ? given : undefined;
      const r = await withStore(flags.db, (store) =>
        importInspectLogs({ store, paths, runId: flags.runId, scorer: flags.scorer, category }),
      );
      printResult(
        flags.json,
        r,
        `imported ${r.files} Inspect log(s) as run ${r.runId}: ${r.trials} trials (${r.failed} failed, ${r.duplicates} already there); ` +
          `subjects: ${r.subjects.join(', ')}; suites: ${r.suites.join(', ')}`,
      );
    });
}
