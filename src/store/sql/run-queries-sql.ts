// Read-only queries over a run's trials for status, usage, failures and analyses: what
// `status`, `report` and the matrix builders read. The store flushes its queued writes first.

import { PROTOCOL_SCORES, type AccuracyCountRow, type FailedTrialRow, type ResponseRow, type StatusRow, type UsageRow } from '../store.js';
import type { SqlDriver } from './driver.js';
import { PgBlockCache, pgTaggedBlockText } from './pg-text-blocks.js';

/** Planned, done, failed, truncated and pending trials per subject and suite. */
export async function runStatus(db: SqlDriver, runId: string): Promise<StatusRow[]> {
  const rows = await db.all<Omit<StatusRow, 'pending'>>(
    `SELECT p.subject_id AS "subjectId", s.spec AS spec, p.suite AS suite, p.planned AS planned,
       COALESCE(SUM(CASE WHEN t.status = 'done' THEN 1 ELSE 0 END), 0) AS done,
       COALESCE(SUM(CASE WHEN t.status = 'failed' THEN 1 ELSE 0 END), 0) AS failed,
       COALESCE(SUM(CASE WHEN t.status = 'done' AND t.truncated_calls > 0 THEN 1 ELSE 0 END), 0) AS truncated
     FROM run_plan p JOIN subjects s ON s.id = p.subject_id
     LEFT JOIN trials t ON t.run_id = p.run_id AND t.subject_id = p.subject_id AND t.suite = p.suite
     WHERE p.run_id = ? GROUP BY p.subject_id, s.spec, p.suite, p.planned
     ORDER BY ${db.dialect.bytewise('s.spec')}, ${db.dialect.bytewise('p.suite')}`,
    [runId],
  );
  return rows.map((r) => ({ ...r, pending: Math.max(0, r.planned - r.done - r.failed) }));
}

/**
 * Tokens, cost (null when a call had no price), calls and mean latency per subject, over done
 * trials: interactive latency over the trials without batch calls, batch wait over those with.
 */
export function runUsage(db: SqlDriver, runId: string): Promise<UsageRow[]> {
  // Summed per subject first, then joined to its spec: no join and no sort per trial (the sums
  // are over the same rows in the same order as a join of every trial would take them).
  return db.all<UsageRow>(
    `SELECT g."subjectId" AS "subjectId", s.spec AS spec, g.trials AS trials, g."inputTokens" AS "inputTokens",
       g."outputTokens" AS "outputTokens", g."costUsd" AS "costUsd", g."unpricedCalls" AS "unpricedCalls",
       g."cachedCalls" AS "cachedCalls", g."totalCalls" AS "totalCalls", g."latencyMsMean" AS "latencyMsMean",
       g."batchLatencyMsMean" AS "batchLatencyMsMean"
     FROM (SELECT t.subject_id AS "subjectId", COUNT(*) AS trials,
       SUM(t.input_tokens) AS "inputTokens", SUM(t.output_tokens) AS "outputTokens",
       CASE WHEN SUM(t.unpriced_calls) > 0 THEN NULL ELSE SUM(t.cost_usd) END AS "costUsd", SUM(t.unpriced_calls) AS "unpricedCalls",
       SUM(t.cached_calls) AS "cachedCalls", SUM(t.total_calls) AS "totalCalls",
       COALESCE(AVG(CASE WHEN t.batch_latency_ms = 0 THEN t.latency_ms END), 0) AS "latencyMsMean",
       AVG(CASE WHEN t.batch_latency_ms > 0 THEN t.batch_latency_ms END) AS "batchLatencyMsMean"
     FROM trials t WHERE t.run_id = ? AND t.status = 'done' GROUP BY t.subject_id) g
     JOIN subjects s ON s.id = g."subjectId" ORDER BY ${db.dialect.bytewise('s.spec')}`,
    [runId],
  );
}

/** The first `limit` failed trials with their errors. */
export function runFailures(db: SqlDriver, runId: string, limit = 20): Promise<FailedTrialRow[]> {
  return db.all<FailedTrialRow>(
    `SELECT run_id AS "runId", subject_id AS "subjectId", suite, item_id AS "itemId", replicate, error, attempts
     FROM trials WHERE run_id = ? AND status = 'failed' ORDER BY id LIMIT ?`,
    [runId, limit],
  );
}

