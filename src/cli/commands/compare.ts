import type { Command } from 'commander';
import { ConfigError, readMatrixCsv, readMatrixParquet, runMatrix, type ResponseMatrix } from '../../index.js';
import { matchSubject, SUBJECT_NAME_FORMS } from '../../app/index.js';
import { comparePaired } from '../../analysis/index.js';
import { formatTextTable } from '../../report/index.js';
import { withExistingRun } from '../existing-store.js';
import { intOption, DEFAULT_DB } from '../options.js';

/** The specs `--subjects` names (spec, short name or id), among the run's subjects or the matrix's. */
function chosenSubjects(list: string | undefined, subjects: ReadonlyArray<{ spec: string; id?: string }>): string[] | undefined {
  if (list === undefined) return undefined;
  return list
    .split(',')
    .filter((s) => s.trim())
    .map((name) => matchSubject(subjects, name, '--subjects').spec);
}

export function registerCompare(program: Command): void {
  program
    .command('compare')
    .description(
      'paired comparison of subjects on the same items: difference with a paired score interval (Newcombe), McNemar, Holm across categories, minimum detectable difference',
    )
    .option('--run-id <id>', 'run in the store (default: the newest)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--matrix <file>', 'a response matrix file (CSV or Parquet) instead of a run')
    .option('--subjects <list>', `comma-separated subjects to compare (default: all); ${SUBJECT_NAME_FORMS}, as in the viewer's URLs`)
    .option('--replicate <r>', 'replicate to use when a run has several', intOption('--replicate', 0))
    .option('--json', 'print JSON')
    .action(async (f: { runId?: string; db: string; matrix?: string; subjects?: string; replicate?: number; json?: boolean }) => {
      let matrix: ResponseMatrix;
      let subjects: string[] | undefined;
      if (f.matrix) {
        matrix = f.matrix.endsWith('.parquet') ? await readMatrixParquet(f.matrix) : readMatrixCsv(f.matrix);
        subjects = chosenSubjects(
          f.subjects,
          matrix.subjects.map((spec) => ({ spec })),
        );
      } else {
        matrix = await withExistingRun(f.db, f.runId, async (store, runId) => {
          subjects = chosenSubjects(f.subjects, await store.runSubjects(runId));
          // Paired tests take one answer per subject and item: one replicate, said when there are several.
          const trials = (await store.getRun(runId))?.config.trials;
          const replicates = typeof trials === 'number' && trials > 1 ? ` (its replicates are 0 to ${trials - 1})` : '';
          const m = await runMatrix(store, runId, f.replicate ?? 0);
          if (m.items.length === 0 && f.replicate !== undefined)
            throw new ConfigError(`run ${runId} has no scored trial of replicate ${f.replicate}${replicates}`);
          if (replicates && f.replicate === undefined)
            process.stderr.write(`note: run ${runId} has ${trials} replicates; compared on replicate 0 (--replicate R picks another)\n`);
          return m;
        });
      }
      if (matrix.items.length === 0) throw new ConfigError('no scored items to compare');
      const cells = comparePaired(matrix, { subjects });
      if (f.json) {
        process.stdout.write(`${JSON.stringify(cells, null, 2)}\n`);
        return;
      }
      const pc = (x: number) => `${(x * 100).toFixed(1)}`;
      // A cell without an interval gets a footnote mark, and the reason under the table.
      const notes = [...new Set(cells.flatMap((c) => (c.note ? [c.note] : [])))];
      const mark = (c: (typeof cells)[number]) => (c.note ? ` ${'*'.repeat(notes.indexOf(c.note) + 1)}` : '');
      process.stdout.write(
        `${formatTextTable(
          ['A', 'B', 'group', 'n', 'acc A', 'acc B', 'A - B', '95% CI', 'only A/only B', 'McNemar p', 'Holm p', 'MDD'],
          cells.map((c) => [
            c.a,
            c.b,
            c.group,
            String(c.n),
            pc(c.accuracyA),
            pc(c.accuracyB),
            pc(c.difference),
            c.note ? `-${mark(c)}` : `[${pc(c.lower)}, ${pc(c.upper)}]`,
            `${c.onlyA}/${c.onlyB}`,
            c.pMcnemar.toPrecision(3),
            c.pHolm.toPrecision(3),
            c.minimumDetectableDifference === null ? '-' : pc(c.minimumDetectableDifference),
          ]),
        )}\n(percentage points; 95% CI: Newcombe's hybrid score interval for paired proportions; MDD: the smallest difference this many items detects at alpha 0.05 with power 0.8)\n${notes.map((n, i) => `${'*'.repeat(i + 1)} ${n}\n`).join('')}`,
      );
    });
}
