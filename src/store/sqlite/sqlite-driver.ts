// The SQLite driver: one file through better-sqlite3, in WAL mode, migrated by PRAGMA
// user_version. better-sqlite3 is synchronous; its calls are wrapped in promises for the
// asynchronous store. Writes on the connection go one transaction at a time (a queue), so an
// open transaction never takes in another caller's statement. Streamed reads use a second,
// read-only connection, which WAL lets read while the first one writes; several processes may
// share the file (SQLite's own lock serialises their commits, waiting up to busy_timeout).

import Database from 'better-sqlite3';
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
// core's errors file, not its index: the index loads every record schema (zod), which `report` does without.
import { MindscopeError } from '../../core/errors.js';
import { makeDirectory } from '../../core/make-directory.js';
import type { Dialect, SqlDriver, SqlExecutor, SyncSqlExecutor } from '../sql/driver.js';
import { asStoreFull, isDiskFull } from '../sql/store-full.js';
import { BACKSTOP_PAGES, WalCheckpointer } from './wal-checkpointer.js';
import { ITEM_BODY_SQL_FUNCTION, memoizedItemBodyText } from '../sql/item-bodies.js';
import { TEXT_SQL_FUNCTION, TextCodec } from '../sql/text-codec.js';

type Stmt = Database.Statement;

const SQLITE_DIALECT: Dialect = {
  nowMs: `CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)`,
  greatest: (a, b) => `max(${a}, ${b})`,
  jsonField: (column, field) => `json_extract(${column}, '$.${field}')`,
  insertionOrder: 'rowid',
  bytewise: (expr) => expr,
  itemBody: (column) => `${ITEM_BODY_SQL_FUNCTION}(${column})`,
  text: (column) => `${TEXT_SQL_FUNCTION}(${column})`,
  // A blob read as hex text costs a string, where better-sqlite3 makes a Buffer of its own for each blob (several times the CPU).
  tagged: (column) => `CASE typeof(${column}) WHEN 'blob' THEN 'x' || hex(${column}) ELSE 't' || ${column} END`,
};

/** Characters a connection remembers of the values mindscope_text gave. */
const TEXT_MEMO_CHARS = 2 ** 20;

/** A connection with the store's own SQL functions. */
function withFunctions(db: Database.Database, codec: TextCodec): Database.Database {
  const decode = (stored: Uint8Array) => codec.decode(stored);
  const bodyText = memoizedItemBodyText(undefined, decode);
  db.function(ITEM_BODY_SQL_FUNCTION, { deterministic: true }, (body: unknown) =>
    body === null || body === undefined ? null : bodyText(body as string | Uint8Array),
  );
  // Transcripts, scores and replies: many rows, most read once a query; remembered by bytes
  // within a smaller bound (a score's detail repeats, and is encoded to the same bytes).
  const text = memoizedItemBodyText(TEXT_MEMO_CHARS, decode);
  db.function(TEXT_SQL_FUNCTION, { deterministic: true }, (stored: unknown) =>
    stored === null || stored === undefined ? null : text(stored as string | Uint8Array),
  );
  return db;
}

/** The page cache while a pass reads much of the store once (readOnce): 2 MiB, as a negative cache_size says. */
const PASS_CACHE_KIB = -2048;

/** Prepared statements a connection keeps (see #q). */
const STATEMENTS_KEPT = 200;

/** The writer's automatic checkpoint (pages) while no worker checkpoints. */
const WRITER_CHECKPOINT_PAGES = 10_000;

/**
 * Log pages past which checkpoints move to a worker thread (below WRITER_CHECKPOINT_PAGES, so
 * the worker starts before the writer would checkpoint inside a commit). A store that writes
 * less (an MCQ run of 5,000 trials writes about 6,700 pages) is checkpointed once, when it
 * closes: some 15 ms of copying, where starting the worker costs about 50 ms of CPU (a thread
 * with a JavaScript engine of its own, better-sqlite3 loaded into it) and its checkpoints every
 * 100 ms copy the pages each commit touches again (the last pages of a table, its indexes').
 */
const WORKER_START_PAGES = 8192;
/** Bytes of a WAL frame's header, and of the file's header (SQLite's WAL format). */
const WAL_FRAME_HEADER = 24;
const WAL_HEADER = 32;

/**
 * Memory-map up to this much of the file for reads: a query that visits a run's trials, items
 * and scores (report, status) then reads pages in place instead of copying each into the page
 * cache (16 MB in this build, less than the tables of a large run, so each pass read them all
 * again): a third of the report's query time on 100,000 trials. Writes still go through the WAL.
 */
