import type { Command } from 'commander';
// The light helpers (toolkit.ts): the store and the record schemas are loaded when an export
// runs, not when the command is registered (`export inspect --help`).
import { DEFAULT_DB, intOption, printResult, withExistingRun } from '../toolkit.js';

/** `export matrix --json` prints `{ runId, path, items, subjects }`; `export trials --json` `{ runId, path, trials }`; `export inspect --json` `{ runId, out, files, samples }`. */
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
      await withExistingRun(flags.db, flags.runId, async (store, runId) => {
        const { exportMatrix } = await import('../../app/index.js');
        const m = await exportMatrix(store, runId, flags.out, flags.replicate);
        process.stdout.write(
          flags.json
            ? `${JSON.stringify({ runId, path: flags.out, items: m.items.length, subjects: m.subjects })}\n`
            : `wrote ${flags.out}: ${m.items.length} items x ${m.subjects.length} subjects (run ${runId})\n`,
        );
      });
    });
  exp
    .command('trials')
    .description(
      'every trial of a run, one row each (messages, reply, reasoning, parsed answer, gold, scores, judges, usage) as JSONL or Parquet',
    )
    .requiredOption('--out <file>', 'FILE.jsonl or FILE.parquet')
    .option('--run-id <id>', 'run (default: the newest)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--json', 'print JSON')
    .action(async (flags: { out: string; runId?: string; db: string; json?: boolean }) => {
      await withExistingRun(flags.db, flags.runId, async (store, runId) => {
        // The exporters' own entry: the export loads no more than it uses.
        const { exportTrials } = await import('../../exports.js');
        const { rows } = await exportTrials(store, runId, flags.out);
        printResult(flags.json, { runId, path: flags.out, trials: rows }, `wrote ${flags.out}: ${rows} trials (run ${runId})`);
      });
    });
  exp
    .command('inspect')
    .description('a run as Inspect AI eval logs (JSON, log format version 2): one .json per subject x suite, for inspect view')
    .requiredOption('--out <dir>', 'directory for the logs')
    .option('--run-id <id>', 'run (default: the newest)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--json', 'print JSON')
    .action(async (flags: { out: string; runId?: string; db: string; json?: boolean }) => {
      await withExistingRun(flags.db, flags.runId, async (store, runId) => {
        const { exportInspectLogs } = await import('../../exports.js');
        const { files } = await exportInspectLogs(store, runId, flags.out);
        const samples = files.reduce((a, f) => a + f.samples, 0);
        printResult(
          flags.json,
          { runId, out: flags.out, files, samples },
          `wrote ${files.length} Inspect eval log(s) with ${samples} samples to ${flags.out} (run ${runId})`,
        );
      });
    });
}
