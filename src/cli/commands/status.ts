import type { Command } from 'commander';
import { openStore, resolveRunId } from '../../index.js';
import { formatTextTable } from '../../report/index.js';
import { DEFAULT_DB } from '../options.js';

/**
 * `mindscope status --json` prints
 * `{ runId, rows: [{ subject, subjectId, suite, planned, done, failed, pending }], totals: { planned, done, failed, pending } }`.
 */
export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('trials done, failed and pending per subject and suite')
    .option('--run-id <id>', 'run (default: the newest)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--json', 'print JSON')
    .action(async (flags: { runId?: string; db: string; json?: boolean }) => {
      const store = await openStore(flags.db);
      try {
        const runId = await resolveRunId(store, flags.runId);
        const rows = (await store.status(runId)).map((r) => ({
          subject: r.spec,
          subjectId: r.subjectId,
          suite: r.suite,
          planned: r.planned,
          done: r.done,
          failed: r.failed,
          pending: r.pending,
        }));
        const totals = rows.reduce(
          (t, r) => ({
            planned: t.planned + r.planned,
            done: t.done + r.done,
            failed: t.failed + r.failed,
            pending: t.pending + r.pending,
          }),
          { planned: 0, done: 0, failed: 0, pending: 0 },
        );
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ runId, rows, totals }, null, 2)}\n`);
          return;
        }
        process.stdout.write(`run ${runId}\n\n`);
        process.stdout.write(
          `${formatTextTable(
            ['subject', 'suite', 'planned', 'done', 'failed', 'pending'],
            rows.map((r) => [r.subject, r.suite, String(r.planned), String(r.done), String(r.failed), String(r.pending)]),
          )}\n`,
        );
        for (const f of await store.failures(runId, 5))
          process.stdout.write(`\nfailed: ${f.suite} ${f.itemId} (replicate ${f.replicate}): ${f.error}`);
        process.stdout.write('\n');
      } finally {
        await store.close();
      }
    });
}
