// What a migration says differently in each backend: each migration is written once and gives
// each backend its SQL, the types that differ named through a Dialect.

/** What a migration says differently in each backend. */
export interface Dialect {
  readonly backend: 'sqlite' | 'postgres';
  /** A 64-bit integer (SQLite's INTEGER holds 64 bits). */
  readonly int64: string;
  /** A double. */
  readonly real: string;
  /** A 64-bit key numbered by the database (SQLite: the rowid). */
  readonly id64: string;
  /** A 32-bit key numbered by the database (SQLite: the rowid). */
  readonly id32: string;
  /** PostgreSQL's insertion-order column where SQLite has its rowid: a column line, or nothing. */
  readonly seq: string;
  /** After a table keyed by its primary key alone: SQLite stores it as its own index. */
  readonly withoutRowid: string;
}

export const SQLITE: Dialect = {
  backend: 'sqlite',
  int64: 'INTEGER',
  real: 'REAL',
  id64: 'INTEGER',
  id32: 'INTEGER',
  seq: '',
  withoutRowid: ' WITHOUT ROWID',
};

export const POSTGRES: Dialect = {
  backend: 'postgres',
  int64: 'BIGINT',
  real: 'DOUBLE PRECISION',
  id64: 'BIGSERIAL',
  id32: 'SERIAL',
  seq: '\n    seq BIGSERIAL,',
  withoutRowid: '',
};

export type Migration = (d: Dialect) => string;

/** A migration done differently in each backend. */
export const perBackend =
  (bodies: Record<Dialect['backend'], string>): Migration =>
  (d) =>
    bodies[d.backend];
