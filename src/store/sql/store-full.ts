// A full disk, said in one short line that names the database. SQLite reports SQLITE_FULL
// ("database or disk is full", naming no file) on every write that needs a new page, and
// PostgreSQL its SQLSTATE 53100; a run that hit it used to end with every failed write's key
// and message joined on one line (6.9 KB).

// core's errors file, not its index: the index loads every record schema (zod), which `report` does without.
import { MindscopeError } from '../../core/errors.js';

/** The store's disk (or the SQLite page limit) is full: nothing more can be written until space is freed. */
export class StoreFullError extends MindscopeError {
  override name = 'StoreFullError';
  constructor(readonly location: string) {
    super(
      `${location}: the disk is full, nothing more can be stored: free some space (or use another --db); what was stored is kept and the same command continues the run`,
    );
  }
}

/** Whether an error from a database or the file system means "no space left". */
export function isDiskFull(err: unknown): boolean {
  const e = err as { code?: unknown } | undefined;
  return e?.code === 'SQLITE_FULL' || e?.code === 'ENOSPC' || e?.code === '53100' || err instanceof StoreFullError;
}

/** `err` as a StoreFullError naming `location` when it means a full disk; unchanged otherwise. */
export function asStoreFull(err: unknown, location: string): unknown {
  if (err instanceof StoreFullError) return err;
  return isDiskFull(err) ? new StoreFullError(location) : err;
}
