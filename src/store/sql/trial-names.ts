// The names (runs, subjects, suites, item ids) and item hashes that trial_rows refer to by
// number, for readers that stream trial rows: a run's rows name few of them, each read once.

import type { SqlDriver } from './driver.js';
import { itemHashText } from './item-keys.js';

/** A run's key in trial_rows (its name's number); undefined when no trial or run ever named it. */
export async function runKeyOf(db: SqlDriver, runId: string): Promise<number | undefined> {
  const key = await db.get<{ id: number }>('SELECT id FROM names WHERE name = ?', [runId]);
  return key ? Number(key.id) : undefined;
}

/** Rows read past the last name or item a page asks for (see #read). */
const READ_AHEAD = 32;

/** Names and item hashes by number, each read once (500 a statement at most). */
export class TrialNames {
  readonly #names = new Map<number, string>();
  readonly #hashes = new Map<number, string>();
  constructor(private readonly db: SqlDriver) {}

  /**
   * Before a page's rows are resolved: memory stays bounded in a store of many runs, a map this
   * large starts again (before a page, never between the resolves of one).
   */
  startPage(): void {
    if (this.#names.size > 100_000) this.#names.clear();
    if (this.#hashes.size > 100_000) this.#hashes.clear();
  }

  /**
   * Read what rows (arrays of values) refer to and is not known yet: names in the
   * `nameColumns`, an item in `itemColumn`.
   */
  async resolve(page: readonly unknown[][], nameColumns: readonly number[], itemColumn?: number): Promise<void> {
    const names = unknownKeys(page, nameColumns, this.#names);
    if (names.size) await this.#read(names, 'SELECT id, name AS value FROM names', this.#names);
    if (itemColumn === undefined) return;
    const items = unknownKeys(page, [itemColumn], this.#hashes);
    if (items.size) await this.#read(items, 'SELECT id, hash AS value FROM items', this.#hashes, itemHashText);
  }

  async #read(
    ids: Set<number>,
    select: string,
    into: Map<number, string>,
    text: (v: string | Uint8Array) => string = (v) => v as string,
  ): Promise<void> {
    const all = [...ids];
    for (let i = 0; i < all.length; i += 500) {
      const part = all.slice(i, i + 500);
      // The few rows after the last one asked for come along: a run's names and items were
      // stored in the order its trials first named them, so the next pages name most of these
      // (one read for many pages, where each page read one or two).
      let last = part[0]!;
      for (const id of part) if (id > last) last = id;
      const rows = await this.db.all<{ id: number; value: string | Uint8Array }>(
        `${select} WHERE id IN (${part.map(() => '?').join(', ')}) OR (id > ? AND id <= ?)`,
        [...part, last, last + READ_AHEAD],
      );
      for (const r of rows) into.set(Number(r.id), text(r.value));
    }
  }

  name(key: unknown): string {
    return this.#names.get(Number(key))!;
  }

  itemHash(ref: unknown): string {
    return this.#hashes.get(Number(ref))!;
  }
}

/**
 * The numbers in `columns` of the rows that `known` lacks (a function of its own, out of the
 * async resolve: what runs for every row is compiled on its own, not in an async function's state machine).
 */
function unknownKeys(page: readonly unknown[][], columns: readonly number[], known: ReadonlyMap<number, string>): Set<number> {
  const out = new Set<number>();
  for (const row of page) {
    for (const c of columns) {
      const k = Number(row[c]);
      if (!known.has(k)) out.add(k);
    }
  }
  return out;
}
