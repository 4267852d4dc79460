// What a run is, apart from its trials: its record (configuration, specification, name), the
// provenance recorded each time it was opened, its plan (trials planned per subject and suite)
// and the subjects it runs.

import { canonicalJson } from '../../core/hash.js';
import type { PlanRow, RunRecord, SubjectRecord } from '../store.js';
import type { SqlDriver } from './driver.js';

interface RunRow {
  id: string;
  created_at: string;
  config: string;
  spec: string | null;
  name: string | null;
}

const RUN_COLUMNS = 'SELECT id, created_at, config, spec, name FROM runs';

const runOf = (r: RunRow): RunRecord => ({
  id: r.id,
  createdAt: r.created_at,
  config: JSON.parse(r.config),
  ...(r.spec ? { spec: JSON.parse(r.spec) } : {}),
  ...(r.name !== null ? { name: r.name } : {}),
});

export async function runRecord(db: SqlDriver, id: string): Promise<RunRecord | undefined> {
  const row = await db.get<RunRow>(`${RUN_COLUMNS} WHERE id = ?`, [id]);
  return row ? runOf(row) : undefined;
}

/** Every run, oldest first (ties by id), in the same order on both backends. */
export async function runRecords(db: SqlDriver): Promise<RunRecord[]> {
  const { bytewise } = db.dialect;
  return (await db.all<RunRow>(`${RUN_COLUMNS} ORDER BY ${bytewise('created_at')}, ${bytewise('id')}`)).map(runOf);
}

export async function insertRun(db: SqlDriver, run: RunRecord): Promise<void> {
  // A run planned before specifications were stored gets its spec when opened again with the
  // same identity; a name given replaces the stored one (same identity only).
  await db.run(
    `INSERT INTO runs (id, created_at, config, spec, name) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET spec = COALESCE(runs.spec, excluded.spec), name = COALESCE(excluded.name, runs.name)
     WHERE runs.config = excluded.config AND ((runs.spec IS NULL AND excluded.spec IS NOT NULL) OR excluded.name IS NOT NULL)`,
    [run.id, run.createdAt, JSON.stringify(run.config), run.spec ? JSON.stringify(run.spec) : null, run.name ?? null],
  );
}

/** The run's provenance records, in the order recorded. */
export async function runProvenance(db: SqlDriver, runId: string): Promise<Array<Record<string, unknown>>> {
  const rows = await db.all<{ provenance: string }>(
    `SELECT provenance FROM run_provenance WHERE run_id = ? ORDER BY recorded_at, ${db.dialect.insertionOrder}`,
    [runId],
  );
  return rows.map((r) => JSON.parse(r.provenance) as Record<string, unknown>);
}

/** Record provenance unless it says what the last record says (its time aside). */
export async function appendProvenance(db: SqlDriver, runId: string, provenance: Record<string, unknown>): Promise<void> {
  const { recordedAt: _at, ...what } = provenance;
  const last = (await runProvenance(db, runId)).at(-1);
  if (last) {
    const { recordedAt: _before, ...was } = last;
    if (canonicalJson(was) === canonicalJson(what)) return;
  }
  await db.run('INSERT INTO run_provenance (run_id, recorded_at, provenance) VALUES (?, ?, ?)', [
    runId,
    String(provenance.recordedAt ?? new Date().toISOString()),
    JSON.stringify(provenance),
  ]);
}

export async function upsertRunPlan(db: SqlDriver, runId: string, rows: PlanRow[]): Promise<void> {
  await db.transaction(async (tx) => {
    for (const r of rows) {
      await tx.run(
        'INSERT INTO run_plan (run_id, subject_id, suite, planned) VALUES (?, ?, ?, ?) ON CONFLICT (run_id, subject_id, suite) DO UPDATE SET planned = excluded.planned',
        [runId, r.subjectId, r.suite, r.planned],
      );
    }
  });
}

/** A subject is stored once, by id: later records under the same id are ignored. */
export async function insertSubject(db: SqlDriver, s: SubjectRecord): Promise<void> {
  await db.run('INSERT INTO subjects (id, spec, settings) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING', [
    s.id,
    s.spec,
    JSON.stringify(s.settings),
  ]);
}

/** The subjects the run's plan names, by id. */
export async function runSubjectRecords(db: SqlDriver, runId: string): Promise<SubjectRecord[]> {
  const rows = await db.all<{ id: string; spec: string; settings: string }>(
    `SELECT DISTINCT s.id AS id, s.spec AS spec, s.settings AS settings FROM run_plan p JOIN subjects s ON s.id = p.subject_id
     WHERE p.run_id = ? ORDER BY s.id`,
    [runId],
  );
  return rows.map((r) => ({ id: r.id, spec: r.spec, settings: JSON.parse(r.settings) }));
}

/** The items a run's trials were run on: one row per suite, item id and item hash. */
export async function runItemHashes(db: SqlDriver, runId: string): Promise<Array<{ suite: string; itemId: string; itemHash: string }>> {
  const rows = await db.all<{ suite: string; item_id: string; item_hash: string }>(
    'SELECT DISTINCT suite, item_id, item_hash FROM trials WHERE run_id = ?',
    [runId],
  );
  return rows.map((r) => ({ suite: r.suite, itemId: r.item_id, itemHash: r.item_hash }));
}
