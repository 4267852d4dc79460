// The verifier's visited states, packed into one growing Int32Array: per state, whose turn it
// is, then the bytes of the world state and of every agent's knowledge flags, copied whole
// from the search's flat scratch buffers (search-run.ts). A hash table (open addressing over
// state ids) finds duplicates without building a string key per state, and the search's nodes
// are these ids: no object, typed array or string per state.

/** Packed joint states of one search, deduplicated by value. */
export class StateStore {
  readonly #worldBytes: number;
  readonly #flagBytes: number;
  /** Words per state: the turn, then the world and flag bytes (zero-padded to a word). */
  readonly stride: number;
  #arena: Int32Array;
  #bytes: Uint8Array;
  #hashes: Int32Array;
  #table: Int32Array;
  #size = 0;
  /** The candidate state, encoded by `encode`, before `insert` keeps it. */
  readonly #tmp: Int32Array;
  readonly #tmpBytes: Uint8Array;
  #tmpHash = 0;

  constructor(worldBytes: number, flagBytes: number) {
    this.#worldBytes = worldBytes;
    this.#flagBytes = flagBytes;
    this.stride = 1 + ((worldBytes + flagBytes + 3) >> 2);
    this.#arena = new Int32Array(this.stride * 1024);
    this.#bytes = new Uint8Array(this.#arena.buffer);
    this.#hashes = new Int32Array(1024);
    this.#table = new Int32Array(2048).fill(-1);
    this.#tmp = new Int32Array(this.stride);
    this.#tmpBytes = new Uint8Array(this.#tmp.buffer);
  }

  get size(): number {
    return this.#size;
  }

  /** Encode a state (whose turn it is, the world's bytes, the flags' bytes) as the candidate for `insert`. */
  encode(turn: number, world: Uint8Array, flags: Uint8Array): void {
    const t = this.#tmp;
    t[this.stride - 1] = 0;
    t[0] = turn;
    this.#tmpBytes.set(world, 4);
    this.#tmpBytes.set(flags, 4 + this.#worldBytes);
    // Mix every word into all bits (a multiply alone moves bits only upwards; the table reads the low ones).
    let h = 0x811c9dc5;
    for (let i = 0; i < this.stride; i++) {
      h = Math.imul(h ^ t[i]!, 0x9e3779b1);
      h ^= h >>> 15;
    }
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    this.#tmpHash = h ^ (h >>> 16);
  }

  /** Keep the encoded candidate: its id, or -1 when an equal state is already kept. */
  insert(): number {
    const mask = this.#table.length - 1;
    const S = this.stride;
    const t = this.#tmp;
    const arena = this.#arena;
    for (let slot = this.#tmpHash & mask; ; slot = (slot + 1) & mask) {
      const id = this.#table[slot]!;
      if (id < 0) break;
      if (this.#hashes[id] !== this.#tmpHash) continue;
      let same = true;
      for (let i = 0, o = id * S; i < S; i++, o++)
        if (arena[o] !== t[i]) {
          same = false;
          break;
        }
      if (same) return -1;
    }
    const id = this.#size++;
    if (this.#size > this.#hashes.length) {
      const hashes = new Int32Array(this.#hashes.length * 2);
      hashes.set(this.#hashes);
      this.#hashes = hashes;
      const grown = new Int32Array(this.#arena.length * 2);
      grown.set(this.#arena);
      this.#arena = grown;
      this.#bytes = new Uint8Array(grown.buffer);
    }
    this.#arena.set(t, id * S);
    this.#hashes[id] = this.#tmpHash;
    if (this.#size * 2 > this.#table.length) this.#rehash(this.#table.length * 2);
    else this.#place(id);
    return id;
  }

  #place(id: number): void {
    const mask = this.#table.length - 1;
    let slot = this.#hashes[id]! & mask;
    while (this.#table[slot]! >= 0) slot = (slot + 1) & mask;
    this.#table[slot] = id;
  }

  #rehash(length: number): void {
    this.#table = new Int32Array(length).fill(-1);
    for (let id = 0; id < this.#size; id++) this.#place(id);
  }

  /** Copy kept state `id` back into a world's and a knowledge state's bytes. */
  decode(id: number, world: Uint8Array, flags: Uint8Array): void {
    const o = 4 * (id * this.stride + 1);
    world.set(this.#bytes.subarray(o, o + this.#worldBytes));
    flags.set(this.#bytes.subarray(o + this.#worldBytes, o + this.#worldBytes + this.#flagBytes));
  }
}