/** Bytes of a page of a new store file. */
const PAGE_BYTES = 2048;
const MMAP_BYTES = 1 << 30;

export class SqliteDriver implements SqlDriver {
  readonly backend = 'sqlite' as const;
  readonly dialect = SQLITE_DIALECT;
  readonly maxParams = 30_000;
  readonly location: string;
  readonly codec: TextCodec;
  /** A read-only connection of its own that reads a dictionary a value needs (from inside another query, too). */
  #dictionaries: Database.Database | undefined;
  readonly #db: Database.Database;
  readonly #stmts = new Map<string, Stmt>();
  #reader: Database.Database | undefined;
  /** Started once the file's WAL passes WORKER_START_PAGES (none in memory or read-only). */
  #checkpointer: WalCheckpointer | undefined;
  /** Bytes of a WAL of WORKER_START_PAGES pages (this file's page size). */
  #workerStartBytes = 0;
  #readonly = false;
  /** The end of the last transaction queued: transactions run one after another. */
  #tail: Promise<unknown> = Promise.resolve();

  /** With `readonly`, the file must exist and be migrated already: nothing is written (a viewer beside a running writer). */
  constructor(path: string, migrations: readonly string[], options: { readonly?: boolean } = {}) {
    this.location = path === ':memory:' ? path : resolve(path);
    // In memory, every dictionary is this connection's own (trained here).
    this.codec =
      path === ':memory:'
        ? new TextCodec(true)
        : new TextCodec(
            true,
            (id) => this.#dictionary(id),
            (id) => this.#transcriptBlock(id),
          );
    if (options.readonly) {
      this.#readonly = true;
      try {
        this.#db = withFunctions(new Database(this.location, { readonly: true, fileMustExist: true }), this.codec);
        this.#db.pragma('busy_timeout = 5000');
        this.#db.pragma(`mmap_size = ${MMAP_BYTES}`);
      } catch (err) {
        throw new MindscopeError(`${this.location}: cannot open the store read-only: ${(err as Error).message}`);
      }
      const version = this.#db.pragma('user_version', { simple: true }) as number;
      if (version > migrations.length) {
        this.#db.close();
        throw new MindscopeError(`schema version ${version} is newer than this mindscope knows (${migrations.length}); upgrade mindscope`);
      }
      if (version < migrations.length) {
        // An older file: migrate it once (as any command would), then read it read-only.
        this.#db.close();
        new SqliteDriver(path, migrations).#db.close();
        this.#db = withFunctions(new Database(this.location, { readonly: true, fileMustExist: true }), this.codec);
        this.#db.pragma('busy_timeout = 5000');
        this.#db.pragma(`mmap_size = ${MMAP_BYTES}`);
      }
      return;
    }
    if (path !== ':memory:') makeDirectory(dirname(this.location));
    try {
      this.#db = withFunctions(new Database(this.location), this.codec);
      // A new file's pages are 2 KiB: a store's small tables (one page each, most of them empty)
      // take half the space, and a commit that touches pages at random writes half the bytes to
      // the log. Set before the first write (a file that has pages keeps its size).
      this.#db.pragma(`page_size = ${PAGE_BYTES}`);
      // A new file keeps a map of its pages (one page in about 400), so that the pages a run
      // frees (leases, journal rows) can be given back when the store closes (incremental_vacuum
      // in close) rather than stay in the file. Set before the first table, like the page size.
      this.#db.pragma('auto_vacuum = INCREMENTAL');
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma('synchronous = NORMAL');
      // Checkpoint the WAL into the main file less often than the default 1,000 pages (until a
      // worker thread takes the checkpoints over: see #startCheckpointer).
      this.#db.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
      const pageBytes = this.#db.pragma('page_size', { simple: true }) as number;
      this.#workerStartBytes = WAL_HEADER + WORKER_START_PAGES * (pageBytes + WAL_FRAME_HEADER);
      this.#db.pragma('foreign_keys = ON');
      // Statement journals in memory: a group commit's statements that check foreign keys each
      // keep one, and once one statement's outgrows 64 KiB (a batch of blobs) SQLite moves it to
      // a temporary file for the rest of the transaction: 35,000 small writes per 5,000 trials
      // on the runner's thread (strace), about 50 ms of its 1.5 s (CPU profiles of both builds).
      // Temporary tables and indices of this connection's queries are kept in memory too, so a
      // statement that rewrites much of a table at once (a migration rebuilding an index, a large
      // cascading delete) holds that much in memory while it runs.
      this.#db.pragma('temp_store = MEMORY');
      this.#db.pragma('busy_timeout = 5000');
      if (path !== ':memory:') this.#db.pragma(`mmap_size = ${MMAP_BYTES}`);
      this.#migrate(migrations);
    } catch (err) {
      if (isDiskFull(err)) throw asStoreFull(err, this.location);
      throw new MindscopeError(`${this.location}: cannot open the store: ${(err as Error).message}`);
    }
  }

