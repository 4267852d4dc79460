// Text that SQLite keeps deflated against a dictionary trained on the store's own rows (schema
// 16 on). A transcript, a score's detail or a cached reply is short and much like the last one:
// deflated alone it barely shrinks, deflated with a dictionary of earlier rows of its kind it
// keeps little but what differs (a fifth to a tenth of its text). Each kind (transcripts,
// scores, cached replies, prompt blobs, item bodies) has its own dictionary, trained from the
// first rows a process writes while the store has none, and stored (deflated) in `dictionaries`
// before any row uses it; later processes take the newest of each kind.
//
// A stored value is one of:
// - text: as written (rows written before, PostgreSQL's, and values that did not shrink);
// - a BLOB framed [FRAME_TAG, varint dictionary id, raw DEFLATE with that dictionary];
// - a BLOB [BLOCK_MEMBER_TAG, varint block id, varint index]: a transcript written in a block
//   with others (schema 17, blockOf), the block a row of transcript_blocks in one of the forms
//   here; [BLOCK_ITEM_TAG, ...] likewise, an item body; [BLOCK_QUOTED_TAG, ...] likewise, a
//   prompt blob kept in its block as its JSON string;
// - any other BLOB: raw DEFLATE with no dictionary (item bodies and prompt blobs before schema
//   16). No tag can start one: their block type bits are 11, which DEFLATE reserves.
// decode() reads them all; SQL reads them through the function TEXT_SQL_FUNCTION.

import { deflateRawSync, inflateRawSync } from 'node:zlib';
// core's errors file, not its index: the index loads every record schema (zod), which `report` does without.
import { MindscopeError } from '../../core/errors.js';
import { BlockInflater } from './block-inflate.js';
import { DictionaryDeflater, DictionaryInflater } from './dictionary-deflate.js';

/** The statements the codec runs (a driver or a transaction; declared here, as driver.ts names the codec). */
interface Statements {
  all<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
}
type Transactions = { transaction<T>(fn: (tx: Statements) => Promise<T>): Promise<T> };

/** What a value is: each kind has its own dictionary. */
export type TextKind = 'transcript' | 'score' | 'cache' | 'blob' | 'item';

/** The SQLite function that gives a stored value's text (any of the three forms). */
export const TEXT_SQL_FUNCTION = 'mindscope_text';

/**
 * Bytes of a kind's dictionary, and of the first rows it is trained from: a few KiB for the
 * small rows written with every trial (past that they gain a byte or two), DEFLATE's whole
 * window (32 KiB) for prompt blobs and item bodies, stories whose names, places and objects a
 * larger sample covers better (deflated once each; the indexed encoder builds its match index of
 * a dictionary once, so its size costs nothing a value).
 */
const DICTIONARY_BYTES: Record<TextKind, number> = {
  transcript: 4096,
  score: 2048,
  cache: 2048,
  blob: 32_768,
  item: 32_768,
};

/** zlib's options: DEFLATE's window as small as the dictionary (less to set up a value), and a small hash table. */
const deflateOptions = (dict: Buffer) => ({
  dictionary: dict,
  windowBits: Math.max(9, Math.ceil(Math.log2(Math.max(dict.length, 1)))),
  memLevel: 5,
});

/** Score details repeat (a protocol's few outcomes): the last ones encoded are remembered, by text. */
const MEMO_MAX = 256;

/** Without a dictionary, a prompt blob at least this long is deflated alone (as before schema 16). */
const PLAIN_DEFLATE_MIN_CHARS = 200;

const FRAME_TAG = 0x06;
/** A transcript kept in a block of transcripts: [BLOCK_MEMBER_TAG, varint block id, varint index]. */
const BLOCK_MEMBER_TAG = 0x07;
/**
 * A text kept in a block as its JSON string, one a line (a prompt's text may hold line breaks):
 * [BLOCK_QUOTED_TAG, varint block id, varint index]. Its block type bits are 11 as well.
 */
const BLOCK_QUOTED_TAG = 0x0e;
/** An item body kept in a block of item bodies: [BLOCK_ITEM_TAG, varint block id, varint index]. Block type bits 11. */
const BLOCK_ITEM_TAG = 0x0f;
/**
 * The block last read of each form (transcripts, item bodies, prompt texts), remembered: a run's
 * trials are read in the order they were written, block by block, and a reader of a trial reads
 * its item and prompts between its transcripts. One block a form and no more: a remembered
 * block's texts outlive the young generation's collections while it is kept, and a pass that kept
 * more carried its transcripts into the old generation (its peak memory grew with the trials read).
 */
type BlockForm = 0 | 1 | 2;

/** The first byte of a framed value. */
const isFramed = (b: Uint8Array): boolean => b.length > 0 && b[0] === FRAME_TAG;

