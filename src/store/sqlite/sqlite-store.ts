// The default store: one SQLite file through better-sqlite3, in WAL mode.
//
// Finished trials and cache entries go through a group commit (group-commit.ts); each trial
// still goes in whole or not at all. Reads see queued writes: the cache and trial statuses are
// looked up in the queue first, other reads flush first. A process killed before a commit
// loses those results, and only those: the file stays consistent and the trials are simply
// not done (they run again on the rerun).

import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Item, Score, StoredTranscript, TrialKey, TrialOutcome } from '../../core/index.js';
import { ConfigError, MindscopeError, StoredTranscriptSchema } from '../../core/index.js';
import type { FailedTrialRow, PlanRow, ResponseRow, RunRecord, StatusRow, Store, SubjectRecord, TrialStatus, UsageRow } from '../store.js';
import { GroupCommit } from './group-commit.js';
import { MIGRATIONS } from './migrations.js';

type Stmt = Database.Statement;

const trialKeyString = (k: TrialKey) => `${k.runId}\u0000${k.subjectId}\u0000${k.suite}\u0000${k.itemId}\u0000${k.replicate}`;

export class SqliteStore implements Store {
  readonly location: string;
  readonly #db: Database.Database;
  readonly #stmts = new Map<string, Stmt>();
  readonly #queuedCache = new Map<string, string>();
  readonly #queuedStatus = new Map<string, TrialStatus>();
  readonly #commits: GroupCommit;

