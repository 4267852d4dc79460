// The call cache of a SQL store: a model's reply stored under its request's key so that the same
// call is never paid for twice. Entries go through the store's group commit with its trials;
// until they commit they are answered from memory, and a process with a reply journal writes each
// reply there first (reply-journal.ts), so a process killed before a commit loses no paid-for
// reply: the next process that opens the store replays dead processes' journals before its first
// lookup.

import type { CachedEntry } from '../store.js';
import type { SqlDriver, SqlExecutor } from './driver.js';
import type { GroupCommit } from './group-commit.js';
import { CacheAbsence } from './cache-absence.js';
import {
  CACHE_ORIGIN_JOIN,
  cacheModelName,
  INSERT_CACHE_ENTRY,
  INSERT_CACHE_ENTRY_BY_IDS,
  insertCacheModels,
  insertCacheOrigins,
  keyParam,
  packResponse,
  unpackResponse,
} from './cache-rows.js';
import { ReplyJournal } from './reply-journal.js';
import type { Write } from './trial-writes.js';

/** Journal entries replayed in one transaction. */
const RECOVERY_CHUNK = 500;

export class SqlCallCache {
  /** Entries queued for the group commit, by key: lookups find them before they commit. */
  readonly #queued = new Map<string, { body: string; origin: string | null }>();
  /**
   * Ids of cache models (provider NUL spec) and origins known committed (their rows are never
   * deleted): a later write names neither again, and an entry of both is inserted by ids rather
   * than looking them up.
   */
  readonly #modelIds = new Map<string, number>();
  readonly #originIds = new Map<string, number>();
  /** SQLite: lookups of calls of models with no cache entries answered without a query. */
  readonly #absence: CacheAbsence | undefined;
  /** This process's reply journal; absent for an in-memory or read-only store. */
  readonly #journal: ReplyJournal | undefined;
  /** The replay of dead processes' journals, done before the first lookup. */
  #recovered: Promise<number> | undefined;
  /** Set once that replay has succeeded. */
  #replayed = false;

  constructor(
    private readonly db: SqlDriver,
    private readonly commits: GroupCommit<Write>,
    journalDir: string | undefined,
  ) {
    this.#journal = journalDir ? new ReplyJournal(journalDir) : undefined;
    this.#absence = db.backend === 'sqlite' ? new CacheAbsence(db) : undefined;
  }

