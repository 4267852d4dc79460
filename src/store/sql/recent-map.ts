// A bounded memo that keeps what is used: two generations of at most `max` entries each. A new
// entry goes into the current one; when that is full it becomes the previous one (the one before
// is let go) and a new current one starts; an entry found in the previous generation is copied
// into the current one, so what keeps being used (a template's paragraphs) outlives any number
// of turnovers, and what is used once (an item's own texts) is let go after two.
//
// Small generations, not one large table cleared when full: V8 keeps a Map's entries in one
// array, which past a few thousand entries is a large object of its own, regrown by rehashing
// and thrown away at each clear, and whose lookups miss the processor's caches. A writer that
// adds a few entries a trial spent about three times as much CPU on a memo of 10,000 entries.

/** Entries a generation holds by default. */
const GENERATION_MAX = 2048;

/** A memo of recently used entries (values are never undefined). */
export class RecentMap<K, V> {
  #current = new Map<K, V>();
  #previous = new Map<K, V>();

  constructor(readonly max = GENERATION_MAX) {}

  get(key: K): V | undefined {
    const v = this.#current.get(key);
    if (v !== undefined) return v;
    const old = this.#previous.get(key);
    if (old !== undefined) this.set(key, old);
    return old;
  }

  has(key: K): boolean {
    return this.get(key) !== undefined;
  }

  set(key: K, value: V): this {
    if (this.#current.size >= this.max) {
      this.#previous = this.#current;
      this.#current = new Map();
    }
    this.#current.set(key, value);
    return this;
  }
}
