// Where prompt blobs (transcript-packing.ts) are kept, and how a packed transcript names one.
//
// A blob is named by its content: the first 63 bits of its SHA-256, written in a transcript as
// 11 base64url characters and kept as the integer key of prompt_texts (schema 17): the table is
// its own index, so no second copy of every key. Blobs written before schema 17 stay in
// prompt_blobs, keyed by a 16-character (22 before schema 12) base64url hash, and transcripts
// written then name them so: a reference's length says which table holds it. Two texts whose
// keys agree in all 63 bits are refused when the second is stored (the first is kept as it is),
// never confused.

// core's errors file, not its index: the index loads every record schema (zod), which `report` does without.
import { MindscopeError } from '../../core/errors.js';
import { sha256 } from '../../core/hash.js';
import type { SqlDriver, SqlExecutor } from './driver.js';
import { PgBlockCache, pgTaggedBlockText, pgTextPlaces } from './pg-text-blocks.js';
import { blockGroups, type TextCodec } from './text-codec.js';

/** Characters of a reference to a prompt_texts row (8 bytes in base64url). */
export const REF_CHARS = 11;

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** A base64url character's 6 bits, by character code. */
const SEXTET = new Uint8Array(128);
for (let i = 0; i < 64; i++) SEXTET[BASE64URL.charCodeAt(i)] = i;

/**
 * A blob's reference: the first 63 bits of its text's SHA-256, as 8 bytes in base64url. Taken
 * from the digest's own base64url text (no buffers): its first 10 characters are the first 60
 * bits (the very first bit cleared), the 11th the next 4 and two zero bits.
 */
export function blobRef(text: string): string {
  const digest = sha256(text, 'base64url');
  return BASE64URL[SEXTET[digest.charCodeAt(0)]! & 0x1f]! + digest.slice(1, 10) + BASE64URL[SEXTET[digest.charCodeAt(10)]! & 0x3c]!;
}

/** A prompt_texts reference's key as decimal text (either backend reads it as its 64-bit integer). */
export const refKey = (ref: string): string => Buffer.from(ref, 'base64url').readBigUInt64BE(0).toString();

/** A key read back (decimal text) as its reference. */
export function keyRef(key: string): string {
  const b = Buffer.alloc(8);
  b.writeBigUInt64BE(BigInt(key));
  return b.toString('base64url');
}

const placeholders = (n: number, each: string): string => Array(n).fill(each).join(', ');

/**
 * Blobs written together (SQLite) are kept in blocks of this many, each a row of
 * transcript_blocks (text-codec.ts, quotedBlockOf), each prompt_texts row holding its place in
 * one: an item's prompts for each subject and replicate differ in little. A reader of one blob
 * inflates its block (remembered by the codec for the next).
 */
const BLOB_BLOCK_MAX = 256;

/**
 * Prompt texts a PostgreSQL block holds at most (pg-text-blocks.ts): 64 of a few hundred bytes
 * compress to about a third of what 16 do; a reader of many reads each block once.
 */
const PG_BLOB_BLOCK_MAX = 64;

/** Bodies as the database keeps them: in blocks where the codec keeps blocks (a block row written first), else each encoded alone. */
async function storedBodies(tx: SqlExecutor, codec: TextCodec, part: ReadonlyArray<{ body: string }>): Promise<Array<string | Buffer>> {
  if (!codec.blocksTranscripts || part.length < 2) return part.map((b) => codec.encode('blob', b.body));
  const bodies: Array<string | Buffer> = [];
  const { blocks, alone } = blockGroups(
    part.map((b) => b.body.length),
    BLOB_BLOCK_MAX,
  );
  for (const j of alone) bodies[j] = codec.encode('blob', part[j]!.body);
  for (const chunk of blocks) {
    const row = await tx.get<{ id: number }>('INSERT INTO transcript_blocks (body) VALUES (?) RETURNING id', [
      codec.quotedBlockOf(
        chunk.map((j) => part[j]!.body),
        'blob',
      ),
    ]);
    chunk.forEach((j, k) => {
      bodies[j] = codec.quotedMember(Number(row!.id), k);
    });
  }
  return bodies;
}