/** A dictionary id as a varint (7 bits a byte, low first). */
function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}

/** Bytes of a varint of n. */
function varintBytes(n: number): number {
  let bytes = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 128);
    bytes++;
  }
  return bytes;
}

/** Write n as a varint at `at`; returns where the bytes after it start. */
function writeVarint(out: Buffer, n: number, at: number): number {
  while (n >= 0x80) {
    out[at++] = (n & 0x7f) | 0x80;
    n = Math.floor(n / 128);
  }
  out[at++] = n;
  return at;
}

/** A row's value for a text's place in a block: [tag, varint block id, varint index] (varint's bytes, written in place). */
function placeInBlock(tag: number, id: number, index: number): Buffer {
  const out = Buffer.allocUnsafe(1 + varintBytes(id) + varintBytes(index));
  out[0] = tag;
  writeVarint(out, index, writeVarint(out, id, 1));
  return out;
}

/** The varint at `at` and where the bytes after it start. */
function readVarint(b: Uint8Array, from: number): { id: number; at: number } {
  let id = 0;
  let scale = 1;
  let at = from;
  for (;;) {
    const byte = b[at++];
    if (byte === undefined) throw new MindscopeError('a stored compressed value is cut short');
    id += (byte & 0x7f) * scale;
    if (byte < 0x80) return { id, at };
    scale *= 128;
  }
}

/** A framed value's dictionary id and where its DEFLATE data starts. */
const readFrame = (b: Uint8Array): { id: number; at: number } => readVarint(b, 1);

interface Trained {
  id: number;
  dict: Buffer;
  options: ReturnType<typeof deflateOptions>;
  /** The dictionary indexed once. */
  deflater?: DictionaryDeflater;
  /** The frame's head of values deflated against it: FRAME_TAG and the dictionary's id. */
  head?: Uint8Array;
}

/** Characters of text a block holds at most (reading one of its texts inflates them all), and of a text kept in one. */
const BLOCK_MAX_CHARS = 256 * 1024;
const BLOCK_TEXT_MAX_CHARS = 64 * 1024;

/**
 * Texts (by their lengths) in blocks of at most `maxCount` and BLOCK_MAX_CHARS, in order: the
 * indices of each block of two or more, and those of texts kept alone (a long one, or one left over).
 */
export function blockGroups(lengths: readonly number[], maxCount: number): { blocks: number[][]; alone: number[] } {
  const blocks: number[][] = [];
  const alone: number[] = [];
  let open: number[] = [];
  let chars = 0;
  const close = () => {
    if (open.length >= 2) blocks.push(open);
    else alone.push(...open);
    open = [];
    chars = 0;
  };
  lengths.forEach((n, i) => {
    if (n > BLOCK_TEXT_MAX_CHARS) {
      alone.push(i);
      return;
    }
    if (open.length >= maxCount || chars + n > BLOCK_MAX_CHARS) close();
    open.push(i);
    chars += n;
  });
  close();
  return { blocks, alone };
}

/**
 * Encodes and decodes a store's values. `compress` false (PostgreSQL, which compresses large
 * values itself): values stay text. `loadSync` reads a dictionary another connection or process
 * wrote (by id) when a value needs one this codec has not seen.
 */
export class TextCodec {
  readonly #dicts = new Map<number, Buffer>();
  readonly #inflaters = new Map<number, DictionaryInflater>();
  readonly #active = new Map<TextKind, Trained>();
  readonly #samples = new Map<TextKind, { texts: string[]; chars: number }>();
  readonly #scores = new Map<string, string | Buffer>();
  #loaded: Promise<void> | undefined;
  #training: Promise<void> | undefined;

  readonly #lastBlock: Array<{ id: number; texts: string[] } | undefined> = [undefined, undefined, undefined];
  readonly #blockInflater = new BlockInflater();

  /**
   * `loadBlockSync` reads a block of transcripts (by id) for a value that is one of them; without
   * it, transcripts are not written in blocks.
   */
  constructor(
    readonly compress: boolean,
    private readonly loadSync?: (id: number) => Uint8Array | undefined,
    private readonly loadBlockSync?: (id: number) => Uint8Array | string | undefined,
  ) {}

  /** Whether transcripts written together are kept in blocks (blockOf, member). */
  get blocksTranscripts(): boolean {
    return this.compress && this.loadBlockSync !== undefined;
  }

