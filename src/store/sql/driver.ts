// What the SQL store needs from a database: statements with `?` placeholders, transactions,
// streamed reads, and the few fragments where SQLite and PostgreSQL spell things differently.
// The store's SQL is written once (sql-store.ts) against this; each backend is a driver.

import type { TextCodec } from './text-codec.js';

export interface SqlExecutor {
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /**
   * A query's rows as arrays of their values in the order selected: for readers of many rows
   * (an array is smaller and quicker to make than an object with a property a column).
   */
  rows(sql: string, params?: readonly unknown[]): Promise<unknown[][]>;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** Run a statement; returns the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
  /**
   * SQLite's transactions: the same statements, run at once (its driver runs every statement
   * synchronously), so that a write of several statements runs without an await between them.
   * Absent for PostgreSQL.
   */
  readonly sync?: SyncSqlExecutor;
}

/** Statements run synchronously (SqlExecutor.sync). */
export interface SyncSqlExecutor {
  get<T>(sql: string, params?: readonly unknown[]): T | undefined;
  /** Run a statement; returns the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): number;
}

/** SQL that differs between the backends. */
export interface Dialect {
  /** The database clock in milliseconds since the epoch, as an integer expression. */
  nowMs: string;
  /** The larger of two values. */
  greatest(a: string, b: string): string;
  /** A JSON text column's field as JSON text (null when absent). */
  jsonField(column: string, field: string): string;
  /** The column that orders rows of scores and rubric pins by insertion (a trial's protocol score comes first). */
  insertionOrder: string;
  /** A text expression for ORDER BY, compared byte by byte (as SQLite does), whatever the database's collation. */
  bytewise(expr: string): string;
  /** An item's body column as its JSON text (item-bodies.ts). */
  itemBody(column: string): string;
  /** A transcript's body, a score's detail or a cached reply as its text (text-codec.ts). */
  text(column: string): string;
  /**
   * A value as the codec keeps it (text, or bytes), as text: 't' and the text, or 'x' and the
   * bytes in hex (untaggedValue reads it back). Readers of many rows read bytes quicker so.
   */
  tagged(column: string): string;
}

export interface SqlDriver extends SqlExecutor {
  readonly backend: 'sqlite' | 'postgres';
  /** A file path, or a database URL without its password. */
  readonly location: string;
  readonly dialect: Dialect;
  /** How values are kept: compressed against dictionaries (SQLite) or as text (PostgreSQL). */
  readonly codec: TextCodec;
  /** Largest number of `?` parameters one statement may take. */
  readonly maxParams: number;
  /** Run `fn` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /**
   * Start a pass that reads much of the store once (a run's trials, page by page); the function
   * returned ends it. Memory stays what it is whatever the pass reads (SQLite: its file map off
   * and a small page cache meanwhile).
   */
  beginPass(): () => void;
  /** Stream a query's rows without holding them all (the writer stays free meanwhile). */
  iterate<T>(sql: string, params?: readonly unknown[]): AsyncIterable<T>;
  /** The schema version after migrating (the number of migrations applied). */
  schemaVersion(): Promise<number>;
  close(): Promise<void>;
}

/** A value read through Dialect.tagged, as the codec keeps it (null stays null). */
export function untaggedValue(tagged: unknown): string | Uint8Array | null {
  if (tagged === null || tagged === undefined) return null;
  const s = tagged as string;
  return s.charCodeAt(0) === 0x78 /* x */ ? Buffer.from(s.slice(1), 'hex') : s.slice(1);
}

/**
 * `make()`'s items once `before` has settled, its iterator's promises handed on as they are (no
 * generator between: a run's rows pass through without a promise more each).
 */
export function streamAfter<T>(before: () => Promise<void>, make: () => AsyncIterable<T>): AsyncIterable<T> {
  return {
    [Symbol.asyncIterator](): AsyncIterator<T> {
      let inner: AsyncIterator<T> | undefined;
      let starting: Promise<AsyncIterator<T>> | undefined;
      return {
        next: () =>
          inner ? inner.next() : (starting ??= before().then(() => (inner = make()[Symbol.asyncIterator]()))).then((it) => it.next()),
        return: async (value?: unknown) => (await inner?.return?.(value)) ?? { done: true, value: undefined },
      };
    },
  };
}
