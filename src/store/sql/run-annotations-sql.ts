// What a run keeps beside its trials: the rubrics its judge scores were made with (pinned, so
// that one run never mixes two versions of a rubric) and its IRT results (run --tiny/--adaptive).

import { ConfigError } from '../../core/errors.js';
import type { IrtResultRow } from '../store.js';
import type { SqlDriver } from './driver.js';

/** Pin `rubric` (by its file's SHA-256) to the run; a different file under the same name is refused. */
export async function pinRunRubric(db: SqlDriver, runId: string, rubric: string, sha256: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.run('INSERT INTO rubric_pins (run_id, rubric, sha256) VALUES (?, ?, ?) ON CONFLICT (run_id, rubric) DO NOTHING', [
      runId,
      rubric,
      sha256,
    ]);
    const pinned = (await tx.get<{ sha256: string }>('SELECT sha256 FROM rubric_pins WHERE run_id = ? AND rubric = ?', [runId, rubric]))!;
    if (pinned.sha256 !== sha256)
      throw new ConfigError(
        `run ${runId} was scored with rubric "${rubric}" sha256 ${pinned.sha256.slice(0, 12)}...; this file is ${sha256.slice(0, 12)}...: refusing to mix rubrics (use a new rubric name)`,
      );
  });
}

/** The rubrics pinned to a run, in the order they were pinned. */
export function runRubricPins(db: SqlDriver, runId: string): Promise<Array<{ rubric: string; sha256: string }>> {
  return db.all<{ rubric: string; sha256: string }>(
    `SELECT rubric, sha256 FROM rubric_pins WHERE run_id = ? ORDER BY ${db.dialect.insertionOrder}`,
    [runId],
  );
}

/** Store (or replace) a subject's IRT result for a suite of the run. */
export async function putRunIrtResult(db: SqlDriver, row: IrtResultRow): Promise<void> {
  await db.run(
    `INSERT INTO irt_results (run_id, subject_id, suite, mode, bank_id, result) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (run_id, subject_id, suite) DO UPDATE SET mode = excluded.mode, bank_id = excluded.bank_id, result = excluded.result`,
    [row.runId, row.subjectId, row.suite, row.mode, row.bankId, JSON.stringify(row.result)],
  );
}

/** A run's IRT results, by subject and suite. */
export async function runIrtResults(db: SqlDriver, runId: string): Promise<IrtResultRow[]> {
  const rows = await db.all<{ subject_id: string; suite: string; mode: string; bank_id: string; result: string }>(
    'SELECT subject_id, suite, mode, bank_id, result FROM irt_results WHERE run_id = ? ORDER BY subject_id, suite',
    [runId],
  );
  return rows.map((r) => ({
    runId,
    subjectId: r.subject_id,
    suite: r.suite,
    mode: r.mode as IrtResultRow['mode'],
    bankId: r.bank_id,
    result: JSON.parse(r.result),
  }));
}
