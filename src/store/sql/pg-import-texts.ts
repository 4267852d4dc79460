// Copying into PostgreSQL (transfer.ts): the item bodies, prompt texts and transcripts of a
// batch of imported records are held back and written at its end, in blocks as new writes keep
// them (pg-text-blocks.ts; item-bodies.ts, blob-rows.ts, trial-writes.ts), inside the batch's
// transaction. A record at a time, each text would be too short for a block of its own.

import type { TextCodec } from './text-codec.js';
import type { SqlExecutor } from './driver.js';
import { insertBlobs } from './blob-rows.js';
import { insertPgItems, knownItemHashes, PG_ITEM_BLOCK_MAX } from './item-bodies.js';
import { pgTextPlaces } from './pg-text-blocks.js';
import { valuesList } from './trial-key-sql.js';
import { PG_TRANSCRIPT_BLOCK_MAX } from './trial-writes.js';

interface ItemFields {
  suite: string;
  id: string;
  category: string;
  ability?: string;
  answer: string;
}

/** Rows a statement inserts (several a statement: a networked database pays a round trip per statement). */
const CHUNK = 200;

/** One batch's texts, held back until `write`. */
export class PgImportTexts {
  readonly #items = new Map<string, { item: ItemFields; body: string }>();
  readonly #blobs = new Map<string, string>();
  /** By trial row: a trial written twice in a batch keeps its last transcript. */
  readonly #transcripts = new Map<number, string>();

  item(hash: string, item: ItemFields, body: string): void {
    if (!this.#items.has(hash)) this.#items.set(hash, { item, body });
  }

  /** A trial row's packed transcript and the prompt blobs it names. */
  transcript(trialId: number, body: string, blobs: ReadonlyArray<[string, string]>): void {
    for (const [ref, text] of blobs) this.#blobs.set(ref, text);
    this.#transcripts.set(trialId, body);
  }

  /**
   * Write the items held back (before the batch's first trial: a trial row names its item's);
   * the items inserted (those the store held already are left as they are).
   */
  async writeItems(tx: SqlExecutor): Promise<number> {
    if (this.#items.size === 0) return 0;
    const items = await this.#freshItems(tx);
    this.#items.clear();
    return insertPgItems(
      tx,
      items,
      await pgTextPlaces(
        tx,
        items.map((i) => i.body),
        PG_ITEM_BLOCK_MAX,
      ),
      CHUNK,
    );
  }

  /** Write everything the batch held back; the items inserted. */
  async write(tx: SqlExecutor, codec: TextCodec): Promise<number> {
    const inserted = await this.writeItems(tx);
    await insertBlobs(tx, codec, [...this.#blobs]);
    const transcripts = [...this.#transcripts];
    const places = await pgTextPlaces(
      tx,
      transcripts.map(([, body]) => body),
      PG_TRANSCRIPT_BLOCK_MAX,
    );
    for (let i = 0; i < transcripts.length; i += CHUNK) {
      const part = transcripts.slice(i, i + CHUNK);
      await tx.run(
        `INSERT INTO transcripts (trial_id, packed, body, block, place) VALUES ${valuesList(part.length, 5, '(?, 1, ?, ?, ?)')}
         ON CONFLICT (trial_id) DO UPDATE SET body = excluded.body, packed = excluded.packed, block = excluded.block, place = excluded.place`,
        part.flatMap(([id], j) => [id, ...places[i + j]!]),
      );
    }
    return inserted;
  }

  /** The items the store does not hold yet: no block keeps a text no row names. */
  async #freshItems(tx: SqlExecutor): Promise<Array<{ hash: string; item: ItemFields; body: string }>> {
    const known = await knownItemHashes(tx, 'postgres', [...this.#items.keys()]);
    return [...this.#items].filter(([hash]) => !known.has(hash)).map(([hash, i]) => ({ hash, ...i }));
  }
}
