// A real PostgreSQL server for the tests (no mocks): each test file creates databases of its
// own, named mindscope_test_<random>, and drops them (only those) at the end. The server is
// MINDSCOPE_TEST_PG (default postgres://postgres@127.0.0.1:5432/postgres, as on this project's
// machines and in CI, where .ci/run starts it). When none answers, the PostgreSQL tests are
// skipped and say so in their names.

import { randomBytes } from 'node:crypto';
import pg from 'pg';

const PG_ADMIN_URL = process.env.MINDSCOPE_TEST_PG || 'postgres://postgres@127.0.0.1:5432/postgres';

async function reachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** Whether the test server answers (checked once per test file). */
export const pgAvailable = await reachable();
/** Appended to the names of PostgreSQL tests when they are skipped. */
export const pgSkipNote = pgAvailable ? '' : ` (SKIPPED: no PostgreSQL server at ${PG_ADMIN_URL}; set MINDSCOPE_TEST_PG)`;
if (!pgAvailable) console.warn(`PostgreSQL tests skipped: no server answers at ${PG_ADMIN_URL} (set MINDSCOPE_TEST_PG to point at one)`);

const created: string[] = [];

/** A new empty database; its URL. */
export async function createTestDatabase(): Promise<string> {
  const name = `mindscope_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  created.push(name);
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

let shared: Promise<string> | undefined;

/**
 * A new empty schema in a database shared by the test file: as good as a new database for the
 * store (its tables go where search_path points), and much cheaper to drop.
 */
export async function createTestSchema(): Promise<string> {
  shared ??= createTestDatabase();
  const base = await shared;
  const schema = `s_${randomBytes(6).toString('hex')}`;
  await pgQuery(base, `CREATE SCHEMA ${schema}`);
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}

/** Drop the databases this file created. */
export async function dropTestDatabases(): Promise<void> {
  if (!created.length) return;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    for (const name of created.splice(0)) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    shared = undefined;
  } finally {
    await admin.end();
  }
}

/** Run SQL on a test database directly (checks below the store's interface). */
export async function pgQuery<T = Record<string, unknown>>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}
