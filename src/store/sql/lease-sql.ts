// Trial leases in SQL: a trial is leased (trial_leases) before it runs, so that several
// processes on one run share its trials instead of each running them all. A lease expires
// (ttl) unless renewed, so a killed process's trials come back to the others.

import type { TrialKey } from '../../core/index.js';
import { trialKeyString, type ClaimResult } from '../store.js';
import type { SqlDriver } from './driver.js';
import { KEY_COLUMNS, keyParams, LEASE_HASH, LEASE_HASH_OF_PARAMS, leaseParams, leaseWhere, valuesList } from './trial-key-sql.js';

/** Claim the trials for `owner`: each is 'claimed', 'held' (by a live owner) or 'done'; `queuedDone` says a trial is done in a write not yet committed. */
export async function claimTrialLeases(
  db: SqlDriver,
  keys: TrialKey[],
  owner: string,
  ttlMs: number,
  queuedDone: (id: string) => boolean,
): Promise<ClaimResult[]> {
  // Each key's text once: the claim's unique keys, and its answer for each key asked.
  const ids = keys.map(trialKeyString);
  const unique = [...new Map(keys.map((k, i) => [ids[i]!, k])).values()];
  const claimed = new Set<string>();
  const done = new Set<string>();
  const { nowMs } = db.dialect;
  const chunk = Math.floor(db.maxParams / 6);
  // PostgreSQL: trial_leases indexed by its key's hash (trial-key-sql.ts); a lease taken only from the same trial.
  const conflict =
    db.backend === 'postgres'
      ? `ON CONFLICT ((${LEASE_HASH})) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE (trial_leases.expires_at < ${nowMs} OR trial_leases.owner = excluded.owner) AND trial_leases.run_id = excluded.run_id
           AND trial_leases.subject_id = excluded.subject_id AND trial_leases.suite = excluded.suite
           AND trial_leases.item_id = excluded.item_id AND trial_leases.replicate = excluded.replicate`
      : `ON CONFLICT (${KEY_COLUMNS}) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE trial_leases.expires_at < ${nowMs} OR trial_leases.owner = excluded.owner`;
  await db.transaction(async (tx) => {
    // A transaction aborted by a deadlock runs again: count only what the last attempt claimed.
    claimed.clear();
    done.clear();
    for (let i = 0; i < unique.length; i += chunk) {
      const part = unique.slice(i, i + chunk);
      // The lease first, then the status: a trial recorded while we claim is seen as done.
      const won = await tx.all<TrialKey>(
        `INSERT INTO trial_leases (${KEY_COLUMNS}, owner, expires_at) VALUES ${valuesList(part.length, 0, `(?, ?, ?, ?, ?, ?, ${nowMs} + ?)`)}
         ${conflict}
         RETURNING run_id AS "runId", subject_id AS "subjectId", suite, item_id AS "itemId", replicate`,
        part.flatMap((k) => [...keyParams(k), owner, Math.round(ttlMs)]),
      );
      for (const k of won) claimed.add(trialKeyString(k));
      // Each key looked up by its names (trials is a view over numbered rows).
      const finished = await tx.all<TrialKey>(
        `SELECT t.run_id AS "runId", t.subject_id AS "subjectId", t.suite AS suite, t.item_id AS "itemId", t.replicate AS replicate
         FROM (VALUES ${valuesList(part.length, 0, '(?, ?, ?, ?, CAST(? AS INTEGER))')}) AS k
         JOIN trials t ON t.run_id = k.column1 AND t.subject_id = k.column2 AND t.suite = k.column3 AND t.item_id = k.column4
           AND t.replicate = k.column5
         WHERE t.status = 'done'`,
        part.flatMap(keyParams),
      );
      for (const k of finished) {
        done.add(trialKeyString(k));
        await tx.run(`DELETE FROM trial_leases WHERE ${leaseWhere(db.backend)} AND owner = ?`, [...leaseParams(db.backend, k), owner]);
      }
    }
  });
  return ids.map((id) => {
    if (done.has(id) || queuedDone(id)) return 'done';
    return claimed.has(id) ? 'claimed' : 'held';
  });
}

/** Extend every lease of `owner` by `ttlMs` from now; returns how many. */
export function renewTrialLeases(db: SqlDriver, owner: string, ttlMs: number): Promise<number> {
  return db.run(`UPDATE trial_leases SET expires_at = ${db.dialect.nowMs} + ? WHERE owner = ?`, [Math.round(ttlMs), owner]);
}

/** Give back `owner`'s leases: all of them, or those of `keys`. */
export async function releaseTrialLeases(db: SqlDriver, owner: string, keys?: TrialKey[]): Promise<void> {
  if (!keys) {
    await db.run('DELETE FROM trial_leases WHERE owner = ?', [owner]);
    return;
  }
  if (keys.length === 0) return;
  // PostgreSQL: the keys' hashes too, which its index finds (trial-key-sql.ts).
  const pg = db.backend === 'postgres';
  await db.run(
    `DELETE FROM trial_leases WHERE owner = ? AND (${KEY_COLUMNS}) IN (VALUES ${valuesList(keys.length, 0, '(?, ?, ?, ?, CAST(? AS INTEGER))')})${
      pg ? ` AND ${LEASE_HASH} IN (${valuesList(keys.length, 0, LEASE_HASH_OF_PARAMS)})` : ''
    }`,
    [owner, ...keys.flatMap(keyParams), ...(pg ? keys.flatMap(keyParams) : [])],
  );
}

/** The owners holding leases on a run's trials. */
export async function trialLeaseOwners(db: SqlDriver, runId: string): Promise<string[]> {
  return (await db.all<{ owner: string }>('SELECT DISTINCT owner FROM trial_leases WHERE run_id = ?', [runId])).map((r) => r.owner);
}
