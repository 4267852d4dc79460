// How trial_rows keeps a trial's status, latencies and finish time in each backend. SQLite
// (schema 17): the status as 1 (done) or 0 (failed); a latency to the microsecond as an integer
// number of microseconds (one that is not, from an older store, as the double it was); the
// finish time as milliseconds since the epoch when they give the same ISO text back (any other
// text as it is). PostgreSQL keeps the text and the doubles. The view "trials" gives every
// reader the values as they were written; a reader of trial_rows itself uses the expressions here.

import type { TrialStatus } from '../store.js';

type Backend = 'sqlite' | 'postgres';

/** Latencies below this many milliseconds (about 285 years) are kept in microseconds. */
const MICROSECONDS_BELOW_MS = 9e12;

/** A trial's status as the database keeps it. */
export const statusParam = (backend: Backend, status: TrialStatus): string | number =>
  backend === 'sqlite' ? (status === 'done' ? 1 : 0) : status;

/** SQL: a status as the database keeps it (a literal), for conditions on trial_rows. */
export const statusSql = (backend: Backend, status: TrialStatus): string =>
  backend === 'sqlite' ? (status === 'done' ? '1' : '0') : `'${status}'`;

/** trial_rows' status column read as it is kept (SQLite's 1 or 0, PostgreSQL's text) as the status's text. */
export const statusOf = (stored: unknown): TrialStatus => (stored === 1 ? 'done' : stored === 0 ? 'failed' : (stored as TrialStatus));

/**
 * Why a latency (ms) cannot be stored, or undefined where it can. Both backends refuse what
 * SQLite cannot give back exactly: not a finite number, or 9e12 ms (about 285 years) or more,
 * which its integer affinity would keep as a whole number that reads as microseconds.
 */
export function unstorableLatency(field: string, ms: number): string | undefined {
  if (Number.isFinite(ms) && Math.abs(ms) < MICROSECONDS_BELOW_MS) return undefined;
  return `${field} ${String(ms)} ms is not a finite number of milliseconds below 9e12 (about 285 years), which the store keeps exactly`;
}

/** A latency (ms) as the database keeps it: SQLite microseconds when that is exact, else the double. */
export function latencyParam(backend: Backend, ms: number): number {
  if (backend !== 'sqlite' || !Number.isFinite(ms) || Math.abs(ms) >= MICROSECONDS_BELOW_MS) return ms;
  const us = Math.round(ms * 1000);
  return us / 1000 === ms ? us : ms;
}

/** SQL: a trial_rows latency column in milliseconds. */
export const latencyMs = (backend: Backend, column: string): string =>
  backend === 'sqlite' ? `CASE WHEN typeof(${column}) = 'integer' THEN ${column} / 1000.0 ELSE ${column} END` : column;

/** A finished_at as the database keeps it: SQLite milliseconds when they give the same ISO text back, else the text. */
export function finishedAtParam(backend: Backend, iso: string): string | number {
  if (backend !== 'sqlite') return iso;
  const ms = Date.parse(iso);
  return Number.isFinite(ms) && new Date(ms).toISOString() === iso ? ms : iso;
}

/** The time now as finished_at keeps it. */
export const finishedNow = (backend: Backend): string | number => (backend === 'sqlite' ? Date.now() : new Date().toISOString());

/** A finished_at read from trial_rows (not the view) as ISO text: milliseconds or the text kept. */
export function finishedAtText(stored: string | number | bigint): string {
  return typeof stored === 'string' ? stored : new Date(Number(stored)).toISOString();
}
