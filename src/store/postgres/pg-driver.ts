// The PostgreSQL driver: a connection pool (node-postgres), `?` placeholders turned into $n,
// integers and numerics read as numbers (for this pool only), migrations applied under an
// advisory lock (so that workers starting together migrate once), and streamed reads through
// a server-side cursor on a connection of their own. node-postgres is loaded when a PostgreSQL
// store is opened, so that SQLite users do not pay for it.

import type pg from 'pg';
// core's errors file, not its index: the index loads every record schema (zod), which `report` does without.
import { MindscopeError } from '../../core/errors.js';
import type { Dialect, SqlDriver, SqlExecutor } from '../sql/driver.js';
import { pgJson } from '../sql/pg-json.js';
import { pgBlockTextOf } from '../sql/pg-text-blocks.js';
import { asStoreFull } from '../sql/store-full.js';
import { TextCodec } from '../sql/text-codec.js';

/** Attempts of a transaction that PostgreSQL aborted for a deadlock or a serialisation failure. */
const TRANSACTION_ATTEMPTS = 5;

const PG_DIALECT: Dialect = {
  nowMs: '(extract(epoch from clock_timestamp()) * 1000)::bigint',
  greatest: (a, b) => `GREATEST(${a}, ${b})`,
  jsonField: (column, field) => `(${pgJson(column)} -> '${field}')::text`,
  insertionOrder: 'seq',
  bytewise: (expr) => `${expr} COLLATE "C"`,
  itemBody: pgBlockTextOf,
  text: (column) => column,
  tagged: (column) => `'t' || ${column}`,
};

const INT8 = 20;
const NUMERIC = 1700;
/** 64-bit integers and numerics as numbers, for this pool only (counts, sums, ids stay well below 2^53). */
function numberTypes(types: typeof pg.types): pg.CustomTypesConfig {
  return {
    getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
      oid === INT8 || oid === NUMERIC
        ? (v: string) => Number(v)
        : types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
  };
}

/** The URL with its password replaced, for messages and `location`. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url.replace(/:[^:@/]*@/, ':***@');
  }
}

const placeholders = new Map<string, string>();
/** `?` placeholders as PostgreSQL's $1, $2, ... (the store's SQL has no `?` inside literals). */
function numbered(sql: string): string {
  let out = placeholders.get(sql);
  if (out === undefined) {
    let n = 0;
    out = sql.replace(/\?/g, () => `$${++n}`);
    if (placeholders.size < 2000) placeholders.set(sql, out);
  }
  return out;
}

function executor(client: pg.Pool | pg.PoolClient): SqlExecutor {
  return {
    all: async <T>(sql: string, params: readonly unknown[] = []) => (await client.query(numbered(sql), params as unknown[])).rows as T[],
    rows: async (sql: string, params: readonly unknown[] = []) =>
      (await client.query({ text: numbered(sql), values: params as unknown[], rowMode: 'array' })).rows as unknown[][],
    get: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await client.query(numbered(sql), params as unknown[])).rows[0] as T | undefined,
    run: async (sql: string, params: readonly unknown[] = []) => (await client.query(numbered(sql), params as unknown[])).rowCount ?? 0,
  };
}

export class PgDriver implements SqlDriver {
  readonly backend = 'postgres' as const;
  readonly dialect = PG_DIALECT;
  /** PostgreSQL keeps text: it compresses large values itself, short ones in blocks (sql/pg-text-blocks.ts). */
  readonly codec = new TextCodec(false);
  readonly maxParams = 60_000;
  readonly location: string;
  readonly #pool: pg.Pool;
  readonly #exec: SqlExecutor;
  #version = 0;

  private constructor(
    readonly url: string,
    driver: typeof pg,
  ) {
    this.location = redactUrl(url);
    this.#pool = new driver.Pool({ connectionString: url, max: 10, types: numberTypes(driver.types), application_name: 'mindscope' });
    // An idle connection dropped by the server must not take the process down.
    this.#pool.on('error', () => {});
    this.#exec = executor(this.#pool);
  }

