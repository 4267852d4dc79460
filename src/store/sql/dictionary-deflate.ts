// Raw DEFLATE of short values against a preset dictionary, with the dictionary's match index
// built once. zlib (node:zlib) sets a dictionary up again for every value it deflates (its
// allocation, then every position of the dictionary hashed): for a row of a few hundred bytes
// that is most of the cost, and the store deflates several rows a trial. This encoder indexes
// the dictionary once and writes one block with DEFLATE's fixed Huffman codes (what zlib
// chooses itself for values this short), so that any inflater given the same dictionary
// (inflateRawSync with { dictionary }) reads it back; DictionaryInflater reads such values
// without setting the dictionary up again either.

import { DISTANCE_BASE, DISTANCE_EXTRA, LENGTH_BASE, LENGTH_EXTRA } from './deflate-tables.js';

/** Hash bits of the 3-byte match index. */
const HASH_BITS = 12;
/** Candidates tried for each position: enough for rows this short. */
const MAX_CHAIN = 24;
const MIN_MATCH = 3;
const MAX_MATCH = 258;
/** DEFLATE's largest distance. */
const MAX_DISTANCE = 32_768;

const hash3 = (b: Uint8Array, i: number): number =>
  (Math.imul((b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!, 0x9e3779b1) >>> (32 - HASH_BITS)) | 0;

/** The length code (index into LENGTH_BASE) of each match length 3..258. */
const LENGTH_CODE = new Uint8Array(MAX_MATCH + 1);
for (let c = 0; c < LENGTH_BASE.length; c++) {
  const end = c + 1 < LENGTH_BASE.length ? LENGTH_BASE[c + 1]! : MAX_MATCH + 1;
  for (let l = LENGTH_BASE[c]!; l < end; l++) LENGTH_CODE[l] = c;
}
LENGTH_CODE[MAX_MATCH] = 28;

const reverse = (code: number, bits: number): number => {
  let r = 0;
  for (let i = 0; i < bits; i++) r = (r << 1) | ((code >>> i) & 1);
  return r;
};

// Fixed Huffman codes of the literal/length alphabet, bit-reversed (DEFLATE sends a code's high bit first).
const LIT_CODE = new Uint16Array(288);
const LIT_BITS = new Uint8Array(288);
for (let s = 0; s < 288; s++) {
  const [code, bits] = s < 144 ? [0x30 + s, 8] : s < 256 ? [0x190 + s - 144, 9] : s < 280 ? [s - 256, 7] : [0xc0 + s - 280, 8];
  LIT_CODE[s] = reverse(code, bits);
  LIT_BITS[s] = bits;
}
const DIST_CODE = Array.from({ length: 30 }, (_, d) => reverse(d, 5));
/** The distance code (index into DISTANCE_BASE) of each distance 1..32768: a lookup, not a search a match. */
const DIST_CODE_OF = new Uint8Array(MAX_DISTANCE + 1);
for (let c = 0; c < DISTANCE_BASE.length; c++) {
  const end = c + 1 < DISTANCE_BASE.length ? DISTANCE_BASE[c + 1]! : MAX_DISTANCE + 1;
  for (let dist = DISTANCE_BASE[c]!; dist < end; dist++) DIST_CODE_OF[dist] = c;
}

/** Deflates values against one dictionary (its last 32 KiB at most), indexed once. */
export class DictionaryDeflater {
  readonly #d: number;
  /** The dictionary's chain heads, by hash: what `#head` holds again after each value. */
  readonly #dictHead: Int32Array;
  /**
   * The chain heads while a value is deflated: the dictionary's, then the value's positions as
   * they are indexed; each bucket a value changed is put back afterwards (`#touched`), so the
   * next value starts from the dictionary's heads without a copy of the whole table.
   */
  readonly #head: Int32Array;
  /** Hashes the current value wrote into `#head`, in order (to put back). */
  #touched = new Int32Array(0);
  /**
   * The dictionary and the value end to end (the dictionary copied once), and the chain of each
   * position in it: the dictionary's filled once, the value's written before they are read.
   */
  #window = new Uint8Array(0);
  /** The window as a Buffer, for text written into it in place. */
  #windowText = Buffer.alloc(0);
  #prev = new Int32Array(0);
  /** The output, kept between values and sized for the worst case before each value. */
  #out = new Uint8Array(0);
  readonly #dict: Uint8Array;

  constructor(dictionary: Uint8Array) {
    const dict = dictionary.subarray(Math.max(0, dictionary.length - MAX_DISTANCE));
    this.#dict = dict;
    this.#d = dict.length;
    this.#dictHead = new Int32Array(1 << HASH_BITS).fill(-1);
    this.#grow(256);
    const prev = this.#prev;
    for (let i = 0; i + MIN_MATCH <= dict.length; i++) {
      const h = hash3(dict, i);
      prev[i] = this.#dictHead[h]!;
      this.#dictHead[h] = i;
    }
    this.#head = this.#dictHead.slice();
  }

  /** Room for a value of `n` bytes after the dictionary (the dictionary's chains kept). */
  #grow(n: number): void {
    const d = this.#d;
    const size = d + n;
    const window = new Uint8Array(size);
    window.set(this.#dict);
    const prev = new Int32Array(size);
    if (this.#prev.length) prev.set(this.#prev.subarray(0, d));
    this.#window = window;
    this.#windowText = Buffer.from(window.buffer, window.byteOffset, window.byteLength);
    this.#prev = prev;
    this.#touched = new Int32Array(n);
  }

  /**
   * `input` as one raw DEFLATE block (fixed codes) that inflates, with the dictionary, back to
   * it; after `prefix` (a frame's head), when given, in the same buffer.
   */
  deflate(input: Uint8Array, prefix?: Uint8Array): Buffer {
    const n = input.length;
    this.#room(n);
    this.#window.set(input, this.#d);
    return this.#deflate(n, prefix);
  }

  /**
   * `text`'s UTF-8 bytes deflated as deflate() does (written into the window in place, without a
   * buffer of their own); undefined when that, with `prefix`, is no shorter than the bytes.
   */
  deflateText(text: string, prefix?: Uint8Array): Buffer | undefined {
    // At most three bytes a UTF-16 unit.
    this.#room(3 * text.length);
    const n = this.#windowText.write(text, this.#d, 'utf8');
    const out = this.#deflate(n, prefix);
    return out.length >= n ? undefined : out;
  }

  /** Room for a value of `n` bytes after the dictionary. */
  #room(n: number): void {
    if (this.#window.length < this.#d + n) this.#grow(Math.max(n, 2 * (this.#window.length - this.#d)));
  }

  /** The value of `n` bytes after the dictionary in the window, deflated. */
  #deflate(n: number, prefix: Uint8Array | undefined): Buffer {
    const d = this.#d;
    const all = this.#window;
    const end = d + n;
    const head = this.#head;
    const prev = this.#prev;
    const touched = this.#touched;
    let nTouched = 0;
    // At most 9 bits a literal and 31 a match of 3 or more bytes: under 11 bits a byte, plus the block's head and end.
    const room = (prefix?.length ?? 0) + Math.ceil((n * 11) / 8) + 8;
    if (this.#out.length < room) this.#out = new Uint8Array(Math.max(room, 2 * this.#out.length));
    const out = this.#out;
    let at = 0;
    if (prefix) for (let k = 0; k < prefix.length; k++) out[at++] = prefix[k]!;
    // Bits written low first, as DEFLATE packs them: the last block (1), fixed Huffman codes (01).
    let acc = 0b011;
    let bits = 3;
    const lastHashable = end - MIN_MATCH;
    let i = d;
    while (i < end) {
      let bestLen = 0;
      let bestDist = 0;
      let h = -1;
      if (i <= lastHashable) {
        const max = Math.min(end - i, MAX_MATCH);
        h = (Math.imul((all[i]! << 16) | (all[i + 1]! << 8) | all[i + 2]!, 0x9e3779b1) >>> (32 - HASH_BITS)) | 0;
        let cand = head[h]!;
        for (let chain = 0; cand >= 0 && chain < MAX_CHAIN && i - cand <= MAX_DISTANCE; chain++) {
          if (all[cand + bestLen] === all[i + bestLen]) {
            let len = 0;
            while (len < max && all[cand + len] === all[i + len]) len++;
            if (len > bestLen) {
              bestLen = len;
              bestDist = i - cand;
              if (len === max) break;
            }
          }
          cand = prev[cand]!;
        }
      }
      if (bestLen >= MIN_MATCH) {
        const lc = LENGTH_CODE[bestLen]!;
        acc |= LIT_CODE[257 + lc]! << bits;
        bits += LIT_BITS[257 + lc]!;
        const lx = LENGTH_EXTRA[lc]!;
        if (lx) {
          acc |= (bestLen - LENGTH_BASE[lc]!) << bits;
          bits += lx;
        }
        while (bits >= 8) {
          out[at++] = acc & 0xff;
          acc >>>= 8;
          bits -= 8;
        }
        const dc = DIST_CODE_OF[bestDist]!;
        acc |= DIST_CODE[dc]! << bits;
        bits += 5;
        const dx = DISTANCE_EXTRA[dc]!;
        if (dx) {
          acc |= (bestDist - DISTANCE_BASE[dc]!) << bits;
          bits += dx;
        }
        while (bits >= 8) {
          out[at++] = acc & 0xff;
          acc >>>= 8;
          bits -= 8;
        }
        // Every position of the match indexed (the first one's hash is known already).
        prev[i] = head[h]!;
        head[h] = i;
        touched[nTouched++] = h;
        const stop = i + bestLen;
        for (let k = i + 1; k < stop; k++) {
          if (k > lastHashable) break;
          const hk = (Math.imul((all[k]! << 16) | (all[k + 1]! << 8) | all[k + 2]!, 0x9e3779b1) >>> (32 - HASH_BITS)) | 0;
          prev[k] = head[hk]!;
          head[hk] = k;
          touched[nTouched++] = hk;
        }
        i = stop;
      } else {
        const b = all[i]!;
        acc |= LIT_CODE[b]! << bits;
        bits += LIT_BITS[b]!;
        while (bits >= 8) {
          out[at++] = acc & 0xff;
          acc >>>= 8;
          bits -= 8;
        }
        if (h >= 0) {
          prev[i] = head[h]!;
          head[h] = i;
          touched[nTouched++] = h;
        }
        i++;
      }
    }
    // The value's chain heads back to the dictionary's.
    const dictHead = this.#dictHead;
    for (let k = 0; k < nTouched; k++) {
      const t = touched[k]!;
      head[t] = dictHead[t]!;
    }
    acc |= LIT_CODE[256]! << bits;
    bits += LIT_BITS[256]!;
    while (bits > 0) {
      out[at++] = acc & 0xff;
      acc >>>= 8;
      bits -= 8;
    }
    // A copy from Node's pool of small buffers: cheaper than a typed array of its own (slice).
    const bytes = Buffer.allocUnsafe(at);
    for (let k = 0; k < at; k++) bytes[k] = out[k]!;
    return bytes;
  }
}

/** The fixed literal/length code of the next 9 bits (read low first): symbol << 4 | code length. */
const FIXED_LIT = new Int32Array(512);
for (let s = 0; s < 288; s++)
  for (let high = 0; high < 1 << (9 - LIT_BITS[s]!); high++) FIXED_LIT[LIT_CODE[s]! | (high << LIT_BITS[s]!)] = (s << 4) | LIT_BITS[s]!;
const FIXED_DIST = new Int32Array(32).fill(-1);
for (let d = 0; d < 30; d++) FIXED_DIST[DIST_CODE[d]!] = d;

/**
 * Inflates what DictionaryDeflater writes (one final block of fixed codes) against the same
 * dictionary, which sits once at the start of a buffer kept between values: zlib would copy it
 * into a new window for every value. Anything else (zlib's dynamic codes, several blocks) gives
 * undefined, for zlib to read.
 */
export class DictionaryInflater {
  readonly #d: number;
  #window: Uint8Array;

  constructor(dictionary: Uint8Array) {
    const dict = dictionary.subarray(Math.max(0, dictionary.length - MAX_DISTANCE));
    this.#d = dict.length;
    this.#window = new Uint8Array(this.#d + 1024);
    this.#window.set(dict);
  }

  inflate(data: Uint8Array): Buffer | undefined {
    const end = this.#inflate(data);
    return end === undefined ? undefined : Buffer.from(this.#window.subarray(this.#d, end));
  }

  /** inflate's value as UTF-8 text, decoded from the window in place (no copy of the bytes). */
  inflateText(data: Uint8Array): string | undefined {
    const end = this.#inflate(data);
    if (end === undefined) return undefined;
    const w = this.#window;
    return Buffer.from(w.buffer, w.byteOffset, w.byteLength).toString('utf8', this.#d, end);
  }

  /**
   * Inflate into the window after the dictionary; the end of the value there, or undefined. The
   * bit reader is inline, its state in locals (closures over them would be a context object and
   * closures made a value, and each value's new closures would deoptimise the code compiled for
   * the last): before k bits are used, bytes are read in while fewer are held and the data has
   * more, and a value that has fewer than k left is not one of ours.
   */
  #inflate(data: Uint8Array): number | undefined {
    const size = data.length;
    let acc = 0;
    let n = 0;
    let at = 0;
    while (n < 3 && at < size) {
      acc |= data[at++]! << n;
      n += 8;
    }
    // A final block (1) of fixed codes (01).
    if (n < 3 || (acc & 7) !== 0b011) return undefined;
    acc >>>= 3;
    n -= 3;
    const d = this.#d;
    let out = this.#window;
    let o = d;
    for (;;) {
      // The last code may end within the last byte: fewer than 9 bits left is fine if they decode.
      while (n < 9 && at < size) {
        acc |= data[at++]! << n;
        n += 8;
      }
      const entry = FIXED_LIT[acc & 511]!;
      const bits = entry & 15;
      if (n < bits) return undefined;
      acc >>>= bits;
      n -= bits;
      const sym = entry >> 4;
      if (sym === 256) break;
      if (sym < 256) {
        if (o === out.length) out = this.#grow(o);
        out[o++] = sym;
        continue;
      }
      const lc = sym - 257;
      if (lc >= 29) return undefined;
      const lengthBits = LENGTH_EXTRA[lc]!;
      while (n < lengthBits && at < size) {
        acc |= data[at++]! << n;
        n += 8;
      }
      if (n < lengthBits) return undefined;
      const len = LENGTH_BASE[lc]! + (acc & ((1 << lengthBits) - 1));
      acc >>>= lengthBits;
      n -= lengthBits;
      while (n < 5 && at < size) {
        acc |= data[at++]! << n;
        n += 8;
      }
      if (n < 5) return undefined;
      const dc = FIXED_DIST[acc & 31]!;
      acc >>>= 5;
      n -= 5;
      if (dc < 0) return undefined;
      const distanceBits = DISTANCE_EXTRA[dc]!;
      while (n < distanceBits && at < size) {
        acc |= data[at++]! << n;
        n += 8;
      }
      if (n < distanceBits) return undefined;
      const dist = DISTANCE_BASE[dc]! + (acc & ((1 << distanceBits) - 1));
      acc >>>= distanceBits;
      n -= distanceBits;
      if (dist > o) return undefined;
      while (o + len > out.length) out = this.#grow(o);
      for (let k = 0; k < len; k++, o++) out[o] = out[o - dist]!;
    }
    return o;
  }

  /** A larger buffer, the dictionary and the value so far kept. */
  #grow(used: number): Uint8Array {
    const bigger = new Uint8Array(this.#window.length * 2);
    bigger.set(this.#window.subarray(0, used));
    this.#window = bigger;
    return bigger;
  }
}
