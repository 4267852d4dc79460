import type { Command } from 'commander';
import { openStore, resolveRunId, timeOfDayAnalysis } from '../../index.js';
import { DEFAULT_DB } from '../options.js';
import { formatTextTable } from '../../report/index.js';

/** `analyze time-of-day`: a run's mean score per time of day (scheduled slot, or the hour trials finished in) and subject. */
export function registerTimeOfDay(analyze: Command): void {
  analyze
    .command('time-of-day')
    .description(
      "a run's results by time of day: per scheduled repetition slot (run --enqueue --repeat-at) or, without a schedule, per UTC hour the trials finished in; mean score per subject and for all",
    )
    .option('--run-id <id>', 'run (default: the newest)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--scorer <name>', 'read this scorer (a judge panel or re-scorer, e.g. judge:castelli-triangles) instead of the protocol score')
    .option(
      '--json',
      'print JSON: { groupedBy, schedule, rows: [{ timeOfDay, subject, replicates, trials, scored, mean, firstFinished, lastFinished }] }',
    )
    .action(async (f: { runId?: string; db: string; scorer?: string; json?: boolean }) => {
      const store = await openStore(f.db);
      try {
        const runId = await resolveRunId(store, f.runId);
        const r = await timeOfDayAnalysis(store, runId, { scorer: f.scorer });
        if (f.json) {
          process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
          return;
        }
        const by = r.groupedBy === 'schedule' ? 'scheduled time of day (UTC)' : 'hour finished (UTC)';
        process.stdout.write(
          `run ${runId} by ${by}\n${formatTextTable(
            [
              r.groupedBy === 'schedule' ? 'slot' : 'hour',
              'subject',
              'replicates',
              'trials',
              'scored',
              'mean',
              'first finished',
              'last finished',
            ],
            r.rows.map((x) => [
              x.timeOfDay,
              x.subject ?? 'all',
              x.replicates.map((n) => n + 1).join(','),
              String(x.trials),
              String(x.scored),
              x.mean === null ? '-' : x.mean.toFixed(3),
              x.firstFinished,
              x.lastFinished,
            ]),
          )}\n`,
        );
      } finally {
        await store.close();
      }
    });
}