  async entry(key: string, provider?: string, model?: string): Promise<CachedEntry | undefined> {
    // Once the journals are replayed, and for a model known missing, a lookup waits for nothing.
    if (this.#journal && !this.#replayed) {
      await (this.#recovered ??= this.recover());
      this.#replayed = true;
    }
    const queued = this.#queued.get(key);
    if (queued !== undefined) return { value: unpackResponse(queued.body), origin: queued.origin };
    if (this.#absence && provider !== undefined && model !== undefined) {
      const missing = this.#absence.surelyMissing(key, provider, model);
      if (missing === true || (missing !== false && (await missing))) return undefined;
    }
    const row = await this.db.get<{ response: string | Uint8Array; origin: string | null }>(
      `SELECT c.response AS response, o.origin AS origin FROM call_cache c ${CACHE_ORIGIN_JOIN} WHERE c.key = ?`,
      [keyParam(this.db.backend, key)],
    );
    return row ? { value: unpackResponse(this.db.codec.decode(row.response)), origin: row.origin } : undefined;
  }

  /** Store a reply: journaled at once, committed with the next group; resolves once committed. */
  put(key: string, provider: string, model: string, response: unknown, origin?: string): Promise<void> {
    const body = packResponse(response);
    this.#absence?.writing(key, provider, model);
    const queued = { body, origin: origin ?? null };
    // A key written twice keeps its first reply (the insert of the second does nothing): so do lookups before the commit.
    if (!this.#queued.has(key)) this.#queued.set(key, queued);
    const params = [keyParam(this.db.backend, key), provider, model, body, Date.now(), origin ?? null];
    const named = cacheModelName(provider, model);
    /** Ids read in the write's transaction, known once it commits. */
    let read: { model?: number; origin?: number } | undefined;
    const write: Write = (tx) => {
      read = undefined;
      const response = this.db.codec.encode('cache', body);
      const modelId = this.#modelIds.get(named);
      const originId = origin === undefined ? null : this.#originIds.get(origin);
      // By ids, known committed: SQLite's statement runs at once (no await).
      if (modelId !== undefined && originId !== undefined) {
        const byIds = [params[0], modelId, response, params[4], originId];
        if (tx.sync) tx.sync.run(INSERT_CACHE_ENTRY_BY_IDS, byIds);
        else return tx.run(INSERT_CACHE_ENTRY_BY_IDS, byIds).then(() => {});
        return;
      }
      params[3] = response;
      return (async () => {
        await tx.run(INSERT_CACHE_ENTRY, params);
        read = await this.#readIds(
          tx,
          provider,
          model,
          modelId === undefined,
          origin !== undefined && originId === undefined ? origin : undefined,
        );
      })();
    };
    if (!this.#modelIds.has(named)) write.model = [provider, model];
    if (origin !== undefined && !this.#originIds.has(origin)) write.origin = origin;
    // Journaled first: from here a kill loses nothing; the journal forgets it once committed.
    const journaled = this.#journal?.append({ key, provider, model, body, origin: origin ?? null });
    const committed = this.commits.add(
      () => `cache entry for ${model}`,
      write,
      (stored) => {
        if (this.#queued.get(key) === queued) this.#queued.delete(key);
        if (!stored) return;
        journaled?.();
        // A model (or origin) committed, its id read in the same transaction, needs no insert in later writes.
        if (read?.model !== undefined) this.#modelIds.set(named, read.model);
        if (read?.origin !== undefined && origin !== undefined) this.#originIds.set(origin, read.origin);
      },
    );
    return committed;
  }

  /** The ids of a model and an origin (those asked for), read in the transaction that named them. */
  async #readIds(
    tx: Pick<SqlExecutor, 'get'>,
    provider: string,
    model: string,
    needModel: boolean,
    origin: string | undefined,
  ): Promise<{ model?: number; origin?: number }> {
    const out: { model?: number; origin?: number } = {};
    if (needModel) {
      const row = await tx.get<{ id: number }>('SELECT id FROM cache_models WHERE provider = ? AND model = ?', [provider, model]);
      if (row) out.model = Number(row.id);
    }
    if (origin !== undefined) {
      const row = await tx.get<{ id: number }>('SELECT id FROM cache_origins WHERE origin = ?', [origin]);
      if (row) out.origin = Number(row.id);
    }
    return out;
  }

  /** Store the replies in dead processes' journals; the number of entries stored. */
  async recover(): Promise<number> {
    if (!this.#journal) return 0;
    const { entries, files, remove } = ReplyJournal.orphans(this.#journal.dir);
    if (!files.length) return 0;
    let stored = 0;
    await this.db.codec.ready(this.db);
    for (let i = 0; i < entries.length; i += RECOVERY_CHUNK) {
      const part = entries.slice(i, i + RECOVERY_CHUNK);
      await this.db.transaction(async (tx) => {
        await insertCacheModels(tx, [
          ...new Map(part.map((e) => [`${e.provider}\u0000${e.model}`, [e.provider, e.model] as [string, string]])).values(),
        ]);
        await insertCacheOrigins(
          tx,
          part.flatMap((e) => (e.origin === null ? [] : [e.origin])),
        );
        for (const e of part) {
          this.#absence?.writing(e.key, e.provider, e.model);
          stored += await tx.run(INSERT_CACHE_ENTRY, [
            keyParam(this.db.backend, e.key),
            e.provider,
            e.model,
            this.db.codec.encode('cache', e.body),
            Date.now(),
            e.origin,
          ]);
        }
      });
    }
    remove();
    return stored;
  }

  /** Entries came in another way (an import): nothing known of absent entries holds any more. */
  forgetAbsences(): void {
    this.#absence?.forget();
  }

  close(): void {
    this.#journal?.close();
  }
}