  /**
   * Transcripts written together as one block: their JSON texts (which hold no line break) one a
   * line, deflated with the transcripts' dictionary and DEFLATE's whole window, so that what
   * repeats from one trial to the next (an item's other subjects and replicates) is kept once.
   * Each transcript row then holds its place in the block (member). Item bodies written together
   * are kept the same way (kind 'item', with the items' dictionary): the stories of a suite share
   * most of their words.
   */
  blockOf(texts: readonly string[], kind: 'transcript' | 'item' = 'transcript'): Buffer {
    for (const t of texts) if (t.includes('\n')) throw new MindscopeError(`a block of ${kind}s holds one-line texts only`);
    if (this.#gathering(kind)) for (const t of texts) this.#sample(kind, t);
    return this.#deflateBlock(texts, kind);
  }

  /** One-line texts joined, deflated with the kind's dictionary (framed) or alone. */
  #deflateBlock(texts: readonly string[], kind: TextKind): Buffer {
    const joined = texts.join('\n');
    const t = this.#active.get(kind);
    if (!t) return deflateRawSync(joined);
    return Buffer.concat([Uint8Array.from([FRAME_TAG, ...varint(t.id)]), deflateRawSync(joined, { dictionary: t.dict })]);
  }

  /** Texts of a kind that may hold line breaks as one block, each its JSON string a line (a row's value: quotedMember). */
  quotedBlockOf(texts: readonly string[], kind: 'blob'): Buffer {
    if (this.#gathering(kind)) for (const t of texts) this.#sample(kind, t);
    return this.#deflateBlock(
      texts.map((t) => JSON.stringify(t)),
      kind,
    );
  }

  /** A row's value for the `index`th text of a block made by quotedBlockOf. */
  quotedMember(id: number, index: number): Buffer {
    return placeInBlock(BLOCK_QUOTED_TAG, id, index);
  }

  /** A transcript row's value for the `index`th text of block `id`. */
  member(id: number, index: number): Buffer {
    return placeInBlock(BLOCK_MEMBER_TAG, id, index);
  }

  /** An item row's body for the `index`th text of block `id` (a block made by blockOf with kind 'item'). */
  itemMember(id: number, index: number): Buffer {
    return placeInBlock(BLOCK_ITEM_TAG, id, index);
  }

