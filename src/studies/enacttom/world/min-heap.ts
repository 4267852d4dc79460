// A binary min-heap of node ids on their scores, for the verifier's best-first search. Ids and
// scores live in typed arrays (no object per node); ties pop in the same order as the
// object heap this replaced, so searches expand the same nodes and find the same plans.

export class MinHeap {
  #ids = new Int32Array(1024);
  #scores = new Float64Array(1024);
  #size = 0;

  get size(): number {
    return this.#size;
  }

  /** The score of node `id` (set by `push`). */
  score(id: number): number {
    return this.#scores[id]!;
  }

  push(id: number, score: number): void {
    if (id >= this.#scores.length) {
      const scores = new Float64Array(Math.max(id + 1, this.#scores.length * 2));
      scores.set(this.#scores);
      this.#scores = scores;
    }
    this.#scores[id] = score;
    if (this.#size === this.#ids.length) {
      const ids = new Int32Array(this.#ids.length * 2);
      ids.set(this.#ids);
      this.#ids = ids;
    }
    const a = this.#ids;
    const s = this.#scores;
    let i = this.#size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (s[a[p]!]! <= score) break;
      a[i] = a[p]!;
      i = p;
    }
    a[i] = id;
  }

  /** The id with the lowest score, or -1 when empty. */
  pop(): number {
    if (this.#size === 0) return -1;
    const a = this.#ids;
    const s = this.#scores;
    const top = a[0]!;
    const last = a[--this.#size]!;
    const n = this.#size;
    if (n > 0) {
      const ls = s[last]!;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        let ms = ls;
        if (l < n && s[a[l]!]! < ms) {
          m = l;
          ms = s[a[l]!]!;
        }
        if (r < n && s[a[r]!]! < ms) m = r;
        if (m === i) break;
        a[i] = a[m]!;
        i = m;
      }
      a[i] = last;
    }
    return top;
  }
}
