// Moving a store's content between stores (db copy, merge): everything is read out row by row
// in pages (no long-lived cursor, no store held in memory) and written in batches of a
// transaction each. Trials travel with their transcript and scores as stored (JSON text);
// leases and rate limits stay behind (they belong to the processes of the source). Transcripts
// travel whole (their prompt blobs put back in) and are packed again, blobs and all, in the target.
// PostgreSQL keeps a batch's item bodies, prompt texts and transcripts in blocks, as new writes
// do (pg-import-texts.ts).
//
// Import rules: a run present in both must have the same identity (its spec's content); a
// trial already done in the target is kept (duplicates resolve by trial key; the first store
// copied wins); a done trial replaces a failed one; rubric pins must agree; the batch ledger
// moves too, a row advancing but never going back (batch-ledger-transfer.ts).

// core's files, not its index: the index loads every record schema (zod), which `report` does without.
import { ConfigError } from '../../core/errors.js';
import { canonicalJson } from '../../core/hash.js';
import { storableText } from '../../core/storable-text.js';
import type { ImportSummary, RunRecord, StoreRecord } from '../store.js';
import type { SqlDriver, SqlExecutor } from './driver.js';
import { exportBatchLedger, importLedgerRecord } from './batch-ledger-transfer.js';
import { insertBlobs } from './blob-rows.js';
import { itemConflict, itemHashParam, itemHashText } from './item-keys.js';
import { PgImportTexts } from './pg-import-texts.js';
import { pgBlockText } from './pg-text-blocks.js';
import { finishedAtParam, latencyParam, statusParam, statusSql } from './trial-values.js';
import { TranscriptPacker } from './transcript-packing.js';
import { trialPages } from './trial-pages.js';
import type { TextCodec } from './text-codec.js';
import { unstorableTrial } from './storable-trial.js';
import { insertNames, keyNames, scoreNames, TRIAL_KEY_COLUMNS, trialKeyValues, TRIAL_UNIQUE, upsertScore } from './trial-writes.js';
import {
  createdAtParam,
  createdAtText,
  CACHE_ORIGIN_JOIN,
  INSERT_CACHE_ENTRY,
  insertCacheModels,
  insertCacheOrigins,
  keyParam,
  keyText,
  packResponse,
  unpackResponse,
} from './cache-rows.js';

const PAGE = 500;

interface CacheRow {
  key: string | Buffer;
  provider: string;
  model: string;
  response: string | Uint8Array;
  created_at: number | string;
  origin: string | null;
}