  /** The `index`th text of block `id`. */
  #memberText(stored: Uint8Array, form: BlockForm): string {
    const { id, at } = readVarint(stored, 1);
    const { id: index } = readVarint(stored, at);
    let last = this.#lastBlock[form];
    if (last?.id !== id) {
      const block = this.loadBlockSync?.(id);
      if (block === undefined) throw new MindscopeError(`block ${id} is missing from the store's transcript_blocks`);
      last = { id, texts: this.decode(block).split('\n') };
      this.#lastBlock[form] = last;
    }
    const text = last.texts[index];
    if (text === undefined) throw new MindscopeError(`block ${id} of transcript_blocks holds no text ${index}`);
    return text;
  }

  /** Take the store's dictionaries (the newest of each kind is used for writing); once. */
  ready(db: Statements): Promise<void> {
    if (!this.compress) return Promise.resolve();
    this.#loaded ??= (async () => {
      const rows = await db.all<{ id: number; kind: TextKind; body: Uint8Array }>('SELECT id, kind, body FROM dictionaries ORDER BY id');
      for (const r of rows) {
        const dict = inflateRawSync(r.body);
        this.#dicts.set(Number(r.id), dict);
        this.#active.set(r.kind, { id: Number(r.id), dict, options: deflateOptions(dict) });
        this.#samples.delete(r.kind);
      }
    })();
    return this.#loaded;
  }

  /** Whether a kind still gathers the rows its dictionary is to be trained from. */
  #gathering(kind: TextKind): boolean {
    return this.compress && this.#loaded !== undefined && !this.#active.has(kind);
  }

  /** Note text of a kind that has no dictionary yet, as a sample to train one from. */
  #sample(kind: TextKind, text: string): void {
    let s = this.#samples.get(kind);
    if (!s) this.#samples.set(kind, (s = { texts: [], chars: 0 }));
    if (s.chars >= DICTIONARY_BYTES[kind]) return;
    s.texts.push(text);
    s.chars += text.length;
  }

  /** Note texts of a kind as samples (a batch of items, before they are encoded). */
  sample(kind: TextKind, texts: Iterable<string>): void {
    if (!this.#gathering(kind)) return;
    for (const t of texts) this.#sample(kind, t);
  }

  /**
   * Store a dictionary for each kind whose samples fill one, in its own transaction (committed
   * before any row uses it). The dictionary is the samples end to end, the latest last (DEFLATE
   * finds nearer matches cheaper), cut to its size.
   */
  async train(db: Transactions): Promise<void> {
    // One training at a time (the group commit's and putItems' may overlap): a kind is trained once.
    while (this.#training) await this.#training.catch(() => {});
    const ready = [...this.#samples].filter(([kind, s]) => s.chars >= DICTIONARY_BYTES[kind] && !this.#active.has(kind));
    if (!ready.length) return;
    this.#training = this.#store(db, ready);
    try {
      await this.#training;
    } finally {
      this.#training = undefined;
    }
  }

  async #store(db: Transactions, ready: Array<[TextKind, { texts: string[]; chars: number }]>): Promise<void> {
    const made = await db.transaction(async (tx) => {
      const out: Array<[TextKind, Trained]> = [];
      for (const [kind, s] of ready) {
        const all = Buffer.from(s.texts.join(''), 'utf8');
        const dict = all.subarray(Math.max(0, all.length - DICTIONARY_BYTES[kind]));
        const row = await tx.get<{ id: number }>('INSERT INTO dictionaries (kind, body) VALUES (?, ?) RETURNING id', [
          kind,
          deflateRawSync(dict),
        ]);
        const copy = Buffer.from(dict);
        out.push([kind, { id: Number(row!.id), dict: copy, options: deflateOptions(copy) }]);
      }
      return out;
    });
    for (const [kind, t] of made) {
      this.#dicts.set(t.id, t.dict);
      this.#active.set(kind, t);
      this.#samples.delete(kind);
    }
  }

  /** A value as the database is to keep it: framed with the kind's dictionary when that is shorter, else as before schema 16. */
  encode(kind: TextKind, text: string): string | Buffer {
    if (!this.compress) return text;
    const t = this.#active.get(kind);
    if (!t) {
      if (this.#gathering(kind)) this.#sample(kind, text);
      return this.#plain(kind, text);
    }
    if (kind !== 'score') return this.#framedDeflate(t, text);
    let stored = this.#scores.get(text);
    if (stored === undefined) {
      stored = this.#framedDeflate(t, text);
      if (this.#scores.size >= MEMO_MAX) this.#scores.clear();
      this.#scores.set(text, stored);
    }
    return stored;
  }

  /**
   * A value deflated against the kind's dictionary by the indexed encoder (its match index built
   * once a dictionary), framed (the frame's head written with it: one buffer a value); the text
   * itself when that is no shorter. Item bodies too: zlib's dynamic codes made them about 7%
   * smaller, but zlib sets the dictionary up again for each body, more than twice the CPU an item.
   */
  #framedDeflate(t: Trained, text: string): string | Buffer {
    t.deflater ??= new DictionaryDeflater(t.dict);
    t.head ??= Uint8Array.from([FRAME_TAG, ...varint(t.id)]);
    return t.deflater.deflateText(text, t.head) ?? text;
  }

  /** The kind's dictionary for writing and DEFLATE's options with it, if it has one. */
  dictionaryOf(kind: TextKind): Trained | undefined {
    return this.#active.get(kind);
  }

  /** Without a dictionary, as before schema 16: item bodies deflated alone, prompt blobs when long and that is shorter, the rest text. */
  #plain(kind: TextKind, text: string): string | Buffer {
    if (kind === 'item') return deflateRawSync(text);
    if (kind !== 'blob' || text.length < PLAIN_DEFLATE_MIN_CHARS) return text;
    const deflated = deflateRawSync(text);
    return deflated.length < Buffer.byteLength(text) ? deflated : text;
  }

  /** A stored value's text, in any of its forms. */
  decode(stored: string | Uint8Array): string {
    if (typeof stored === 'string') return stored;
    if (stored.length > 0 && stored[0] === BLOCK_MEMBER_TAG) return this.#memberText(stored, 0);
    if (stored.length > 0 && stored[0] === BLOCK_ITEM_TAG) return this.#memberText(stored, 1);
    if (stored.length > 0 && stored[0] === BLOCK_QUOTED_TAG) return JSON.parse(this.#memberText(stored, 2)) as string;
    if (!isFramed(stored)) return inflateRawSync(stored).toString('utf8');
    const { id, at } = readFrame(stored);
    const dict = this.#dictionary(id);
    let inflater = this.#inflaters.get(id);
    if (!inflater) this.#inflaters.set(id, (inflater = new DictionaryInflater(dict)));
    const data = stored.subarray(at);
    // The indexed encoder's values read here; zlib's (item bodies written before, blocks) by BlockInflater.
    return inflater.inflateText(data) ?? this.#blockInflater.inflateText(data, dict);
  }

  #dictionary(id: number): Buffer {
    let dict = this.#dicts.get(id);
    if (dict === undefined) {
      const stored = this.loadSync?.(id);
      if (stored === undefined) throw new MindscopeError(`compression dictionary ${id} is missing from the store's dictionaries`);
      dict = inflateRawSync(stored);
      this.#dicts.set(id, dict);
    }
    return dict;
  }
}
