// Removing a SQLite store a command created and then failed in before storing anything (a bad
// model spec): an empty database left where the user looks for results misleads. Another
// process may have opened the same new file meanwhile (a second `run` on the same --db): its
// results must not go with it. SQLite says whether it is alone: leaving WAL mode needs the only
// connection to the file, and an exclusive lock keeps others out while the files are removed.

import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';

/** Tables a store writes to before or as a run starts: any row in them and the file is kept. */
const WRITTEN_FIRST = ['runs', 'run_provenance', 'subjects', 'items', 'call_cache', 'trial_leases'];

/**
 * Remove the SQLite store at `path` (and its WAL and shared-memory files) if no other
 * connection has it open and it holds no row in the tables a run writes first. Returns whether
 * it was removed; any doubt (a lock, a table missing, an error) keeps the file.
 */
export function discardUnusedSqliteStore(path: string): boolean {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { fileMustExist: true, timeout: 0 });
    // Fails with SQLITE_BUSY while another connection has the file open in WAL mode.
    db.pragma('journal_mode = DELETE');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    for (const table of WRITTEN_FIRST) {
      if (db.prepare(`SELECT 1 FROM ${table} LIMIT 1`).get() !== undefined) return false;
    }
    // Removed while the exclusive lock is held: a process opening the path from now on makes a new file.
    for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(`${path}${suffix}`, { force: true });
    return true;
  } catch {
    return false;
  } finally {
    try {
      db?.close();
    } catch {
      // Closing a connection to removed files: nothing to keep.
    }
  }
}
