// DEFLATE (RFC 1951) decoded in place: raw data deflated against a preset dictionary (a block of
// texts: text-codec.ts) inflated into one window kept from value to value, and read out as text.
// zlib's inflateRawSync sets up a stream for every value and leaves its output in buffers of
// their own, which the young generation's collections do not give back (only a full collection
// does): a pass that inflates a block every few hundred trials held more memory the more trials
// it read. Here a value costs its text and nothing else. fflate's inflateSync keeps no such
// buffers but decodes these blocks about three times slower than zlib; this decoder matches zlib.

// core's errors file, not its index: the index loads every record schema (zod), which `report` does without.
import { MindscopeError } from '../../core/errors.js';
import { DISTANCE_BASE, DISTANCE_EXTRA, LENGTH_BASE, LENGTH_EXTRA } from './deflate-tables.js';

/** DEFLATE's window: how far back a match may reach (into the dictionary too). */
const WINDOW = 32_768;
/** The longest code of either alphabet. */
const MAX_BITS = 15;
/** The longest match: room kept free after the output before a symbol is decoded. */
const MAX_MATCH = 258;

/** The order in which a dynamic block lists its code-length code's lengths. */
const CODE_LENGTH_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

const malformed = (why: string) => new MindscopeError(`a stored compressed value does not inflate: ${why}`);

/** Code.build's counts of codes by length and the next code of each length (one build at a time). */
const PER_LENGTH: number[] = new Array<number>(MAX_BITS + 1).fill(0);
const NEXT_CODE: number[] = new Array<number>(MAX_BITS + 2).fill(0);

/**
 * A canonical Huffman code as one lookup table indexed by the next `bits` bits of input (codes
 * come first bit first): each entry (symbol << 4) | code length, 0 where no code is.
 */
class Code {
  readonly table: Int32Array;
  bits = 0;

  constructor(maxBits = MAX_BITS) {
    this.table = new Int32Array(1 << maxBits);
  }

  build(lengths: ArrayLike<number>, count: number): this {
    const perLength = PER_LENGTH.fill(0);
    const next = NEXT_CODE.fill(0);
    let max = 0;
    for (let s = 0; s < count; s++) {
      const l = lengths[s]!;
      perLength[l]!++;
      if (l > max) max = l;
    }
    perLength[0] = 0;
    let left = 1;
    for (let l = 1; l <= MAX_BITS; l++) {
      left = (left << 1) - perLength[l]!;
      if (left < 0) throw malformed('a code is over-subscribed');
      next[l + 1] = (next[l]! + perLength[l]!) << 1;
    }
    const size = 1 << Math.max(max, 1);
    this.table.fill(0, 0, size);
    this.bits = Math.max(max, 1);
    for (let s = 0; s < count; s++) {
      const l = lengths[s]!;
      if (l === 0) continue;
      const code = next[l]!++;
      let reversed = 0;
      for (let i = 0; i < l; i++) reversed |= ((code >> i) & 1) << (l - 1 - i);
      const entry = (s << 4) | l;
      for (let i = reversed; i < size; i += 1 << l) this.table[i] = entry;
    }
    return this;
  }
}

const FIXED_LITERALS = new Code().build(
  Array.from({ length: 288 }, (_, s) => (s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8)),
  288,
);
const FIXED_DISTANCES = new Code().build(new Array<number>(30).fill(5), 30);

/** What #data holds between values. */
const EMPTY = new Uint8Array(0);

/** Inflates raw DEFLATE data against a dictionary into a window it keeps (one value at a time). */
export class BlockInflater {
  #out: Buffer = Buffer.allocUnsafeSlow(1 << 18);
  /** The dictionary whose last WINDOW bytes start the window, and their length. */
  #dictionary: Uint8Array | undefined;
  #start = 0;
  readonly #literals = new Code();
  readonly #distances = new Code();
  /** A dynamic block's code for its code lengths (7 bits at most). */
  readonly #codeLengths = new Code(7);
  readonly #lengths = new Uint8Array(288 + 32);

