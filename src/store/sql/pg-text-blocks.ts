// PostgreSQL keeps short texts written together in blocks (schema 19): a row of text_blocks holds
// a few dozen item bodies, prompt texts or transcripts as one JSON array of their texts, and each
// items, prompt_texts or transcripts row its block and place (its body null). PostgreSQL
// compresses only values of about 2 KB or more (TOAST): an item body (a generated story, about
// 1.2 KB), a prompt text or a packed transcript (a few hundred bytes) alone is kept as it is, a
// block of them compressed to a fifth or less, what the texts share kept once. SQL still reads a
// text (pgBlockText; the viewer's search and label filter a block at a time). Readers of many
// rows read the blocks once each (PgBlockCache). A text too long for a block, or texts too few
// or short to fill one PostgreSQL compresses, stay in their rows.

// core's errors file, not its index: the index loads every record schema (zod), which `report` does without.
import { MindscopeError } from '../../core/errors.js';
import type { SqlExecutor } from './driver.js';
import { blockGroups } from './text-codec.js';

/** A row's text in SQL (`alias` names the row): in the row, or its place in its block. */
export const pgBlockText = (alias: string): string =>
  `COALESCE(${alias}.body, (SELECT (b.body::json) ->> ${alias}.place::int FROM text_blocks b WHERE b.id = ${alias}.block))`;

/** pgBlockText of a column named `alias.body`. */
export const pgBlockTextOf = (column: string): string => pgBlockText(column.slice(0, column.lastIndexOf('.')));

/**
 * A row's text in SQL as a tagged value (Dialect.tagged): 't' and its text, or 'b' and its
 * block and place ("b12.3"), which PgBlockCache reads.
 */
export const pgTaggedBlockText = (alias: string): string =>
  `CASE WHEN ${alias}.body IS NOT NULL THEN 't' || ${alias}.body ELSE 'b' || ${alias}.block || '.' || ${alias}.place END`;

/**
 * A condition on a row's text (`alias` names the row; `condition` of a text expression): the
 * text in the row, or in its place in one of the blocks `blocks` selects, each of which is parsed
 * once (not once a row): those blocks read first (materialized), so that `condition` meets no
 * other block's texts. Parameters: the condition's, those of `blocks`, the condition's again.
 */
export const pgBlockTextWhere = (alias: string, blocks: string, condition: (text: string) => string): string =>
  `((${alias}.block IS NULL AND ${condition(`${alias}.body`)}) OR (${alias}.block, ${alias}.place) IN (
    WITH m AS MATERIALIZED (SELECT b.id, b.body FROM text_blocks b WHERE b.id IN (${blocks}))
    SELECT m.id, (e.n - 1)::smallint FROM m CROSS JOIN LATERAL json_array_elements_text(m.body::json) WITH ORDINALITY e(t, n)
    WHERE ${condition('e.t')}))`;

/** pgBlockTextWhere: the text LIKE a lowercase pattern (a row without one matches nothing). */
export const pgBlockTextLike = (alias: string, blocks: string): string =>
  pgBlockTextWhere(alias, blocks, (t) => `LOWER(COALESCE(${t}, '')) LIKE ? ESCAPE '\\'`);

/**
 * `value` of the texts of the rows of `table` whose ids `ids` selects, as a query of one column
 * v; each block parsed once (its texts materialized before they meet the rows). Parameters:
 * those of `ids`, three times.
 */
export const pgBlockTextValues = (table: string, ids: string, value: (text: string) => string): string => `
  WITH m AS MATERIALIZED (
    SELECT b.id, (e.n - 1)::smallint AS place, e.t FROM text_blocks b CROSS JOIN LATERAL json_array_elements_text(b.body::json) WITH ORDINALITY e(t, n)
    WHERE b.id IN (SELECT r.block FROM ${table} r WHERE r.id IN (${ids})))
  SELECT ${value('r.body')} AS v FROM ${table} r WHERE r.block IS NULL AND r.id IN (${ids})
  UNION ALL
  SELECT ${value('m.t')} FROM m WHERE (m.id, m.place) IN (SELECT r.block, r.place FROM ${table} r WHERE r.id IN (${ids}))`;

