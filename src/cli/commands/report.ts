import type { Command } from 'commander';
import { writeRunReport } from '../../run-report.js';
import { withExistingRun } from '../existing-store.js';
import { DEFAULT_DB } from '../default-db.js';

/** `report --json` prints `{ runId, path }`. */
export function registerReport(program: Command): void {
  program
    .command('report')
    .description('write a self-contained HTML report of a run')
    .requiredOption('--out <dir>', 'output folder (index.html is written there)')
    .option('--run-id <id>', 'run (default: the newest)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--audit', "add the psychometric audit of the run's suites (two or more suites, three or more subjects)")
    .option('--force', 'replace an existing report in --out')
    .option('--json', 'print JSON')
    .action(async (flags: { out: string; runId?: string; db: string; audit?: boolean; force?: boolean; json?: boolean }) => {
      await withExistingRun(flags.db, flags.runId, async (store, runId) => {
        const path = await writeRunReport(store, runId, flags.out, { audit: flags.audit, force: flags.force });
        process.stdout.write(flags.json ? `${JSON.stringify({ runId, path })}\n` : `wrote ${path}\n`);
      });
    });
}