  /** The UTF-8 text that `data`, deflated against `dictionary`, inflates to. */
  inflateText(data: Uint8Array, dictionary: Uint8Array): string {
    if (dictionary !== this.#dictionary) {
      const d = dictionary.subarray(Math.max(0, dictionary.length - WINDOW));
      if (d.length + MAX_MATCH > this.#out.length) this.#out = Buffer.allocUnsafeSlow(2 * (d.length + MAX_MATCH));
      this.#out.set(d, 0);
      this.#dictionary = dictionary;
      this.#start = d.length;
    }
    const end = this.#inflate(data);
    return this.#out.toString('utf8', this.#start, end);
  }

  // The input and its bits not yet used: fields of the inflater, read and written by its methods
  // (closures over locals of #inflate would keep them in a context object, made anew for every
  // value, and each value's new closures would undo the optimised code compiled for the last).
  #data: Uint8Array = EMPTY;
  /** Bits read ahead of the next one used (the next one first). */
  #acc = 0;
  /** How many bits #acc holds. */
  #n = 0;
  /** The next byte of #data to read into #acc. */
  #at = 0;

  /** At least `bits` bits in #acc, where the data has them. */
  #fill(bits: number): void {
    const data = this.#data;
    let acc = this.#acc;
    let n = this.#n;
    let at = this.#at;
    while (n < bits && at < data.length) {
      acc |= data[at++]! << n;
      n += 8;
    }
    this.#acc = acc;
    this.#n = n;
    this.#at = at;
  }

  #take(bits: number): number {
    this.#fill(bits);
    if (this.#n < bits) throw malformed('it ends early');
    const v = this.#acc & ((1 << bits) - 1);
    this.#acc >>>= bits;
    this.#n -= bits;
    return v;
  }