/** The shortest block written: PostgreSQL compresses a value only in a row of about 2 KB or more (TOAST_TUPLE_THRESHOLD). */
const PG_BLOCK_MIN_CHARS = 2048;

/** Where a text is kept: in its row, or its block and place (body null). */
export type PgTextPlace = [body: string | null, block: number | null, place: number | null];

/**
 * A text PostgreSQL's text type cannot keep as it is: one with a NUL (refused) or a lone UTF-16
 * surrogate (sent as UTF-8, it would come back as U+FFFD). A block keeps it, escaped in its JSON;
 * SQL cannot read it out of one (`->>` refuses such escapes, and with them the whole block), so
 * such texts (a story's, in prompt texts) are read by their block in JS (PgBlockCache).
 */
const ROW_CANNOT_KEEP = /\0|\p{Cs}/u;

/**
 * The texts' places, blocks of at most `maxCount` written first (inside the transaction that
 * writes their rows); texts too few or short to fill a block that PostgreSQL compresses stay in
 * their rows, unless a row cannot keep one (ROW_CANNOT_KEEP): its block is written all the same.
 */
export async function pgTextPlaces(tx: SqlExecutor, texts: readonly string[], maxCount: number): Promise<PgTextPlace[]> {
  const out: PgTextPlace[] = texts.map((t) => [t, null, null]);
  const unkept = (j: number) => ROW_CANNOT_KEEP.test(texts[j]!);
  if (texts.length < 2 && !texts.some((_, j) => unkept(j))) return out;
  const { blocks, alone } = blockGroups(
    texts.map((t) => t.length),
    maxCount,
  );
  for (const part of [...blocks, ...alone.filter(unkept).map((j) => [j])]) {
    const body = JSON.stringify(part.map((j) => texts[j]!));
    // Too short for PostgreSQL to compress: kept in their rows (a block would only add bytes).
    if (body.length < PG_BLOCK_MIN_CHARS && !part.some(unkept)) continue;
    const row = await tx.get<{ id: number }>('INSERT INTO text_blocks (body) VALUES (?) RETURNING id', [body]);
    part.forEach((j, k) => {
      out[j] = [null, Number(row!.id), k];
    });
  }
  return out;
}

/** Blocks a cache keeps (a reader of a run's rows reads them in about the order they were written). */
const CACHE_BLOCKS = 64;

/** Reads tagged texts (pgTaggedBlockText, or Dialect.tagged's forms), each block read and parsed once while remembered. */
export class PgBlockCache {
  readonly #blocks = new Map<number, string[]>();

  constructor(private readonly db: Pick<SqlExecutor, 'all'>) {}

  /** The texts of tagged values (null stays null), the blocks they name read first. */
  async texts(tagged: readonly unknown[]): Promise<Array<string | null>> {
    const needed = new Set<number>();
    for (const v of tagged) if (typeof v === 'string' && v.charCodeAt(0) === 0x62 /* b */) needed.add(Number(v.slice(1, v.indexOf('.'))));
    let missing = [...needed].filter((id) => !this.#blocks.has(id));
    if (missing.length) {
      // Full: forget every block but those these values name (read again with the rest).
      if (this.#blocks.size + missing.length > CACHE_BLOCKS) {
        this.#blocks.clear();
        missing = [...needed];
      }
      const ids = missing;
      const rows = await this.db.all<{ id: number; body: string }>(
        `SELECT id, body FROM text_blocks WHERE id IN (${ids.map(() => '?').join(', ')})`,
        ids,
      );
      for (const r of rows) this.#blocks.set(Number(r.id), JSON.parse(r.body) as string[]);
    }
    return tagged.map((v) => {
      if (v === null || v === undefined) return null;
      const s = v as string;
      if (s.charCodeAt(0) !== 0x62) return s.slice(1);
      const dot = s.indexOf('.');
      const text = this.#blocks.get(Number(s.slice(1, dot)))?.[Number(s.slice(dot + 1))];
      if (text === undefined) throw new MindscopeError(`text ${s.slice(1)} is missing from the store's text_blocks`);
      return text;
    });
  }
}