  /** Connect and migrate; the error names the database (without its password). */
  static async open(url: string, migrations: readonly string[]): Promise<PgDriver> {
    const { default: driver } = await import('pg');
    const d = new PgDriver(url, driver);
    try {
      await d.#migrate(migrations);
    } catch (err) {
      await d.#pool.end().catch(() => {});
      if (err instanceof MindscopeError) throw err;
      throw new MindscopeError(`${d.location}: cannot open the store: ${(err as Error).message || String(err)}`);
    }
    return d;
  }

  async #migrate(migrations: readonly string[]): Promise<void> {
    await this.transaction(async (tx) => {
      await tx.run(`SELECT pg_advisory_xact_lock(hashtext('mindscope-migrations'))`);
      await tx.run('CREATE TABLE IF NOT EXISTS mindscope_schema (version INTEGER NOT NULL)');
      const row = await tx.get<{ version: number }>('SELECT version FROM mindscope_schema');
      if (!row) await tx.run('INSERT INTO mindscope_schema (version) VALUES (0)');
      const current = row?.version ?? 0;
      if (current > migrations.length) {
        throw new MindscopeError(`schema version ${current} is newer than this mindscope knows (${migrations.length}); upgrade mindscope`);
      }
      for (let v = current; v < migrations.length; v++) await tx.run(migrations[v]!);
      await tx.run('UPDATE mindscope_schema SET version = ?', [migrations.length]);
      this.#version = Math.max(current, migrations.length);
    });
  }

  async schemaVersion(): Promise<number> {
    return this.#version;
  }

  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]> {
    return this.#exec.all<T>(sql, params);
  }

  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined> {
    return this.#exec.get<T>(sql, params);
  }

  rows(sql: string, params?: readonly unknown[]): Promise<unknown[][]> {
    return this.#exec.rows(sql, params);
  }

  run(sql: string, params?: readonly unknown[]): Promise<number> {
    return this.#exec.run(sql, params);
  }

  /**
   * Run `fn` in a transaction. PostgreSQL aborts one of two transactions that deadlock (two
   * processes' lease renewals, claims and group commits lock lease rows in different orders) or
   * fail to serialise; the aborted one rolled back whole, so it runs again (up to five times,
   * waiting a little longer each time). `fn` must therefore be safe to run again.
   */
  async transaction<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.#transactOnce(fn);
      } catch (err) {
        const code = (err as { code?: unknown })?.code;
        // A full disk (SQLSTATE 53100) is said in one line naming the store, as SQLite's is.
        if ((code !== '40P01' && code !== '40001') || attempt >= TRANSACTION_ATTEMPTS) throw asStoreFull(err, this.location);
        await new Promise((resolve) => setTimeout(resolve, 15 * attempt * attempt));
      }
    }
  }

  async #transactOnce<T>(fn: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      try {
        const value = await fn(executor(client));
        await client.query('COMMIT');
        return value;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
    } finally {
      client.release();
    }
  }

  /** PostgreSQL's memory is the server's: a pass runs as any read does. */
  beginPass(): () => void {
    return () => {};
  }

  async *iterate<T>(sql: string, params: readonly unknown[] = []): AsyncIterable<T> {
    const client = await this.#pool.connect();
    let open = false;
    try {
      await client.query('BEGIN READ ONLY');
      open = true;
      await client.query(`DECLARE rows NO SCROLL CURSOR FOR ${numbered(sql)}`, params as unknown[]);
      for (;;) {
        const { rows } = await client.query('FETCH 2000 FROM rows');
        if (rows.length === 0) break;
        yield* rows as T[];
      }
      await client.query('COMMIT');
      open = false;
    } finally {
      if (open) await client.query('ROLLBACK').catch(() => {});
      client.release();
    }
  }

  async close(): Promise<void> {
    await this.#pool.end();
  }
}