  #symbol(code: Code): number {
    this.#fill(code.bits);
    const e = code.table[this.#acc & ((1 << code.bits) - 1)]!;
    const l = e & 15;
    if (l === 0 || l > this.#n) throw malformed(l === 0 ? 'an unknown code' : 'it ends early');
    this.#acc >>>= l;
    this.#n -= l;
    return e >> 4;
  }

  #inflate(data: Uint8Array): number {
    const start = this.#start;
    let out = this.#out;
    let o = start;
    let room = out.length - MAX_MATCH;
    this.#data = data;
    this.#acc = 0;
    this.#n = 0;
    this.#at = 0;
    for (let last = 0; !last; ) {
      last = this.#take(1);
      const type = this.#take(2);
      if (type === 0) {
        // Stored: byte-aligned, LEN and its complement, then LEN bytes as they are.
        this.#acc >>>= this.#n & 7;
        this.#n -= this.#n & 7;
        const len = this.#take(16);
        if ((this.#take(16) ^ 0xffff) !== len) throw malformed('a stored block has a bad length');
        for (let i = 0; i < len; i++) {
          if (o >= room) ({ out, room } = this.#grow(o));
          out[o++] = this.#take(8);
        }
        continue;
      }
      let literals = FIXED_LITERALS;
      let distances = FIXED_DISTANCES;
      if (type === 2) ({ literals, distances } = this.#dynamic());
      else if (type !== 1) throw malformed('a reserved block type');
      o = this.#codes(o, literals, distances);
      out = this.#out;
      room = out.length - MAX_MATCH;
    }
    // The input is not kept past its value.
    this.#data = EMPTY;
    return o;
  }

  /**
   * A block's symbols decoded with its codes into the window from `o`, up to its end-of-block
   * code; the end of the output. The bit reader's state is kept in locals here (the loop that
   * decodes nearly every byte), and given back to the fields at the end of the block.
   */
  #codes(o: number, literals: Code, distances: Code): number {
    const data = this.#data;
    const size = data.length;
    let out = this.#out;
    let room = out.length - MAX_MATCH;
    let acc = this.#acc;
    let n = this.#n;
    let at = this.#at;
    const lTable = literals.table;
    const lBits = literals.bits;
    const lMask = (1 << lBits) - 1;
    const dTable = distances.table;
    const dBits = distances.bits;
    const dMask = (1 << dBits) - 1;
    for (;;) {
      while (n < lBits && at < size) {
        acc |= data[at++]! << n;
        n += 8;
      }
      const e = lTable[acc & lMask]!;
      const l = e & 15;
      if (l === 0 || l > n) throw malformed(l === 0 ? 'an unknown code' : 'it ends early');
      acc >>>= l;
      n -= l;
      const s = e >> 4;
      if (s < 256) {
        if (o >= room) ({ out, room } = this.#grow(o));
        out[o++] = s;
        continue;
      }
      if (s === 256) break;
      const li = s - 257;
      if (li >= 29) throw malformed('a bad length code');
      let length = LENGTH_BASE[li]!;
      const lExtra = LENGTH_EXTRA[li]!;
      if (lExtra) {
        while (n < lExtra && at < size) {
          acc |= data[at++]! << n;
          n += 8;
        }
        if (n < lExtra) throw malformed('it ends early');
        length += acc & ((1 << lExtra) - 1);
        acc >>>= lExtra;
        n -= lExtra;
      }
      while (n < dBits && at < size) {
        acc |= data[at++]! << n;
        n += 8;
      }
      const de = dTable[acc & dMask]!;
      const dl = de & 15;
      if (dl === 0 || dl > n) throw malformed(dl === 0 ? 'an unknown code' : 'it ends early');
      acc >>>= dl;
      n -= dl;
      const di = de >> 4;
      if (di >= 30) throw malformed('a bad distance code');
      let distance = DISTANCE_BASE[di]!;
      const dExtra = DISTANCE_EXTRA[di]!;
      if (dExtra) {
        while (n < dExtra && at < size) {
          acc |= data[at++]! << n;
          n += 8;
        }
        if (n < dExtra) throw malformed('it ends early');
        distance += acc & ((1 << dExtra) - 1);
        acc >>>= dExtra;
        n -= dExtra;
      }
      if (distance > o || distance > WINDOW) throw malformed('a distance too far back');
      if (o >= room) ({ out, room } = this.#grow(o));
      if (distance >= length) out.copyWithin(o, o - distance, o - distance + length);
      else for (let i = 0; i < length; i++) out[o + i] = out[o + i - distance]!;
      o += length;
    }
    this.#acc = acc;
    this.#n = n;
    this.#at = at;
    return o;
  }

  /** A dynamic block's codes, read from its header. */
  #dynamic(): { literals: Code; distances: Code } {
    const nLiterals = this.#take(5) + 257;
    const nDistances = this.#take(5) + 1;
    const nCodeLengths = this.#take(4) + 4;
    const lengths = this.#lengths;
    lengths.fill(0, 0, 19);
    for (let i = 0; i < nCodeLengths; i++) lengths[CODE_LENGTH_ORDER[i]!] = this.#take(3);
    const codeLengths = this.#codeLengths.build(lengths, 19);
    const total = nLiterals + nDistances;
    lengths.fill(0);
    for (let i = 0; i < total; ) {
      const s = this.#symbol(codeLengths);
      if (s < 16) {
        lengths[i++] = s;
        continue;
      }
      let repeat: number;
      let value = 0;
      if (s === 16) {
        if (i === 0) throw malformed('a repeat with nothing before it');
        value = lengths[i - 1]!;
        repeat = 3 + this.#take(2);
      } else repeat = s === 17 ? 3 + this.#take(3) : 11 + this.#take(7);
      if (i + repeat > total) throw malformed('code lengths run past their count');
      lengths.fill(value, i, i + repeat);
      i += repeat;
    }
    if (lengths[256] === 0) throw malformed('no end-of-block code');
    return {
      literals: this.#literals.build(lengths, nLiterals),
      distances: this.#distances.build(lengths.subarray(nLiterals, total), nDistances),
    };
  }

  /** A window twice as large, the output so far kept. */
  #grow(o: number): { out: Buffer; room: number } {
    const out = Buffer.allocUnsafeSlow(this.#out.length * 2);
    out.set(this.#out.subarray(0, o), 0);
    this.#out = out;
    return { out, room: out.length - MAX_MATCH };
  }
}
