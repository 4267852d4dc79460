// Cache lookups a SQLite store answers without a query. A model with no entry in the call cache
// (not named in cache_models) when this store first looked one up for it can only have gained
// entries since in two ways: this store wrote them (remembered here), or another connection
// committed to the file, which SQLite's data_version tells (checked every RECHECK_MS; once it
// moves, every lookup queries again). A fresh call's lookup then costs a Set lookup instead of
// a query: about 25 us of the runner's main thread a call in bench/runner.mjs, where every call
// is fresh. PostgreSQL stores always query (their workers write concurrently by design).
//
// What a lookup may miss: an entry another process committed in the last RECHECK_MS. Its calls
// in flight are missed anyway (they are committed in groups, up to 100 ms after they return);
// the worst is one call paid twice, never a wrong reply.

import { cacheModelName } from './cache-rows.js';
import type { SqlDriver } from './driver.js';

/** How often data_version is read while a lookup relies on it (ms). */
const RECHECK_MS = 20;
/** Keys remembered at most; past this every lookup queries again (a Set of small integers: ~20 MB). */
const MAX_WRITTEN = 1_000_000;

/**
 * A key's remembered form: its first 28 bits (a small integer: cheap to keep). Two keys sharing
 * them make the second one's lookup a query, never a wrong answer.
 */
const short = (key: string): number => Number.parseInt(key.slice(0, 7), 16);

export class CacheAbsence {
  /** Per model (provider NUL spec): true when it had no entries at its first lookup. */
  readonly #absent = new Map<string, boolean>();
  /** Keys this store wrote for models not known to have entries. */
  readonly #written = new Set<number>();
  #version: number | undefined;
  #checkedAt = Number.NEGATIVE_INFINITY;
  #off = false;

  constructor(private readonly db: SqlDriver) {}

  async #dataVersion(): Promise<number> {
    return (await this.db.get<{ data_version: number }>('PRAGMA data_version'))!.data_version;
  }

  /**
   * True when the cache surely has no entry for `key` (a call of this model): no query is needed.
   * Answered at once (no promise) when that needs no query either: a model known, checked lately.
   */
  surelyMissing(key: string, provider: string, model: string): boolean | Promise<boolean> {
    if (this.#off || this.#written.has(short(key))) return false;
    const absent = this.#absent.get(cacheModelName(provider, model));
    if (absent === false) return false;
    if (absent === true && performance.now() - this.#checkedAt <= RECHECK_MS) return true;
    return this.#check(key, provider, model);
  }

  /** surelyMissing's answer when it reads the database (a model not known yet, or its recheck due). */
  async #check(key: string, provider: string, model: string): Promise<boolean> {
    if (this.#off || this.#written.has(short(key))) return false;
    const named = cacheModelName(provider, model);
    let absent = this.#absent.get(named);
    if (absent === undefined) {
      // The version before the model: an entry committed in between moves the version. A
      // version read before, for other models, is compared now (not only RECHECK_MS later).
      const version = await this.#dataVersion();
      if (this.#version === undefined) this.#version = version;
      else if (version !== this.#version) this.#off = true;
      this.#checkedAt = performance.now();
      absent = !(await this.db.get('SELECT 1 AS one FROM cache_models WHERE provider = ? AND model = ?', [provider, model]));
      this.#absent.set(named, absent);
      if (this.#off) return false;
    }
    if (!absent) return false;
    if (performance.now() - this.#checkedAt > RECHECK_MS) {
      this.#checkedAt = performance.now();
      if ((await this.#dataVersion()) !== this.#version) this.#off = true;
    }
    return !this.#off;
  }

  /** This store is writing `key` for the model (before it is committed). */
  writing(key: string, provider: string, model: string): void {
    if (this.#off || this.#absent.get(cacheModelName(provider, model)) === false) return;
    if (this.#written.size >= MAX_WRITTEN) this.#off = true;
    else this.#written.add(short(key));
  }

  /** Entries came in another way (an import into this store): forget what was known. */
  forget(): void {
    this.#absent.clear();
    this.#written.clear();
    this.#version = undefined;
    this.#off = false;
  }
}
