// Compact transcripts: what many trials share is stored once, content-addressed, as prompt
// blobs (blob-rows.ts), and a transcript row keeps only references and what differs.
//
// - Each message's text is cut into paragraphs ("\n\n"); each paragraph is a blob, so a
//   template's instructions are stored once for every item, and an item's story once for
//   every subject and replicate (and once for every later turn of a conversation).
// - Each call's message list becomes a blob of paragraph references (a prompt, stored once
//   for every subject and replicate that sent it); the call keeps its hash in place.
// - Large object fields of the protocol's detail (an MCQ's presented options, when long) are blobs too.
//
// The packed row (transcripts.packed = 1) is JSON with the same keys in the same order as the
// transcript: `messages` holds a hash (a string where the transcript has a list), a blobbed
// detail field holds null and its hash is in `blobs`. Unpacking gives back the same JSON text.
// Rows written before packing existed (packed = 0) hold the transcript as it was.
// SQLite keeps rows and blobs deflated against the store's dictionaries where that is shorter
// (text-codec.ts; long blobs deflated alone before schema 16); PostgreSQL's are text, in blocks of
// its own (pg-text-blocks.ts): readers take all forms.

// core's errors file, not its index: the index loads every record schema (zod), which `report` does without.
import { MindscopeError } from '../../core/errors.js';
import { isUtf8Safe } from '../../core/storable-text.js';
import { blobRef } from './blob-rows.js';
import { RecentMap } from './recent-map.js';
import type { TextCodec } from './text-codec.js';
import { deepFreeze, type Filler, listRefs, shapeFiller, shapeRefs } from './transcript-filling.js';
import { fitShape, type ShapeTree, shapeTree, splitShape } from './transcript-shapes.js';

/**
 * Detail fields whose JSON is at least this long are stored as blobs. A shorter one (an MCQ's
 * few short options) is kept in the row: deflated with the transcripts' dictionary it takes
 * fewer bytes than a blob's reference and row (schema 17; rows written before hold such fields
 * as blobs, and readers take both).
 */
const DETAIL_BLOB_MIN = 320;
/**
 * Whether a text holds a lone UTF-16 surrogate: a blob keeps its text as UTF-8 (SQLite's text, or
 * deflated), which gives it back as U+FFFD, so a message holding one stays whole in its list's
 * JSON, which escapes it. isWellFormed answers a text of Latin-1 characters, most prompts,
 * without reading it.
 */
const hasLoneSurrogate = (text: string): boolean => !isUtf8Safe(text);
/** The longest text whose hash is remembered. */
const HASH_CACHE_MAX_CHARS = 160;
/** Entries a bounded cache holds before it starts again empty. */
const CACHE_MAX = 10_000;

/** A Map that forgets everything when full: a run's working set stays, memory stays bounded. */
class BoundedMap<K, V> extends Map<K, V> {
  override set(key: K, value: V): this {
    if (this.size >= CACHE_MAX) this.clear();
    return super.set(key, value);
  }
}

interface PackedMessage {
  content: unknown;
  [k: string]: unknown;
}

/** A transcript packed for storage: the row's JSON and the blobs it references (hash, body). */
export interface PackedTranscript {
  body: string;
  blobs: Array<[string, string]>;
}

/** A short text's reference, and whether its blob is known stored (found so in `stored` once: a blob is never deleted). */
interface HashEntry {
  hash: string;
  stored: boolean;
}

/** Packs transcripts, remembering hashes it computed and blobs known stored. */
export class TranscriptPacker {
  /** Hashes of short texts, recently used (a template's paragraphs are looked up every trial). */
  readonly #hashOf = new RecentMap<string, HashEntry>();
  /** Blobs committed to the database, recently used (a blob is never deleted, so these need no new insert). */
  readonly #stored = new RecentMap<string, true>();
  /** Blobs read back, by hash. */
  readonly #read = new BoundedMap<string, string>();
  /** Shapes read back, as fillers. */
  readonly #shapes = new BoundedMap<string, Filler>();
  /** Message lists read back, their paragraphs joined, frozen (shared by the rows that sent them). */
  readonly #built = new BoundedMap<string, PackedMessage[]>();
  /** Detail fields read back from blobs, parsed and frozen. */
  readonly #detailValues = new BoundedMap<string, unknown>();

  /** The last transcript's shape and its reference (and whether its blob is known stored). */
  #lastShape: string | undefined;
  #lastShapeRef = '';
  #lastShapeStored = false;
  #lastTree: ShapeTree | undefined;

  /** `codec` reads rows kept compressed (without one, rows must be text). */
  constructor(private readonly codec?: TextCodec) {}