/** Every row of a store, in dependency order (runs and items before the trials that name them). */
export async function* exportRecords(db: SqlDriver): AsyncIterable<StoreRecord> {
  for (const r of await db.all<{ id: string; created_at: string; config: string; spec: string | null; name: string | null }>(
    'SELECT id, created_at, config, spec, name FROM runs ORDER BY created_at, id',
  )) {
    const run: RunRecord = {
      id: r.id,
      createdAt: r.created_at,
      config: JSON.parse(r.config),
      ...(r.spec ? { spec: JSON.parse(r.spec) } : {}),
      ...(r.name !== null ? { name: r.name } : {}),
    };
    yield { kind: 'run', run };
  }
  for (const s of await db.all<{ id: string; spec: string; settings: string }>('SELECT id, spec, settings FROM subjects ORDER BY id')) {
    yield { kind: 'subject', subject: { id: s.id, spec: s.spec, settings: JSON.parse(s.settings) } };
  }
  for (const p of await db.all<{ run_id: string; subject_id: string; suite: string; planned: number }>(
    'SELECT run_id, subject_id, suite, planned FROM run_plan ORDER BY run_id, subject_id, suite',
  )) {
    yield { kind: 'plan', runId: p.run_id, row: { subjectId: p.subject_id, suite: p.suite, planned: p.planned } };
  }
  for (const p of await db.all<{ run_id: string; rubric: string; sha256: string }>(
    `SELECT run_id, rubric, sha256 FROM rubric_pins ORDER BY ${db.dialect.insertionOrder}`,
  )) {
    yield { kind: 'rubric', runId: p.run_id, rubric: p.rubric, sha256: p.sha256 };
  }
  for (const r of await db.all<{ run_id: string; subject_id: string; suite: string; mode: string; bank_id: string; result: string }>(
    'SELECT run_id, subject_id, suite, mode, bank_id, result FROM irt_results ORDER BY run_id, subject_id, suite',
  )) {
    const row = { runId: r.run_id, subjectId: r.subject_id, suite: r.suite, bankId: r.bank_id, result: JSON.parse(r.result) };
    yield { kind: 'irt', row: { ...row, mode: r.mode as 'tiny' | 'adaptive' } };
  }
  // In hash order (SQLite: text hashes kept from before schema 17 first, then the hashes kept as bytes).
  for (let after: string | Uint8Array = ''; ; ) {
    const page: Array<{ hash: string | Uint8Array; body: string | Uint8Array }> = await db.all(
      `SELECT hash, ${db.backend === 'postgres' ? `${pgBlockText('items')} AS body` : 'body'} FROM items WHERE hash > ? ORDER BY hash LIMIT ?`,
      [after, PAGE],
    );
    for (const i of page) yield { kind: 'item', hash: itemHashText(i.hash), body: db.codec.decode(i.body) };
    if (page.length < PAGE) break;
    after = page[page.length - 1]!.hash;
  }
  for await (const t of trialPages(db))
    yield { kind: 'trial', trial: { ...t, transcript: t.transcript === null ? null : JSON.stringify(t.transcript) } };
  for (let after: string | Buffer = ''; ; ) {
    const page: CacheRow[] = await db.all<CacheRow>(
      `SELECT c.key AS key, m.provider AS provider, m.model AS model, c.response AS response, c.created_at AS created_at, o.origin AS origin
       FROM call_cache c JOIN cache_models m ON m.id = c.model_id ${CACHE_ORIGIN_JOIN} WHERE c.key > ? ORDER BY c.key LIMIT ?`,
      [after, PAGE],
    );
    // Records carry the row as it was before schema 12 (packed rows are unpacked, keys are text).
    for (const c of page) {
      const response = db.codec.decode(c.response);
      yield {
        kind: 'cache',
        key: keyText(c.key),
        provider: c.provider,
        model: c.model,
        response: response.startsWith('[') ? JSON.stringify(unpackResponse(response)) : response,
        createdAt: createdAtText(c.created_at),
        ...(c.origin !== null ? { origin: c.origin } : {}),
      };
    }
    if (page.length < PAGE) break;
    // The last key as stored: SQLite orders text keys (written before schema 12) before blobs.
    after = page[page.length - 1]!.key;
  }
  yield* exportBatchLedger(db);
}

