// A binary min-heap on `score`, for the verifier's best-first search.

export class MinHeap<T extends { score: number }> {
  #items: T[] = [];
  get size(): number {
    return this.#items.length;
  }
  push(n: T): void {
    const a = this.#items;
    a.push(n);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p]!.score <= n.score) break;
      a[i] = a[p]!;
      i = p;
    }
    a[i] = n;
  }
  pop(): T | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length && last) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]!.score < (m === i ? last.score : a[m]!.score)) m = l;
        if (r < a.length && a[r]!.score < (m === i ? last.score : a[m]!.score)) m = r;
        if (m === i) break;
        a[i] = a[m]!;
        i = m;
      }
      a[i] = last;
    }
    return top;
  }
}
