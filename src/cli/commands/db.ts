import type { Command } from 'commander';
import { copyStore, mergeStores, type ImportSummary } from '../../index.js';

const describe = (s: ImportSummary) =>
  `${s.runs} run(s), ${s.items} item(s), ${s.trials} trial(s), ${s.cacheEntries} cached call(s), ${s.batches} batch(es) and ${s.batchRequests} batch call(s) of the batch ledger; ${s.duplicateTrials} duplicate trial(s) kept as they were`;

/** `db copy` and `merge` print `{ runs, items, trials, duplicateTrials, cacheEntries, batches, batchRequests }` with --json. */
export function registerDb(program: Command): void {
  const db = program.command('db').description('move stores between backends');
  db.command('copy')
    .description('copy a store into another: sqlite:FILE or a path, or postgres://... (either way; the target is created when missing)')
    .requiredOption('--from <store>', 'source store')
    .requiredOption('--to <store>', 'target store')
    .option('--json', 'print JSON')
    .action(async (f: { from: string; to: string; json?: boolean }) => {
      const s = await copyStore(f.from, f.to);
      process.stdout.write(f.json ? `${JSON.stringify(s)}\n` : `copied ${describe(s)}\n`);
    });
  program
    .command('merge')
    .description('merge stores of a run sharded by hand (same run specification; a trial done in several is taken from the first)')
    .argument('<stores...>', 'two or more stores (SQLite files or postgres:// URLs)')
    .requiredOption('--out <store>', 'the merged store (must not exist)')
    .option('--json', 'print JSON')
    .action(async (stores: string[], f: { out: string; json?: boolean }) => {
      const s = await mergeStores(stores, f.out);
      process.stdout.write(f.json ? `${JSON.stringify(s)}\n` : `merged ${stores.length} stores into ${f.out}: ${describe(s)}\n`);
    });
}