async function importOne(
  tx: SqlExecutor,
  { backend, codec }: { backend: SqlDriver['backend']; codec: TextCodec },
  r: StoreRecord,
  summary: ImportSummary,
  packer: TranscriptPacker,
  models: Set<string>,
  pgTexts: PgImportTexts | undefined,
): Promise<void> {
  switch (r.kind) {
    case 'run': {
      const existing = await tx.get<{ config: string }>('SELECT config FROM runs WHERE id = ?', [r.run.id]);
      if (existing) {
        if (canonicalJson(JSON.parse(existing.config)) !== canonicalJson(r.run.config))
          throw new ConfigError(`run ${r.run.id} exists in both stores with different specifications: refusing to merge them`);
        // A name the target lacks is taken from the source.
        if (r.run.name !== undefined) await tx.run('UPDATE runs SET name = ? WHERE id = ? AND name IS NULL', [r.run.name, r.run.id]);
        return;
      }
      await tx.run('INSERT INTO runs (id, created_at, config, spec, name) VALUES (?, ?, ?, ?, ?)', [
        r.run.id,
        r.run.createdAt,
        JSON.stringify(r.run.config),
        r.run.spec ? JSON.stringify(r.run.spec) : null,
        r.run.name ?? null,
      ]);
      summary.runs++;
      return;
    }
    case 'subject':
      await tx.run('INSERT INTO subjects (id, spec, settings) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING', [
        r.subject.id,
        r.subject.spec,
        JSON.stringify(r.subject.settings),
      ]);
      return;
    case 'plan':
      await tx.run(
        'INSERT INTO run_plan (run_id, subject_id, suite, planned) VALUES (?, ?, ?, ?) ON CONFLICT (run_id, subject_id, suite) DO NOTHING',
        [r.runId, r.row.subjectId, r.row.suite, r.row.planned],
      );
      return;
    case 'rubric': {
      await tx.run('INSERT INTO rubric_pins (run_id, rubric, sha256) VALUES (?, ?, ?) ON CONFLICT (run_id, rubric) DO NOTHING', [
        r.runId,
        r.rubric,
        r.sha256,
      ]);
      const pinned = await tx.get<{ sha256: string }>('SELECT sha256 FROM rubric_pins WHERE run_id = ? AND rubric = ?', [
        r.runId,
        r.rubric,
      ]);
      if (pinned?.sha256 !== r.sha256)
        throw new ConfigError(`run ${r.runId}: the stores pinned different rubrics under the name "${r.rubric}"`);
      return;
    }
    case 'irt':
      // The first store copied wins, as for trials.
      await tx.run(
        'INSERT INTO irt_results (run_id, subject_id, suite, mode, bank_id, result) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (run_id, subject_id, suite) DO NOTHING',
        [r.row.runId, r.row.subjectId, r.row.suite, r.row.mode, r.row.bankId, JSON.stringify(r.row.result)],
      );
      return;
    case 'item': {
      const item = JSON.parse(r.body) as { suite: string; id: string; category: string; ability?: string; answer: string };
      if (pgTexts) return pgTexts.item(r.hash, item, r.body);
      summary.items += await tx.run(
        `INSERT INTO items (hash, suite, item_id, category, ability, answer, body) VALUES (?, ?, ?, ?, ?, ?, ?) ${itemConflict(backend)}`,
        [
          itemHashParam(backend, r.hash),
          item.suite,
          item.id,
          item.category,
          item.ability ?? null,
          item.answer,
          codec.encode('item', r.body),
        ],
      );
      return;
    }
    case 'batch':
    case 'batchRequest':
      await importLedgerRecord(tx, r, summary);
      return;
    case 'cache':
      // Each model once a batch: PostgreSQL takes a sequence number for every conflicting insert.
      if (!models.has(`${r.provider}\u0000${r.model}`)) {
        await insertCacheModels(tx, [[r.provider, r.model]]);
        models.add(`${r.provider}\u0000${r.model}`);
      }
      if (r.origin !== undefined) await insertCacheOrigins(tx, [r.origin]);
      summary.cacheEntries += await tx.run(INSERT_CACHE_ENTRY, [
        keyParam(backend, r.key),
        r.provider,
        r.model,
        codec.encode('cache', packResponse(JSON.parse(r.response))),
        createdAtParam(backend, r.createdAt),
        r.origin ?? null,
      ]);
      return;
    case 'trial': {
      const t = r.trial;
      const refused = unstorableTrial(
        t,
        t.scores.map((s) => s.scorer),
        t.latencyMs,
        t.batchLatencyMs,
      );
      if (refused) throw new ConfigError(`trial ${t.suite}/${t.itemId}#${t.replicate} of run ${t.runId}: ${refused}`);
      if (pgTexts) summary.items += await pgTexts.writeItems(tx);
      // A new trial goes in; a done one replaces a failed one; anything else is a duplicate.
      await insertNames(tx, [
        ...keyNames(t),
        ...scoreNames(
          backend,
          t.scores.map((s) => s.scorer),
          t.scores.map((s) => s.detail),
        ),
      ]);
      const row = await tx.get<{ id: number }>(
        `INSERT INTO trial_rows (${TRIAL_KEY_COLUMNS}, status, error, attempts,
           input_tokens, output_tokens, cost_usd, latency_ms, batch_latency_ms, cached_calls, total_calls, truncated_calls,
           unpriced_calls, finished_at)
         VALUES (${trialKeyValues(backend)}, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (${TRIAL_UNIQUE}) DO UPDATE SET item_ref = excluded.item_ref,
           status = excluded.status, error = excluded.error, attempts = excluded.attempts, input_tokens = excluded.input_tokens,
           output_tokens = excluded.output_tokens, cost_usd = excluded.cost_usd, latency_ms = excluded.latency_ms,
           batch_latency_ms = excluded.batch_latency_ms, cached_calls = excluded.cached_calls, total_calls = excluded.total_calls, truncated_calls = excluded.truncated_calls,
           unpriced_calls = excluded.unpriced_calls, finished_at = excluded.finished_at
         WHERE trial_rows.status = ${statusSql(backend, 'failed')} AND excluded.status = ${statusSql(backend, 'done')}
         RETURNING id`,
        [
          t.runId,
          t.subjectId,
          t.suite,
          t.itemId,
          t.replicate,
          itemHashParam(backend, t.itemHash),
          statusParam(backend, t.status),
          t.error === null ? null : storableText(t.error),
          t.attempts,
          t.inputTokens,
          t.outputTokens,
          t.costUsd,
          latencyParam(backend, t.latencyMs),
          latencyParam(backend, t.batchLatencyMs ?? 0),
          t.cachedCalls,
          t.totalCalls,
          t.truncatedCalls,
          t.unpricedCalls,
          finishedAtParam(backend, t.finishedAt),
        ],
      );
      if (!row) {
        summary.duplicateTrials++;
        return;
      }
      summary.trials++;
      if (t.transcript !== null) {
        const packed = packer.pack(JSON.parse(t.transcript));
        if (pgTexts) {
          pgTexts.transcript(row.id, packed.body, packed.blobs);
          packer.markStored(packed.blobs);
        } else {
          await insertBlobs(tx, codec, packed.blobs);
          packer.markStored(packed.blobs);
          await tx.run(
            'INSERT INTO transcripts (trial_id, body, packed) VALUES (?, ?, 1) ON CONFLICT (trial_id) DO UPDATE SET body = excluded.body, packed = excluded.packed',
            [row.id, codec.encode('transcript', packed.body)],
          );
        }
      }
      for (const s of t.scores) {
        for (const q of upsertScore(backend, [row.id, s.scorer, s.value, codec.encode('score', s.detail)])) await tx.run(q.sql, q.params);
      }
      return;
    }
  }
}

/** Write exported rows into a store, a transaction per batch; see the rules above. */
export async function importRecords(db: SqlDriver, records: AsyncIterable<StoreRecord>): Promise<ImportSummary> {
  const summary: ImportSummary = { runs: 0, items: 0, trials: 0, duplicateTrials: 0, cacheEntries: 0, batches: 0, batchRequests: 0 };
  let batch: StoreRecord[] = [];
  const write = async () => {
    const rows = batch;
    batch = [];
    // A fresh packer a batch: a blob counts as stored only once its batch has committed.
    const packer = new TranscriptPacker(db.codec);
    const models = new Set<string>();
    // Dictionaries trained from the batches before, stored before this batch's rows use them.
    await db.codec.ready(db);
    await db.codec.train(db);
    await db.transaction(async (tx) => {
      const pgTexts = db.backend === 'postgres' ? new PgImportTexts() : undefined;
      for (const r of rows) await importOne(tx, db, r, summary, packer, models, pgTexts);
      if (pgTexts) summary.items += await pgTexts.write(tx, db.codec);
    });
  };
  for await (const r of records) {
    batch.push(r);
    if (batch.length >= PAGE) await write();
  }
  if (batch.length) await write();
  return summary;
}