/**
 * The bodies of prompt_texts rows (named p) by key, as `codec` reads them: PostgreSQL's read
 * from their blocks in JS, not by SQL (a block may keep a text SQL cannot read: pg-text-blocks.ts).
 */
async function readBodies(db: Pick<SqlExecutor, 'all'>, codec: TextCodec, keys: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.all<{ key: string; body: string | Uint8Array }>(
    `SELECT CAST(id AS TEXT) AS key, ${codec.compress ? 'p.body' : pgTaggedBlockText('p')} AS body FROM prompt_texts p WHERE id IN (${placeholders(keys.length, '?')})`,
    keys,
  );
  const bodies = codec.compress ? rows.map((r) => r.body) : await new PgBlockCache(db).texts(rows.map((r) => r.body));
  return new Map(rows.map((r, j) => [String(r.key), codec.decode(bodies[j]!)]));
}

/**
 * Store blobs in a transaction, in one order: concurrent transactions inserting the same blobs
 * then wait for each other instead of deadlocking. Bodies as `codec` keeps them. A blob whose key
 * is held by another text stops the transaction with an error naming it.
 */
export async function insertBlobs(tx: SqlExecutor, codec: TextCodec, unordered: ReadonlyArray<[string, string]>): Promise<void> {
  // Any one order for every process does: the references' (a key's reference is unique to it).
  const blobs = [...unordered]
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([ref, body]) => ({ key: refKey(ref), ref, body }));
  // Two parameters a blob: stay far below either backend's limit.
  for (let i = 0; i < blobs.length; i += 500) {
    const part = blobs.slice(i, i + 500);
    const inserted = codec.compress
      ? await tx.all<{ key: string }>(
          `INSERT INTO prompt_texts (id, body) VALUES ${placeholders(part.length, '(?, ?)')} ON CONFLICT (id) DO NOTHING
           RETURNING CAST(id AS TEXT) AS key`,
          (await storedBodies(tx, codec, part)).flatMap((body, j) => [part[j]!.key, body]),
        )
      : // PostgreSQL: each text in its row, or its place in a block (pg-text-blocks.ts).
        await tx.all<{ key: string }>(
          `INSERT INTO prompt_texts (id, body, block, place) VALUES ${placeholders(part.length, '(?, ?, ?, ?)')} ON CONFLICT (id) DO NOTHING
           RETURNING CAST(id AS TEXT) AS key`,
          (
            await pgTextPlaces(
              tx,
              part.map((b) => b.body),
              PG_BLOB_BLOCK_MAX,
            )
          ).flatMap((place, j) => [part[j]!.key, ...place]),
        );
    if (inserted.length === part.length) continue;
    // Stored before (another process, or a blob this one no longer remembers): the same text, or a collision.
    const fresh = new Set(inserted.map((r) => String(r.key)));
    const old = part.filter((b) => !fresh.has(b.key));
    const stored = await readBodies(
      tx,
      codec,
      old.map((b) => b.key),
    );
    for (const b of old) {
      const body = stored.get(b.key);
      if (body !== undefined && body !== b.body)
        throw new MindscopeError(`prompt blob ${b.ref}: another text in prompt_texts has the same key; this one cannot be stored`);
    }
  }
}

/** Reads blobs by reference from a database (in any form its codec reads), a bounded number of keys per statement. */
export function blobLoader(db: SqlDriver): (refs: string[]) => Promise<Array<{ hash: string; body: string }>> {
  return async (refs) => {
    const out: Array<{ hash: string; body: string }> = [];
    const current = refs.filter((r) => r.length === REF_CHARS);
    const before = refs.filter((r) => r.length !== REF_CHARS);
    for (let i = 0; i < current.length; i += 500) {
      for (const [key, body] of await readBodies(db, db.codec, current.slice(i, i + 500).map(refKey)))
        out.push({ hash: keyRef(key), body });
    }
    for (let i = 0; i < before.length; i += 500) {
      const part = before.slice(i, i + 500);
      const rows = await db.all<{ hash: string; body: string | Uint8Array }>(
        `SELECT hash, body FROM prompt_blobs WHERE hash IN (${placeholders(part.length, '?')})`,
        part,
      );
      for (const r of rows) out.push({ hash: r.hash, body: db.codec.decode(r.body) });
    }
    return out;
  };
}
