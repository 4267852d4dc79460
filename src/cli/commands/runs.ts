import type { Command } from 'commander';
import { runOverviews, type RunOverview } from '../../app/index.js';
import { displayNames, formatUsd } from '../../report/index.js';
import { DEFAULT_DB } from '../default-db.js';
import { withExistingStore } from '../existing-store.js';
import { fitTable } from '../fit-table.js';
import { printResult } from '../output.js';

const percent = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)}%`);

/** The runs as a table of at most 100 columns: one line per subject, the run's own columns on its first. */
function runsTable(runs: readonly RunOverview[]): string {
  const rows = runs.map((r) => {
    const names = displayNames(r.subjects.map((s) => s.spec));
    return [
      r.id,
      r.name ?? '',
      r.suites.join(', '),
      r.subjects.map((s) => names.get(s.spec) ?? s.spec).join('\n'),
      r.subjects.map((s) => percent(s.accuracy)).join('\n'),
      r.state,
      formatUsd(r.costUsd),
      r.createdAt.slice(0, 10),
    ];
  });
  return fitTable(
    [
      { header: 'run' },
      { header: 'name', shrink: 'wrap' },
      { header: 'suites', shrink: 'wrap' },
      { header: 'models', shrink: 'cut', min: 12 },
      { header: 'accuracy', right: true },
      { header: 'status' },
      { header: 'cost', right: true },
      { header: 'created' },
    ],
    rows,
  );
}

/**
 * `mindscope runs --json` prints `[{ id, name, createdAt, suites, subjects: [{ spec, accuracy,
 * items, planned, done, failed, truncated }], trials: { planned, done, failed, pending }, state,
 * costUsd }]`, newest first; `state` is complete, partial or failed.
 */
export function registerRuns(program: Command): void {
  program
    .command('runs')
    .description('list the runs in a store: id, name, suites, models with their accuracy, status, cost and date (newest first)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--json', 'print JSON')
    .addHelpText(
      'after',
      [
        '',
        'status: complete: every planned trial is done;',
        '        failed: a model gave no usable answer (each of its trials failed or was cut off);',
        '        partial: trials are pending or failed (the same run command continues the run).',
        "accuracy: each model's, over its scored trials. Name a run with run --name TEXT.",
      ].join('\n'),
    )
    .action(async (f: { db: string; json?: boolean }) => {
      await withExistingStore(f.db, async (store) => {
        const runs = await runOverviews(store);
        printResult(f.json, runs, runs.length ? runsTable(runs) : `no runs in ${store.location}`);
      });
    });
}