  #migrate(migrations: readonly string[]): void {
    // BEGIN IMMEDIATE: two processes opening a new file at once migrate it one after the other.
    const migrateFrom = this.#db.transaction(() => {
      const current = this.#db.pragma('user_version', { simple: true }) as number;
      if (current > migrations.length) {
        throw new MindscopeError(`schema version ${current} is newer than this mindscope knows (${migrations.length}); upgrade mindscope`);
      }
      for (let v = current; v < migrations.length; v++) {
        this.#db.exec(migrations[v]!);
        this.#db.pragma(`user_version = ${v + 1}`);
      }
    });
    migrateFrom.immediate();
  }

  #dictionary(id: number): Uint8Array | undefined {
    return (this.#lookups().prepare('SELECT body FROM dictionaries WHERE id = ?').get(id) as { body: Uint8Array } | undefined)?.body;
  }

  /** The statement that reads a block of transcripts, compiled once (a run's pass reads a block every few dozen trials). */
  #blockRead: Stmt | undefined;

  /** A block of transcripts (committed), for a transcript row that is one of them. */
  #transcriptBlock(id: number): Uint8Array | string | undefined {
    this.#blockRead ??= this.#lookups().prepare('SELECT body FROM transcript_blocks WHERE id = ?').pluck();
    return this.#blockRead.get(id) as Uint8Array | string | undefined;
  }

  /** The read-only connection that the codec's lookups go through (a SQL function cannot query its own connection). */
  #lookups(): Database.Database {
    if (!this.#dictionaries) {
      this.#dictionaries = new Database(this.location, { readonly: true, fileMustExist: true });
      this.#dictionaries.pragma('busy_timeout = 5000');
    }
    return this.#dictionaries;
  }

  /**
   * Prepared statements, compiled once, the most recently used kept. Bounded: statements built
   * for a number of values (`IN (?, ?, ...)`, multi-row inserts) come in many lengths, and each
   * compiled program holds native memory until it is let go.
   */
  #q(sql: string, raw = false): Stmt {
    // A statement that gives rows as arrays is one of its own (raw is a mode of the statement).
    const key = raw ? `\u0000${sql}` : sql;
    let s = this.#stmts.get(key);
    if (s) {
      // Most recently used last, the first one being the one to let go: kept in that order once
      // the map is full (until then nothing is let go, and a statement stays where it was).
      if (this.#stmts.size < STATEMENTS_KEPT) return s;
      this.#stmts.delete(key);
    } else {
      s = this.#db.prepare(sql);
      if (raw) s.raw(true);
      if (this.#stmts.size >= STATEMENTS_KEPT) this.#stmts.delete(this.#stmts.keys().next().value!);
    }
    this.#stmts.set(key, s);
    return s;
  }

  /** A transaction's statements run at once (SqlExecutor.sync). */
  readonly #sync: SyncSqlExecutor = {
    get: <T>(sql: string, params: readonly unknown[] = []) => this.#q(sql).get(...params) as T | undefined,
    run: (sql, params = []) => this.#q(sql).run(...params).changes,
  };

  async schemaVersion(): Promise<number> {
    return this.#db.pragma('user_version', { simple: true }) as number;
  }

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    return this.#q(sql).all(...params) as T[];
  }

  async rows(sql: string, params: readonly unknown[] = []): Promise<unknown[][]> {
    return this.#q(sql, true).all(...params) as unknown[][];
  }

  async get<T>(sql: string, params: readonly unknown[] = []): Promise<T | undefined> {
    return this.#q(sql).get(...params) as T | undefined;
  }

  /** A statement outside a transaction still waits for the open one, so that a rollback cannot take it along. */
  run(sql: string, params: readonly unknown[] = []): Promise<number> {
    return this.transaction(async (tx) => tx.run(sql, params));
  }

  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const result = this.#tail.then(() => this.#transact(fn));
    this.#tail = result.catch(() => {});
    return result;
  }

  async #transact<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const tx: SqlExecutor = {
      all: (sql, params) => this.all(sql, params),
      rows: (sql, params) => this.rows(sql, params),
      get: (sql, params) => this.get(sql, params),
      run: async (sql, params = []) => this.#q(sql).run(...params).changes,
      sync: this.#sync,
    };
    try {
      this.#q('BEGIN IMMEDIATE').run();
    } catch (err) {
      throw this.#named(err);
    }
    try {
      const value = await fn(tx);
      this.#q('COMMIT').run();
      if (!this.#checkpointer) this.#watchWal();
      return value;
    } catch (err) {
      if (this.#db.inTransaction) this.#q('ROLLBACK').run();
      // SQLite's "database or disk is full" names no file: say which one, in one line.
      throw asStoreFull(this.#named(err), this.location);
    }
  }

  /**
   * After a commit while no worker runs: start it once the WAL has grown past WORKER_START_PAGES
   * (a file's writer only). A stat call, a few microseconds: a small fraction of a commit's cost.
   */
  #watchWal(): void {
    if (this.#readonly || this.location === ':memory:') return;
    // The file keeps its size when SQLite starts writing it from the top again: its largest log so far.
    const bytes = statSync(`${this.location}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    if (bytes >= this.#workerStartBytes) this.#startCheckpointer();
  }

  /** Checkpoints move to a worker thread; the writer's own stay as a backstop, or come back if the worker fails. */
  #startCheckpointer(): void {
    this.#checkpointer = new WalCheckpointer(this.location, () => {
      if (this.#db.open) this.#db.pragma(`wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
    });
    this.#db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
  }

  /** SQLite's read-only error names no file: say which store it is and what to check. */
  #named(err: unknown): unknown {
    const code = (err as { code?: unknown })?.code;
    if (typeof code === 'string' && code.startsWith('SQLITE_READONLY'))
      return new MindscopeError(
        `${this.location}: the store is read-only (${(err as Error).message}); check the permissions of the file and its folder, or name another --db`,
      );
    return err;
  }

  /**
   * Passes under way; while there is one, the connection reads without its file map (a pass
   * over a whole run would leave every page it read mapped and resident) and with a small page
   * cache (pages read once need none; better-sqlite3's default holds up to 16 MB of them).
   */
  #passes = 0;
  #kept: { mmap: number; cache: number } | undefined;

  beginPass(): () => void {
    if (this.#passes++ === 0) {
      this.#kept = {
        mmap: this.#db.pragma('mmap_size', { simple: true }) as number,
        cache: this.#db.pragma('cache_size', { simple: true }) as number,
      };
      this.#db.pragma('mmap_size = 0');
      this.#db.pragma(`cache_size = ${PASS_CACHE_KIB}`);
    }
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      if (--this.#passes === 0 && this.#kept && this.#db.open) {
        this.#db.pragma(`mmap_size = ${this.#kept.mmap}`);
        this.#db.pragma(`cache_size = ${this.#kept.cache}`);
      }
    };
  }

  async *iterate<T>(sql: string, params: readonly unknown[] = []): AsyncIterable<T> {
    if (this.location === ':memory:') {
      // One connection only: read everything first, so that writes may follow at once.
      yield* (await this.all<T>(sql, params)) as T[];
      return;
    }
    if (!this.#reader) {
      this.#reader = withFunctions(new Database(this.location, { readonly: true, fileMustExist: true }), this.codec);
      this.#reader.pragma('busy_timeout = 5000');
      this.#reader.pragma(`mmap_size = ${MMAP_BYTES}`);
    }
    for (const row of this.#reader.prepare(sql).iterate(...params)) yield row as T;
  }

  /**
   * Give the file's free pages back to the file system (a store made with auto_vacuum =
   * INCREMENTAL; any other keeps them for its next writes). Moving the last pages into the free
   * ones is a write like any other: one another connection holds off is left for a later close.
   */
  #releaseFreePages(): void {
    if (this.#readonly || this.location === ':memory:' || !this.#db.open) return;
    try {
      if ((this.#db.pragma('freelist_count', { simple: true }) as number) > 0) this.#db.pragma('incremental_vacuum');
    } catch {
      // Busy or full: the free pages stay for the store's next writes.
    }
  }

  async close(): Promise<void> {
    await this.#tail;
    await this.#checkpointer?.stop();
    this.#releaseFreePages();
    this.#reader?.close();
    this.#dictionaries?.close();
    this.#db.close();
  }
}
