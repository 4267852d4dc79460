import type { Command } from 'commander';
import { withExistingRun } from '../existing-store.js';
import { formatTextTable, provenanceLines } from '../../report/index.js';
import { DEFAULT_DB } from '../options.js';

/**
 * `mindscope status --json` prints
 * `{ runId, rows: [{ subject, subjectId, suite, planned, done, failed, pending, truncated }], totals: { planned, done, failed, pending, truncated }, provenance: [record] }`;
 * `truncated` counts done trials with a reply cut off by the output-token limit.
 */
export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('trials done, failed and pending per subject and suite')
    .option('--run-id <id>', 'run (default: the newest)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--json', 'print JSON')
    .action(async (flags: { runId?: string; db: string; json?: boolean }) => {
      await withExistingRun(flags.db, flags.runId, async (store, runId) => {
        const rows = (await store.status(runId)).map((r) => ({
          subject: r.spec,
          subjectId: r.subjectId,
          suite: r.suite,
          planned: r.planned,
          done: r.done,
          failed: r.failed,
          pending: r.pending,
          truncated: r.truncated,
        }));
        const totals = rows.reduce(
          (t, r) => ({
            planned: t.planned + r.planned,
            done: t.done + r.done,
            failed: t.failed + r.failed,
            pending: t.pending + r.pending,
            truncated: t.truncated + r.truncated,
          }),
          { planned: 0, done: 0, failed: 0, pending: 0, truncated: 0 },
        );
        const provenance = await store.provenance(runId);
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ runId, rows, totals, provenance }, null, 2)}\n`);
          return;
        }
        process.stdout.write(`run ${runId}\n\n`);
        process.stdout.write(
          `${formatTextTable(
            ['subject', 'suite', 'planned', 'done', 'failed', 'pending', 'cut off'],
            rows.map((r) => [
              r.subject,
              r.suite,
              String(r.planned),
              String(r.done),
              String(r.failed),
              String(r.pending),
              String(r.truncated),
            ]),
          )}\n`,
        );
        if (totals.truncated)
          process.stdout.write(
            `\n${totals.truncated} done trial(s) had a reply cut off by the output-token limit: their answers may be missing or wrong.\n`,
          );
        // The latest provenance record: how the run was last produced.
        const last = provenance.at(-1);
        if (last) process.stdout.write(`\nprovenance (${provenance.length} record(s)), last ${provenanceLines(last).join('\n')}\n`);
        for (const f of await store.failures(runId, 5))
          process.stdout.write(`\nfailed: ${f.suite} ${f.itemId} (replicate ${f.replicate}): ${f.error}`);
        process.stdout.write('\n');
      });
    });
}
