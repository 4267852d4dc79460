// The verifier's visited states, packed into one growing Int32Array: per state, whose turn it
// is, the world values two to a word, and every agent's knowledge flags one bit each. A hash
// table (open addressing over state ids) finds duplicates without building a string key per
// state, and the search's nodes are these ids: no object, typed array or string per state.

import type { KnowledgeState } from './knowledge.js';
import type { WorldState } from './world.js';

/** Packed joint states of one search, deduplicated by value. */
export class StateStore {
  readonly #A: number;
  readonly #O: number;
  readonly #F: number;
  readonly #U: number;
  /** World values per state (rooms, holdings, object places, open flags, messages left). */
  readonly #values: number;
  readonly #flagWords: number;
  /** Words per state: the turn, the world values (two per word), the flags. */
  readonly stride: number;
  #arena: Int32Array;
  #hashes: Int32Array;
  #table: Int32Array;
  #size = 0;
  /** The candidate state, encoded by `encode`, before `insert` keeps it. */
  readonly #tmp: Int32Array;
  #tmpHash = 0;

  constructor(agents: number, objects: number, furniture: number, atoms: number) {
    this.#A = agents;
    this.#O = objects;
    this.#F = furniture;
    this.#U = atoms;
    this.#values = 3 * agents + objects + furniture;
    this.#flagWords = (atoms + 31) >>> 5;
    this.stride = 1 + ((this.#values + 1) >> 1) + agents * this.#flagWords;
    this.#arena = new Int32Array(this.stride * 1024);
    this.#hashes = new Int32Array(1024);
    this.#table = new Int32Array(2048).fill(-1);
    this.#tmp = new Int32Array(this.stride);
  }

  get size(): number {
    return this.#size;
  }

  /** Encode a state (and whose turn it is) as the candidate for `insert`. */
  encode(turn: number, ws: WorldState, ks: KnowledgeState): void {
    const t = this.#tmp;
    t.fill(0);
    t[0] = turn;
    const A = this.#A;
    // World values two to a word: the k-th value goes to word 1 + k / 2, low half first.
    let k = 0;
    const arrays = [ws.agentRoom, ws.holding, ws.objLoc, ws.open, ws.messagesLeft];
    for (let j = 0; j < 5; j++) {
      const arr = arrays[j]!;
      for (let x = 0; x < arr.length; x++, k++) {
        const w = 1 + (k >> 1);
        t[w] = (k & 1) === 0 ? arr[x]! & 0xffff : t[w]! | (arr[x]! << 16);
      }
    }
    let base = 1 + ((this.#values + 1) >> 1);
    for (let a = 0; a < A; a++, base += this.#flagWords) {
      const f = ks.flags[a]!;
      for (let i = 0; i < this.#U; i++) if (f[i]) t[base + (i >>> 5)]! |= 1 << (i & 31);
    }
    let h = 0x811c9dc5;
    for (let i = 0; i < this.stride; i++) h = Math.imul(h ^ t[i]!, 0x01000193);
    this.#tmpHash = h ^ (h >>> 15);
  }

  /** Keep the encoded candidate: its id, or -1 when an equal state is already kept. */
  insert(): number {
    const mask = this.#table.length - 1;
    const S = this.stride;
    const t = this.#tmp;
    for (let slot = this.#tmpHash & mask; ; slot = (slot + 1) & mask) {
      const id = this.#table[slot]!;
      if (id < 0) break;
      if (this.#hashes[id] !== this.#tmpHash) continue;
      let same = true;
      for (let i = 0, o = id * S; i < S; i++, o++)
        if (this.#arena[o] !== t[i]) {
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
      const arena = new Int32Array(this.#arena.length * 2);
      arena.set(this.#arena);
      this.#arena = arena;
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

  /** Write kept state `id` into a world and a knowledge state. */
  decode(id: number, ws: WorldState, ks: KnowledgeState): void {
    const arena = this.#arena;
    const o = id * this.stride;
    let k = 0;
    const get = () => {
      const word = arena[o + 1 + (k >> 1)]!;
      const v = (k & 1) === 0 ? (word << 16) >> 16 : word >> 16;
      k++;
      return v;
    };
    const A = this.#A;
    for (let a = 0; a < A; a++) ws.agentRoom[a] = get();
    for (let a = 0; a < A; a++) ws.holding[a] = get();
    for (let i = 0; i < this.#O; i++) ws.objLoc[i] = get();
    for (let f = 0; f < this.#F; f++) ws.open[f] = get();
    for (let a = 0; a < A; a++) ws.messagesLeft[a] = get();
    let base = o + 1 + ((this.#values + 1) >> 1);
    for (let a = 0; a < A; a++, base += this.#flagWords) {
      const f = ks.flags[a]!;
      for (let i = 0; i < this.#U; i++) f[i] = (arena[base + (i >>> 5)]! >>> (i & 31)) & 1;
    }
  }
}
