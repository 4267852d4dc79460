// Seeded randomness. Every random choice in mindscope goes through a Rng made from an explicit
// seed, so the same inputs and seed give the same bytes out.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  pick<T>(items: readonly T[]): T;
  shuffle<T>(items: readonly T[]): T[];
  /** Fill `out` with uniform integers in [0, n): the same draws as calling int(n) out.length times, faster. */
  fillInts(out: Int32Array, n: number): Int32Array;
  /** Fill `out` with uniforms in [0, 1): the same draws as calling next() out.length times, faster. */
  fillUniform(out: Float64Array): Float64Array;
  /** Advance the generator as `count` calls of next() would, without making the values. */
  skip(count: number): void;
}

/** A 32-bit seed derived from any number of parts (strings or numbers), stable across platforms. */
export function deriveSeed(...parts: Array<string | number>): number {
  // node:crypto loaded on the first seed derived, not with core.
  const digest = process.getBuiltinModule('node:crypto').createHash('sha256').update(parts.map(String).join('\u0000')).digest();
  return digest.readUInt32LE(0);
}

/** sfc32, seeded through splitmix32: fast, good enough for sampling and shuffling. */
export function createRng(seed: number | string): Rng {
  let s = typeof seed === 'string' ? deriveSeed(seed) : seed >>> 0;
  const splitmix = () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  // The state lives in an Int32Array: closure variables holding 32-bit unsigned values would be
  // boxed as heap numbers on every draw.
  const st = Int32Array.of(splitmix(), splitmix(), splitmix(), splitmix());
  const next = () => {
    const a = st[0]!;
    const b = st[1]!;
    const c = st[2]!;
    const d = st[3]!;
    const t = (a + b + d) | 0;
    st[3] = (d + 1) | 0;
    st[0] = b ^ (b >>> 9);
    st[1] = (c + (c << 3)) | 0;
    st[2] = (((c << 21) | (c >>> 11)) + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  const rng: Rng = {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (items) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
    fillInts: (out, n) => {
      // sfc32 inlined on int32 locals (the bootstrap's hot loop): the same words as next().
      let A = st[0]!;
      let B = st[1]!;
      let C = st[2]!;
      let D = st[3]!;
      for (let k = 0; k < out.length; k++) {
        const t = (A + B + D) | 0;
        D = (D + 1) | 0;
        A = B ^ (B >>> 9);
        B = (C + (C << 3)) | 0;
        C = (C << 21) | (C >>> 11);
        C = (C + t) | 0;
        out[k] = Math.floor(((t >>> 0) / 4294967296) * n);
      }
      st[0] = A;
      st[1] = B;
      st[2] = C;
      st[3] = D;
      return out;
    },
    fillUniform: (out) => {
      // The same generator inlined as in fillInts: a shared per-draw callback is what both loops avoid.
      let A = st[0]!;
      let B = st[1]!;
      let C = st[2]!;
      let D = st[3]!;
      for (let k = 0; k < out.length; k++) {
        const t = (A + B + D) | 0;
        D = (D + 1) | 0;
        A = B ^ (B >>> 9);
        B = (C + (C << 3)) | 0;
        C = (C << 21) | (C >>> 11);
        C = (C + t) | 0;
        out[k] = (t >>> 0) / 4294967296;
      }
      st[0] = A;
      st[1] = B;
      st[2] = C;
      st[3] = D;
      return out;
    },
    skip: (count) => {
      let A = st[0]!;
      let B = st[1]!;
      let C = st[2]!;
      let D = st[3]!;
      for (let k = 0; k < count; k++) {
        const t = (A + B + D) | 0;
        D = (D + 1) | 0;
        A = B ^ (B >>> 9);
        B = (C + (C << 3)) | 0;
        C = (C << 21) | (C >>> 11);
        C = (C + t) | 0;
      }
      st[0] = A;
      st[1] = B;
      st[2] = C;
      st[3] = D;
    },
    shuffle: (items) => {
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = Math.floor(next() * (i + 1));
        const t = out[i]!;
        out[i] = out[j]!;
        out[j] = t;
      }
      return out;
    },
  };
  return rng;
}