  /** A row's body as text. */
  #text(body: string | Uint8Array): string {
    if (typeof body === 'string') return body;
    if (!this.codec) throw new MindscopeError('a compressed transcript row needs the store to read it');
    return this.codec.decode(body);
  }

  /** A short text's entry (hash remembered); undefined for a long one. */
  #entry(text: string): HashEntry | undefined {
    // Remembered for short texts only (a template's paragraphs, a transcript's shape): looking
    // a long one up costs about what hashing it does.
    if (text.length > HASH_CACHE_MAX_CHARS) return undefined;
    let e = this.#hashOf.get(text);
    if (e === undefined) {
      e = { hash: blobRef(text), stored: false };
      this.#hashOf.set(text, e);
    }
    return e;
  }

  #hash(text: string): string {
    return this.#entry(text)?.hash ?? blobRef(text);
  }

  /** Note blobs as committed: later transcripts need not insert them again. */
  markStored(blobs: ReadonlyArray<[string, string]>): void {
    for (const [h] of blobs) this.#stored.set(h, true);
  }

  /** A blob's reference, the blob noted among `blobs` unless known stored. */
  #keep(blobs: Map<string, string>, text: string, h: string): string {
    if (!this.#stored.has(h)) blobs.set(h, text);
    return h;
  }

  /** A text's reference, its blob noted among `blobs` unless known stored (a short text's entry remembers that it is). */
  #add(blobs: Map<string, string>, text: string): string {
    const e = this.#entry(text);
    if (e === undefined) return this.#keep(blobs, text, blobRef(text));
    if (!e.stored) {
      if (this.#stored.has(e.hash)) e.stored = true;
      else blobs.set(e.hash, text);
    }
    return e.hash;
  }

  /** Pack a transcript; blobs already known stored are left out of `blobs`. */
  pack(transcript: { calls: unknown[]; detail?: unknown }): PackedTranscript {
    const blobs = new Map<string, string>();
    const add = (text: string): string => this.#add(blobs, text);
    const calls = transcript.calls.map((call) => {
      const c = call as { messages?: unknown };
      if (!Array.isArray(c.messages)) return call;
      const packed = (c.messages as PackedMessage[]).map((m) =>
        typeof m.content === 'string' && !hasLoneSurrogate(m.content) ? { ...m, content: m.content.split('\n\n').map(add) } : m,
      );
      return { ...c, messages: add(JSON.stringify(packed)) };
    });
    let detail = transcript.detail;
    let detailBlobs: Record<string, string> | undefined;
    if (detail !== null && typeof detail === 'object' && !Array.isArray(detail)) {
      const d = detail as Record<string, unknown>;
      for (const k of Object.keys(d)) {
        const v = d[k];
        if (v === null || typeof v !== 'object') continue;
        const text = JSON.stringify(v);
        if (text.length < DETAIL_BLOB_MIN) continue;
        if (!detailBlobs) {
          detailBlobs = {};
          detail = { ...d };
        }
        detailBlobs[k] = add(text);
        (detail as Record<string, unknown>)[k] = null;
      }
    }
    // What is left differs little from trial to trial but its keys: the keys (the shape) are a
    // blob, and the row holds the shape's hash and the values in order.
    const values: unknown[] = [''];
    const whole = { ...transcript, calls, detail, ...(detailBlobs ? { blobs: detailBlobs } : {}) };
    // A run's transcripts share a few shapes, most often the last one's: checked against it
    // without writing it again; another is written, and hashed when it is not the last one's.
    if (!this.#lastTree || !fitShape(whole, this.#lastTree, values)) {
      values.length = 1;
      const shape = splitShape(whole, values);
      if (shape !== this.#lastShape) {
        this.#lastShape = shape;
        this.#lastShapeRef = this.#hash(shape);
        this.#lastShapeStored = false;
        this.#lastTree = shapeTree(whole);
      }
    }
    if (!this.#lastShapeStored) {
      if (this.#stored.has(this.#lastShapeRef)) this.#lastShapeStored = true;
      else blobs.set(this.#lastShapeRef, this.#lastShape!);
    }
    values[0] = this.#lastShapeRef;
    return { body: JSON.stringify(values), blobs: [...blobs] };
  }

  /**
   * Unpack rows (packed or not) into transcript JSON text, reading the blobs they reference
   * with `load` (hashes in, rows out); a missing blob is an error naming it.
   */
  async unpack(
    rows: ReadonlyArray<{ body: string | Uint8Array; packed: number | boolean }>,
    load: (hashes: string[]) => Promise<Array<{ hash: string; body: string }>>,
  ): Promise<string[]> {
    const values = await this.unpackValues(rows, load);
    return rows.map((r, i) => (Number(r.packed) ? JSON.stringify(values[i]) : this.#text(r.body)));
  }

  /** unpack's transcripts as values (what JSON.parse of its text gives), for readers that would parse the text again. */
  async unpackValues(
    stored: ReadonlyArray<{ body: string | Uint8Array; packed: number | boolean }>,
    load: (hashes: string[]) => Promise<Array<{ hash: string; body: string }>>,
  ): Promise<unknown[]> {
    // Each step a function of its own between the reads (each compiled on its own, not as one
    // large async function): the shapes first; then each call's message list and the detail's
    // blobs; then paragraphs.
    const rows = stored.map((r) => ({ body: this.#text(r.body), packed: r.packed }));
    const rowValues = rows.map((r) => (Number(r.packed) ? (JSON.parse(r.body) as unknown[]) : undefined));
    const shapes = await this.#fetch(shapeRefs(rowValues), load);
    const parsed = this.#fill(rowValues, shapes);
    const first = listRefs(parsed);
    const level1 = await this.#fetch(first, load);
    const { lists, paragraphs, built } = this.#knownLists(first, level1);
    const level2 = await this.#fetch(paragraphs, load);
    this.#joinLists(lists, level2, built);
    return this.#finish(rows, parsed, built, level1);
  }

  /** Blobs by hash: those read before from memory, the others with `load`; a missing one is an error naming it. */
  async #fetch(
    hashes: readonly string[],
    load: (hashes: string[]) => Promise<Array<{ hash: string; body: string }>>,
  ): Promise<Map<string, string>> {
    const got = new Map<string, string>();
    const missing: string[] = [];
    for (const h of hashes) {
      if (got.has(h)) continue;
      const body = this.#read.get(h);
      if (body === undefined) missing.push(h);
      else got.set(h, body);
    }
    if (missing.length) {
      for (const b of await load([...new Set(missing)])) {
        got.set(b.hash, b.body);
        this.#read.set(b.hash, b.body);
      }
      for (const h of missing) if (!got.has(h)) throw new MindscopeError(`transcript blob ${h} is missing from the store's prompt blobs`);
    }
    return got;
  }

  /** Packed rows' values filled into their shapes (undefined for a row not packed). */
  #fill(rowValues: ReadonlyArray<unknown[] | undefined>, shapes: ReadonlyMap<string, string>): Array<Record<string, unknown> | undefined> {
    return rowValues.map((v) => {
      if (!v) return undefined;
      const h = v[0] as string;
      let fill = this.#shapes.get(h);
      if (fill === undefined) this.#shapes.set(h, (fill = shapeFiller(JSON.parse(shapes.get(h)!))));
      return fill(v) as Record<string, unknown>;
    });
  }

  /**
   * The message lists the rows name: those put together before (remembered), and the others
   * read (`level1`) with the paragraphs they name, to join.
   */
  #knownLists(
    first: readonly string[],
    level1: ReadonlyMap<string, string>,
  ): { lists: Array<[string, PackedMessage[]]>; paragraphs: string[]; built: Map<string, PackedMessage[]> } {
    const paragraphs: string[] = [];
    const lists: Array<[string, PackedMessage[]]> = [];
    const built = new Map<string, PackedMessage[]>();
    for (const h of new Set(first)) {
      const known = this.#built.get(h);
      if (known) {
        built.set(h, known);
        continue;
      }
      const v = JSON.parse(level1.get(h)!);
      if (!Array.isArray(v)) continue;
      lists.push([h, v as PackedMessage[]]);
      for (const m of v as PackedMessage[])
        if (Array.isArray(m.content) && typeof m.content[0] === 'string') paragraphs.push(...(m.content as string[]));
    }
    return { lists, paragraphs, built };
  }

  /**
   * Each message list put together once (its paragraphs joined) and remembered across pages
   * (prompts repeat across subjects and replicates). Rows that sent the same prompt share its
   * list, frozen (a reader cannot change another row's messages), so that readers can also
   * remember what they made of a list (its JSON text, its check) by identity.
   */
  #joinLists(
    lists: ReadonlyArray<[string, PackedMessage[]]>,
    level2: ReadonlyMap<string, string>,
    built: Map<string, PackedMessage[]>,
  ): void {
    for (const [h, list] of lists) {
      const joined = deepFreeze(
        list.map((m) =>
          Array.isArray(m.content) && typeof m.content[0] === 'string'
            ? { ...m, content: (m.content as string[]).map((p) => level2.get(p)!).join('\n\n') }
            : m,
        ),
      );
      built.set(h, joined);
      this.#built.set(h, joined);
    }
  }

  /** The rows' transcripts: packed ones with their message lists and detail blobs in place, the others parsed. */
  #finish(
    rows: ReadonlyArray<{ body: string }>,
    parsed: ReadonlyArray<Record<string, unknown> | undefined>,
    built: ReadonlyMap<string, PackedMessage[]>,
    level1: ReadonlyMap<string, string>,
  ): unknown[] {
    return rows.map((r, i) => {
      const t = parsed[i];
      if (!t) {
        try {
          return JSON.parse(r.body) as unknown;
        } catch (err) {
          throw new MindscopeError(`a stored transcript does not parse: ${(err as Error).message}`);
        }
      }
      for (const c of t.calls as Array<{ messages?: unknown }>) {
        if (typeof c.messages !== 'string') continue;
        c.messages = built.get(c.messages)!;
      }
      const blobs = t.blobs as Record<string, string> | undefined;
      if (!blobs) return t;
      const detail = t.detail as Record<string, unknown>;
      for (const k of Object.keys(blobs)) {
        const h = blobs[k]!;
        // Parsed once and shared by the rows that hold it (an item's options), frozen as message lists are.
        let v = this.#detailValues.get(h);
        if (v === undefined) this.#detailValues.set(h, (v = deepFreeze(JSON.parse(level1.get(h)!))));
        detail[k] = v;
      }
      // Without `blobs` (a new object: deleting a key would leave the transcript slow to read).
      const { blobs: _, ...rest } = t;
      return rest;
    });
  }
}