/** Score sums and counts per subject, suite, category and ability: accuracy tables without reading every row. */
export async function runAccuracyCounts(db: SqlDriver, runId: string): Promise<AccuracyCountRow[]> {
  const { jsonField, bytewise, text } = db.dialect;
  const rows = await db.all<AccuracyCountRow>(
    `SELECT s.spec AS spec, t.suite AS suite, i.category AS category, i.ability AS ability, COUNT(*) AS "rows",
       SUM(sc.value) AS correct,
       SUM(CASE WHEN CAST(${jsonField(text('sc.detail'), 'parseFailed')} AS TEXT) IN ('1', 'true') THEN 1 ELSE 0 END) AS "parseFailures",
       SUM(CASE WHEN sc.value = 0 OR sc.value = 1 THEN 0 ELSE 1 END) AS "nonBinary", MAX(t.replicate) AS "maxReplicate", MIN(${bytewise('t.item_id')}) AS "firstItemId"
     FROM trials t JOIN subjects s ON s.id = t.subject_id JOIN items i ON i.id = t.item_ref
     JOIN scores sc ON sc.trial_id = t.id
     WHERE t.run_id = ? AND t.status = 'done'
     GROUP BY s.spec, t.suite, i.category, i.ability`,
    [runId],
  );
  // PostgreSQL returns COUNT and SUM of integers as strings (bigint).
  return rows.map((r) => ({
    ...r,
    rows: Number(r.rows),
    correct: Number(r.correct),
    parseFailures: Number(r.parseFailures),
    nonBinary: Number(r.nonBinary),
    maxReplicate: Number(r.maxReplicate),
  }));
}

/**
 * PostgreSQL: the meta of each item of a run's done trials, by hash, its body read from its
 * block (pg-text-blocks.ts) a block at a time, in block order (SQL would parse a block once an item).
 */
async function pgItemMetas(db: SqlDriver, runId: string, metas: Map<string, Record<string, unknown>>): Promise<void> {
  const blocks = new PgBlockCache(db);
  for await (const m of db.iterate<{ hash: string; body: string }>(
    `SELECT t.item_hash AS hash, ${pgTaggedBlockText('i')} AS body
     FROM (SELECT DISTINCT item_ref, item_hash FROM trials WHERE run_id = ? AND status = 'done') t JOIN items i ON i.id = t.item_ref
     ORDER BY i.block, i.place`,
    [runId],
  )) {
    const [text] = await blocks.texts([m.body]);
    const meta = (JSON.parse(text!) as { meta?: Record<string, unknown> | null }).meta;
    metas.set(m.hash, meta ?? {});
  }
}

/** One row per score of each done trial (or only `scorer`'s, or each trial's protocol score: PROTOCOL_SCORES), with item metadata. */
export async function* runResponses(db: SqlDriver, runId: string, scorer?: string): AsyncIterable<ResponseRow> {
  const { jsonField, bytewise, insertionOrder, itemBody, text } = db.dialect;
  // Item metadata is read once per item, not once per trial: an item's body can be large (a
  // generated story carries its whole world) and a run has many trials per item.
  const metas = new Map<string, Record<string, unknown>>();
  if (db.backend === 'postgres') await pgItemMetas(db, runId, metas);
  else
    for await (const m of db.iterate<{ hash: string; meta: string | null }>(
      `SELECT t.item_hash AS hash, ${jsonField(itemBody('i.body'), 'meta')} AS meta
     FROM (SELECT DISTINCT item_ref, item_hash FROM trials WHERE run_id = ? AND status = 'done') t JOIN items i ON i.id = t.item_ref`,
      [runId],
    )) {
      metas.set(m.hash, m.meta && m.meta !== 'null' ? JSON.parse(m.meta) : {});
    }
  const rows = db.iterate<Omit<ResponseRow, 'meta' | 'parseFailed'> & { parseFailed: unknown }>(
    `SELECT t.subject_id AS "subjectId", s.spec AS spec, t.suite AS suite, t.item_id AS "itemId", t.item_hash AS "itemHash",
       i.category AS category, i.ability AS ability, t.replicate AS replicate, sc.value AS value,
       ${jsonField(text('sc.detail'), 'parseFailed')} AS "parseFailed"
     FROM trials t JOIN subjects s ON s.id = t.subject_id JOIN items i ON i.id = t.item_ref
     JOIN scores sc ON sc.trial_id = t.id
     WHERE t.run_id = ? AND t.status = 'done' ${
       scorer === PROTOCOL_SCORES
         ? `AND sc.${insertionOrder} = (SELECT MIN(s1.${insertionOrder}) FROM scores s1 WHERE s1.trial_id = t.id)`
         : scorer
           ? 'AND sc.scorer = ?'
           : ''
     }
     ORDER BY ${['s.spec', 't.suite', 't.item_id'].map(bytewise).join(', ')}, t.replicate, ${bytewise('t.subject_id')}, ${bytewise('sc.scorer')}`,
    scorer && scorer !== PROTOCOL_SCORES ? [runId, scorer] : [runId],
  );
  for await (const r of rows) {
    const parseFailed = r.parseFailed === 1 || r.parseFailed === 'true' || r.parseFailed === true;
    // Each row gets its own copy: callers may change what they are given.
    yield { ...r, parseFailed, meta: { ...(metas.get(r.itemHash) ?? {}) } };
  }
}
