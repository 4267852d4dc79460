// A trial's key in SQL (its five columns, their WHERE clause and parameters) and multi-row
// VALUES lists: shared by the store's trial writes, leases and queries.

import type { TrialKey } from '../../core/index.js';

export const KEY_COLUMNS = 'run_id, subject_id, suite, item_id, replicate';
export const KEY_WHERE = 'run_id = ? AND subject_id = ? AND suite = ? AND item_id = ? AND replicate = ?';
export const keyParams = (k: TrialKey): unknown[] => [k.runId, k.subjectId, k.suite, k.itemId, k.replicate];

/** `(?, ?, ...), (?, ?, ...)` for `rows` rows of `width` values. */
export const valuesList = (rows: number, width: number, row = `(${Array(width).fill('?').join(', ')})`): string =>
  Array(rows).fill(row).join(', ');

/**
 * PostgreSQL indexes trial_leases by a 64-bit hash of a trial's key (schema 19), not by its five
 * columns: each entry a fifth the size, and an index that keeps the pages of every lease a run
 * took and gave back keeps a fifth the bytes. Two keys of one hash are told apart by their
 * columns (leaseWhere; a claim takes a lease only from the same trial).
 */
const leaseHash = (parts: readonly string[]): string =>
  `hashtextextended(${parts.map((p) => `CAST(${p} AS TEXT)`).join(' || chr(1) || ')}, 0)`;

/** The expression trial_leases is indexed by on PostgreSQL (a claim's ON CONFLICT names it). */
export const LEASE_HASH = leaseHash(KEY_COLUMNS.split(', '));

/** LEASE_HASH of a key given as its five parameters (keyParams). */
export const LEASE_HASH_OF_PARAMS = leaseHash(['?', '?', '?', '?', '?']);

/** A trial_leases row is the trial's (parameters: leaseParams): on PostgreSQL by its key's hash first, which its index finds. */
export const leaseWhere = (backend: 'sqlite' | 'postgres'): string =>
  backend === 'postgres' ? `${LEASE_HASH} = ${LEASE_HASH_OF_PARAMS} AND ${KEY_WHERE}` : KEY_WHERE;

/** leaseWhere's parameters for a key. */
export const leaseParams = (backend: 'sqlite' | 'postgres', k: TrialKey): unknown[] =>
  backend === 'postgres' ? [...keyParams(k), ...keyParams(k)] : keyParams(k);