  constructor(path: string) {
    this.location = path === ':memory:' ? path : resolve(path);
    this.#commits = new GroupCommit(
      (fn) => this.#db.transaction(fn)(),
      () => {
        this.#queuedCache.clear();
        this.#queuedStatus.clear();
      },
      this.location,
    );
    if (path !== ':memory:') mkdirSync(dirname(this.location), { recursive: true });
    try {
      this.#db = new Database(this.location);
      this.#db.pragma('journal_mode = WAL');
      this.#db.pragma('synchronous = NORMAL');
      // Checkpoint the WAL into the main file less often than the default 1,000 pages.
      this.#db.pragma('wal_autocheckpoint = 10000');
      this.#db.pragma('foreign_keys = ON');
      this.#db.pragma('busy_timeout = 5000');
      this.#migrate();
    } catch (err) {
      throw new MindscopeError(`${this.location}: cannot open the store: ${(err as Error).message}`);
    }
  }

  #migrate(): void {
    const current = this.#db.pragma('user_version', { simple: true }) as number;
    if (current > MIGRATIONS.length) {
      throw new MindscopeError(`schema version ${current} is newer than this mindscope knows (${MIGRATIONS.length}); upgrade mindscope`);
    }
    for (let v = current; v < MIGRATIONS.length; v++) {
      this.#db.transaction(() => {
        this.#db.exec(MIGRATIONS[v]!);
        this.#db.pragma(`user_version = ${v + 1}`);
      })();
    }
  }

  /** Prepared statements, compiled once. */
  #q(sql: string): Stmt {
    let s = this.#stmts.get(sql);
    if (!s) {
      s = this.#db.prepare(sql);
      this.#stmts.set(sql, s);
    }
    return s;
  }

  get schemaVersion(): number {
    return this.#db.pragma('user_version', { simple: true }) as number;
  }

  getRun(id: string): RunRecord | undefined {
    const row = this.#q('SELECT id, created_at, config FROM runs WHERE id = ?').get(id) as
      | { id: string; created_at: string; config: string }
      | undefined;
    return row ? { id: row.id, createdAt: row.created_at, config: JSON.parse(row.config) } : undefined;
  }

  listRuns(): RunRecord[] {
    const rows = this.#q('SELECT id, created_at, config FROM runs ORDER BY created_at, id').all() as Array<{
      id: string;
      created_at: string;
      config: string;
    }>;
    return rows.map((r) => ({ id: r.id, createdAt: r.created_at, config: JSON.parse(r.config) }));
  }

  createRun(run: RunRecord): void {
    this.flush();
    this.#q('INSERT INTO runs (id, created_at, config) VALUES (?, ?, ?)').run(run.id, run.createdAt, JSON.stringify(run.config));
  }

  setPlan(runId: string, rows: PlanRow[]): void {
    this.flush();
    const put = this.#q(
      'INSERT INTO run_plan (run_id, subject_id, suite, planned) VALUES (?, ?, ?, ?) ON CONFLICT (run_id, subject_id, suite) DO UPDATE SET planned = excluded.planned',
    );
    this.#db.transaction(() => rows.forEach((r) => put.run(runId, r.subjectId, r.suite, r.planned)))();
  }

  upsertSubject(s: SubjectRecord): void {
    this.flush();
    this.#q('INSERT INTO subjects (id, spec, settings) VALUES (?, ?, ?) ON CONFLICT (id) DO NOTHING').run(
      s.id,
      s.spec,
      JSON.stringify(s.settings),
    );
  }

  putItems(items: Array<{ hash: string; item: Item }>): void {
    this.flush();
    const put = this.#q(
      'INSERT INTO items (hash, suite, item_id, category, ability, answer, body) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (hash) DO NOTHING',
    );
    this.#db.transaction(() => {
      for (const { hash, item } of items) {
        put.run(hash, item.suite, item.id, item.category, item.ability ?? null, item.answer, JSON.stringify(item));
      }
    })();
  }

  recordScore(k: TrialKey, score: Score): void {
    this.flush();
    const row = this.#q('SELECT id FROM trials WHERE run_id = ? AND subject_id = ? AND suite = ? AND item_id = ? AND replicate = ?').get(
      k.runId,
      k.subjectId,
      k.suite,
      k.itemId,
      k.replicate,
    ) as { id: number } | undefined;
    if (!row) throw new ConfigError(`no trial ${k.suite}/${k.itemId} #${k.replicate} of ${k.subjectId} in run ${k.runId}`);
    this.#q(
      'INSERT INTO scores (trial_id, scorer, value, detail) VALUES (?, ?, ?, ?) ON CONFLICT (trial_id, scorer) DO UPDATE SET value = excluded.value, detail = excluded.detail',
    ).run(row.id, score.scorer, score.value, JSON.stringify(score.detail ?? {}));
  }

  scoreOf(k: TrialKey, scorer: string): Score | undefined {
    this.flush();
    const row = this.#q(
      `SELECT sc.value AS value, sc.detail AS detail FROM trials t JOIN scores sc ON sc.trial_id = t.id
       WHERE t.run_id = ? AND t.subject_id = ? AND t.suite = ? AND t.item_id = ? AND t.replicate = ? AND sc.scorer = ?`,
    ).get(k.runId, k.subjectId, k.suite, k.itemId, k.replicate, scorer) as { value: number; detail: string } | undefined;
    return row ? { scorer, value: row.value, detail: JSON.parse(row.detail) } : undefined;
  }

  pinRubric(runId: string, rubric: string, sha256: string): void {
    this.flush();
    const pinned = this.#q('SELECT sha256 FROM rubric_pins WHERE run_id = ? AND rubric = ?').get(runId, rubric) as
      | { sha256: string }
      | undefined;
    if (pinned && pinned.sha256 !== sha256)
      throw new ConfigError(
        `run ${runId} was scored with rubric "${rubric}" sha256 ${pinned.sha256.slice(0, 12)}...; this file is ${sha256.slice(0, 12)}...: refusing to mix rubrics (use a new rubric name)`,
      );
    if (!pinned) this.#q('INSERT INTO rubric_pins (run_id, rubric, sha256) VALUES (?, ?, ?)').run(runId, rubric, sha256);
  }

  pinnedRubrics(runId: string): Array<{ rubric: string; sha256: string }> {
    this.flush();
    return this.#q('SELECT rubric, sha256 FROM rubric_pins WHERE run_id = ? ORDER BY rowid').all(runId) as Array<{
      rubric: string;
      sha256: string;
    }>;
  }

  getItem(hash: string): Item | undefined {
    this.flush();
    const row = this.#q('SELECT body FROM items WHERE hash = ?').get(hash) as { body: string } | undefined;
    return row ? (JSON.parse(row.body) as Item) : undefined;
  }

  trialStatus(k: TrialKey): TrialStatus | undefined {
    this.#commits.raise();
    // No flush here: the runner asks this once per planned trial, and a flush each time would
    // undo the group commit.
    const queued = this.#queuedStatus.get(trialKeyString(k));
    if (queued) return queued;
    const row = this.#q(
      'SELECT status FROM trials WHERE run_id = ? AND subject_id = ? AND suite = ? AND item_id = ? AND replicate = ?',
    ).get(k.runId, k.subjectId, k.suite, k.itemId, k.replicate) as { status: TrialStatus } | undefined;
    return row?.status;
  }

  trialCount(runId: string): number {
    this.flush();
    return (this.#q('SELECT COUNT(*) AS n FROM trials WHERE run_id = ?').get(runId) as { n: number }).n;
  }

  #upsertTrial(
    k: TrialKey,
    itemHash: string,
    fields: { status: TrialStatus; error: string | null; attempts: number; o?: TrialOutcome },
  ): number {
    const o = fields.o;
    const values = [
      k.runId,
      k.subjectId,
      k.suite,
      k.itemId,
      k.replicate,
      itemHash,
      fields.status,
      fields.error,
      fields.attempts,
      o?.usage.inputTokens ?? 0,
      o?.usage.outputTokens ?? 0,
      o?.costUsd ?? 0,
      o?.latencyMs ?? 0,
      o?.cachedCalls ?? 0,
      o?.totalCalls ?? 0,
      o?.truncatedCalls ?? 0,
      o?.unpricedCalls ?? 0,
      new Date().toISOString(),
    ];
    const columns = `(run_id, subject_id, suite, item_id, replicate, item_hash, status, error, attempts,
         input_tokens, output_tokens, cost_usd, latency_ms, cached_calls, total_calls, truncated_calls, unpriced_calls, finished_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
    // Most trials are new: a plain insert. A failed trial that is run again updates its row.
    const inserted = this.#q(`INSERT OR IGNORE INTO trials ${columns}`).run(...values);
    if (inserted.changes === 1) return Number(inserted.lastInsertRowid);
    const row = this.#q(
      `UPDATE trials SET item_hash = ?, status = ?, error = ?, attempts = attempts + ?, input_tokens = ?, output_tokens = ?,
         cost_usd = ?, latency_ms = ?, cached_calls = ?, total_calls = ?, truncated_calls = ?, unpriced_calls = ?, finished_at = ?
       WHERE run_id = ? AND subject_id = ? AND suite = ? AND item_id = ? AND replicate = ? RETURNING id`,
    ).get(...values.slice(5), ...values.slice(0, 5)) as { id: number };
    return row.id;
  }

  recordDone(k: TrialKey, itemHash: string, outcome: TrialOutcome, attempts: number): void {
    if (typeof outcome.score.value !== 'number' || !Number.isFinite(outcome.score.value)) {
      throw new MindscopeError(`trial ${k.suite}/${k.itemId}: score ${String(outcome.score.value)} is not a finite number`);
    }
    // Serialise now: the caller may reuse its objects once this returns.
    const transcript = JSON.stringify(outcome.transcript);
    const detail = JSON.stringify(outcome.score.detail);
    this.#queuedStatus.set(trialKeyString(k), 'done');
    this.#commits.add(`trial ${k.suite}/${k.itemId}#${k.replicate}`, () => {
      const id = this.#upsertTrial(k, itemHash, { status: 'done', error: null, attempts, o: outcome });
      this.#q('INSERT OR REPLACE INTO transcripts (trial_id, body) VALUES (?, ?)').run(id, transcript);
      this.#q('INSERT OR REPLACE INTO scores (trial_id, scorer, value, detail) VALUES (?, ?, ?, ?)').run(
        id,
        outcome.score.scorer,
        outcome.score.value,
        detail,
      );
    });
  }

  recordFailed(k: TrialKey, itemHash: string, error: string, attempts: number): void {
    this.#queuedStatus.set(trialKeyString(k), 'failed');
    this.#commits.add(`failed trial ${k.suite}/${k.itemId}#${k.replicate}`, () =>
      this.#upsertTrial(k, itemHash, { status: 'failed', error, attempts }),
    );
  }

  getCached(key: string): unknown {
    this.#commits.raise();
    const queued = this.#queuedCache.get(key);
    if (queued !== undefined) return JSON.parse(queued);
    const row = this.#q('SELECT response FROM call_cache WHERE key = ?').get(key) as { response: string } | undefined;
    return row ? JSON.parse(row.response) : undefined;
  }

  putCached(key: string, provider: string, model: string, response: unknown): void {
    const body = JSON.stringify(response);
    this.#queuedCache.set(key, body);
    this.#commits.add(`cache entry for ${model}`, () => {
      this.#q('INSERT OR IGNORE INTO call_cache (key, provider, model, response, created_at) VALUES (?, ?, ?, ?, ?)').run(
        key,
        provider,
        model,
        body,
        new Date().toISOString(),
      );
    });
  }

  /** Commit queued writes now (they are also committed within GROUP_COMMIT_MS). */
  flush(): void {
    this.#commits.flush();
  }

  status(runId: string): StatusRow[] {
    this.flush();
    const rows = this.#q(
      `SELECT p.subject_id AS subjectId, s.spec AS spec, p.suite AS suite, p.planned AS planned,
         COALESCE(SUM(t.status = 'done'), 0) AS done, COALESCE(SUM(t.status = 'failed'), 0) AS failed,
         COALESCE(SUM(t.status = 'done' AND t.truncated_calls > 0), 0) AS truncated
       FROM run_plan p JOIN subjects s ON s.id = p.subject_id
       LEFT JOIN trials t ON t.run_id = p.run_id AND t.subject_id = p.subject_id AND t.suite = p.suite
       WHERE p.run_id = ? GROUP BY p.subject_id, p.suite ORDER BY s.spec, p.suite`,
    ).all(runId) as Array<Omit<StatusRow, 'pending'>>;
    return rows.map((r) => ({ ...r, pending: Math.max(0, r.planned - r.done - r.failed) }));
  }

  usage(runId: string): UsageRow[] {
    this.flush();
    return this.#q(
      `SELECT t.subject_id AS subjectId, s.spec AS spec, COUNT(*) AS trials,
         SUM(t.input_tokens) AS inputTokens, SUM(t.output_tokens) AS outputTokens,
         CASE WHEN SUM(t.unpriced_calls) > 0 THEN NULL ELSE SUM(t.cost_usd) END AS costUsd, SUM(t.unpriced_calls) AS unpricedCalls,
         SUM(t.cached_calls) AS cachedCalls, SUM(t.total_calls) AS totalCalls, AVG(t.latency_ms) AS latencyMsMean
       FROM trials t JOIN subjects s ON s.id = t.subject_id
       WHERE t.run_id = ? AND t.status = 'done' GROUP BY t.subject_id ORDER BY s.spec`,
    ).all(runId) as UsageRow[];
  }

  failures(runId: string, limit = 20): FailedTrialRow[] {
    this.flush();
    return this.#q(
      `SELECT run_id AS runId, subject_id AS subjectId, suite, item_id AS itemId, replicate, error, attempts
       FROM trials WHERE run_id = ? AND status = 'failed' ORDER BY id LIMIT ?`,
    ).all(runId, limit) as FailedTrialRow[];
  }

  *responses(runId: string, scorer?: string): Iterable<ResponseRow> {
    this.flush();
    const stmt = this.#db.prepare(
      `SELECT t.subject_id AS subjectId, s.spec AS spec, t.suite AS suite, t.item_id AS itemId, t.item_hash AS itemHash,
         i.category AS category, i.ability AS ability, t.replicate AS replicate, sc.value AS value,
         json_extract(sc.detail, '$.parseFailed') AS parseFailed, json_extract(i.body, '$.meta') AS meta
       FROM trials t JOIN subjects s ON s.id = t.subject_id JOIN items i ON i.hash = t.item_hash
       JOIN scores sc ON sc.trial_id = t.id
       WHERE t.run_id = ? AND t.status = 'done' ${scorer ? 'AND sc.scorer = ?' : ''}
       ORDER BY s.spec, t.suite, t.item_id, t.replicate`,
    );
    const args = scorer ? [runId, scorer] : [runId];
    for (const r of stmt.iterate(...args) as Iterable<
      Omit<ResponseRow, 'meta' | 'parseFailed'> & { meta: string | null; parseFailed: number | null }
    >) {
      yield { ...r, parseFailed: r.parseFailed === 1, meta: r.meta ? JSON.parse(r.meta) : {} };
    }
  }

  transcript(k: TrialKey): { transcript: StoredTranscript; score: Score } | undefined {
    this.flush();
    const row = this.#q(
      `SELECT tr.body AS body, sc.scorer AS scorer, sc.value AS value, sc.detail AS detail FROM trials t
       JOIN transcripts tr ON tr.trial_id = t.id JOIN scores sc ON sc.trial_id = t.id
       WHERE t.run_id = ? AND t.subject_id = ? AND t.suite = ? AND t.item_id = ? AND t.replicate = ?
       ORDER BY sc.rowid LIMIT 1`,
    ).get(k.runId, k.subjectId, k.suite, k.itemId, k.replicate) as
      | { body: string; scorer: string; value: number; detail: string }
      | undefined;
    if (!row) return undefined;
    // The protocol's own score is the trial's first; judges' scores come later (scoreOf reads them).
    const parsed = StoredTranscriptSchema.safeParse(JSON.parse(row.body));
    if (!parsed.success) {
      throw new MindscopeError(
        `${this.location}: the transcript of ${k.suite}/${k.itemId}#${k.replicate} does not parse: ${parsed.error.issues[0]?.message}`,
      );
    }
    return { transcript: parsed.data, score: { scorer: row.scorer, value: row.value, detail: JSON.parse(row.detail) } };
  }

  close(): void {
    try {
      this.flush();
    } finally {
      this.#db.close();
    }
  }
}
