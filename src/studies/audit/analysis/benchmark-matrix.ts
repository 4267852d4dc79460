// Benchmarks as the audit sees them: the same models in the same order, binary items with a
// category, items with a missing cell left out (and counted).

import { ConfigError, InputError } from '../../../core/errors.js';
import type { ResponseMatrix } from '../../../store/matrix/index.js';
import { sumDrawnWasm } from './packed-sums-wasm.js';

export interface AuditItem {
  id: string;
  category: string;
  /** One 0/1 per model, in the audit's model order. */
  responses: Uint8Array;
}

export interface AuditBenchmark {
  name: string;
  items: AuditItem[];
  /** Items left out because some model has no response on them. */
  droppedIncomplete: number;
}

export interface AuditPanel {
  models: string[];
  benchmarks: AuditBenchmark[];
  /** Models present in some benchmark but not all (a column with every cell blank is absent), left out. */
  droppedModels: string[];
}

/** Align response matrices for the audit: the models every benchmark has (others dropped and reported), items with complete answers, packed for the statistics. */
export function prepareBenchmarks(inputs: Array<{ name: string; matrix: ResponseMatrix }>): AuditPanel {
  if (inputs.length === 0) throw new ConfigError('the audit needs at least one benchmark matrix');
  const all = new Set(inputs.flatMap((b) => b.matrix.subjects));
  // A model whose column is blank in every row answered nothing there: it is absent, not a reason to drop every item.
  const answered = inputs.map(
    ({ matrix }) => new Set(matrix.subjects.filter((_, c) => matrix.cells.some((row) => row[c] !== null && row[c] !== undefined))),
  );
  const models = inputs[0]!.matrix.subjects.filter((s) => answered.every((present) => present.has(s)));
  if (models.length < 3) throw new ConfigError(`the audit needs at least 3 models present in every benchmark; found ${models.length}`);
  const benchmarks = inputs.map(({ name, matrix }) => {
    const cols = models.map((m) => matrix.subjects.indexOf(m));
    const items: AuditItem[] = [];
    let droppedIncomplete = 0;
    matrix.items.forEach((it, i) => {
      const row = matrix.cells[i]!;
      const responses = new Uint8Array(models.length);
      for (let m = 0; m < cols.length; m++) {
        const v = row[cols[m]!];
        if (v === null || v === undefined) {
          droppedIncomplete++;
          return;
        }
        if (v !== 0 && v !== 1)
          throw new InputError(`${name}: item ${it.itemId} has the non-binary cell ${v} for ${models[m]} (the audit needs 1 or 0)`);
        responses[m] = v;
      }
      items.push({ id: it.itemId, category: it.category, responses });
    });
    if (items.length === 0) throw new ConfigError(`${name}: no item has a response from every model`);
    return { name, items, droppedIncomplete };
  });
  return { models, benchmarks, droppedModels: [...all].filter((m) => !models.includes(m)) };
}

/** Items' responses in one contiguous array, item-major: flat[item * models + model]. */
export function flatten(items: ReadonlyArray<Pick<AuditItem, 'responses'>>, models: number): Uint8Array {
  const flat = new Uint8Array(items.length * models);
  items.forEach((it, k) => flat.set(it.responses, k * models));
  return flat;
}

/** Per-model accuracy from a flattened item block, over all items or resampled item indices. */
export function flatAccuracies(
  flat: Uint8Array,
  models: number,
  indices?: ArrayLike<number>,
  out = new Float64Array(models),
): Float64Array {
  const n = indices ? indices.length : flat.length / models;
  const counts = new Int32Array(models);
  if (indices) {
    // The bootstrap's hot loop: integer counts, one contiguous row per sampled item.
    for (let k = 0; k < n; k++) {
      const base = indices[k]! * models;
      for (let m = 0; m < models; m++) counts[m]! += flat[base + m]!;
    }
  } else {
    for (let k = 0; k < flat.length; k++) counts[k % models]! += flat[k]!;
  }
  for (let m = 0; m < models; m++) out[m] = counts[m]! / n;
  return out;
}

/**
 * The bootstrap's hot loop, several models per addition: each item's 0/1 responses are packed
 * into doubles as digits of a power-of-two base larger than the item count, so that summing a
 * resample cannot carry from one model's digit into the next and stays below 2^53 (every
 * integer up to it is exact). As many models share a double as 53 bits allow: four below
 * 8,192 items, five below 1,024, three below 2^17, two beyond; every category size is exact.
 * Lanes are grouped eight at a time and stored group by group (item k's eight lanes of group g
 * at (g * items + k) * 8), so that summing a group reads memory in item order with the running
 * sums in registers; up to six lanes make one group of six (item k's at k * 6). With many lanes (many models) a resample is first turned into per-item
 * counts, so that each drawn item's lanes are read once, in order, times its count.
 */
export class PackedItems {
  readonly lanes: number;
  /** The packed lanes, made once here and never changed (the WebAssembly kernel keeps a copy). */
  readonly packed: Float64Array;
  /** Models per double. */
  readonly digits: number;
  /** The digits' base: a power of two larger than the number of items. */
  readonly base: number;
  readonly #items: number;
  readonly #sums: Float64Array;
  readonly #counts: Int32Array;
  readonly #rows: Int32Array;
  readonly #times: Float64Array;
  readonly #powers: Float64Array;
  /** The base for four models to a double: categories below this many items pack at least four. */
  static readonly BASE = 8192;
  /** Lanes from which a resample is summed through per-item counts. */
  static readonly COUNTS_FROM_LANES = 24;

  constructor(
    items: Array<Pick<AuditItem, 'responses'>>,
    readonly models: number,
  ) {
    const n = items.length;
    if (n >= 2 ** 26) throw new Error(`PackedItems holds fewer than ${2 ** 26} items`);
    let bits = 1;
    while (2 ** bits <= n) bits++;
    this.digits = Math.max(1, Math.min(8, Math.floor(53 / bits)));
    this.base = 2 ** bits;
    this.#items = n;
    const needed = Math.ceil(models / this.digits);
    // Up to six lanes, one group of six (27 models at five to a double): a quarter fewer
    // additions than a group of eight.
    this.lanes = needed <= 6 ? 6 : Math.ceil(needed / 8) * 8;
    this.packed = new Float64Array(n * this.lanes);
    this.#sums = new Float64Array(this.lanes);
    const useCounts = this.lanes >= PackedItems.COUNTS_FROM_LANES;
    this.#counts = new Int32Array(useCounts ? n : 0);
    this.#rows = new Int32Array(useCounts ? n : 0);
    this.#times = new Float64Array(useCounts ? n : 0);
    this.#powers = Float64Array.from({ length: this.digits }, (_, k) => this.base ** k);
    items.forEach((it, k) => {
      for (let m = 0; m < models; m++) {
        if (!it.responses[m]) continue;
        const lane = Math.floor(m / this.digits);
        this.packed[this.lanes === 6 ? k * 6 + lane : ((lane >> 3) * n + k) * 8 + (lane & 7)]! += this.#powers[m % this.digits]!;
      }
    });
  }

  /** From responses flattened item-major (flat[item * models + model]). */
  static fromFlat(flat: Uint8Array, models: number): PackedItems {
    return new PackedItems(
      Array.from({ length: flat.length / models }, (_, k) => ({ responses: flat.subarray(k * models, (k + 1) * models) })),
      models,
    );
  }

  /** Per-model accuracy over resampled item indices. */
  accuracies(indices: Int32Array, out: Float64Array): Float64Array {
    if (this.#counts.length) this.#sumCounted(indices);
    // In WebAssembly SIMD where it runs (the same whole numbers), else the JavaScript loops.
    else if (!sumDrawnWasm(this, this.packed, this.lanes, this.#items, indices, this.#sums)) {
      if (this.lanes === 6) this.#sumDrawnSix(indices);
      else this.#sumDrawn(indices);
    }
    const n = indices.length;
    const B = this.base;
    const d = this.digits;
    const sums = this.#sums;
    const powers = this.#powers;
    for (let m = 0, lane = 0, digit = 0; m < this.models; m++) {
      out[m] = (Math.floor(sums[lane]! / powers[digit]!) % B) / n;
      if (++digit === d) {
        digit = 0;
        lane++;
      }
    }
    return out;
  }

  /**
   * Sums over the drawn items, one item per draw, six lanes: #sumDrawn's loop unrolled for one
   * group of six (a loop over the lane count would keep the running sums in memory).
   */
  #sumDrawnSix(indices: Int32Array): void {
    const packed = this.packed;
    const n = indices.length;
    let s0 = 0,
      s1 = 0,
      s2 = 0,
      s3 = 0,
      s4 = 0,
      s5 = 0; // prettier-ignore
    for (let k = 0; k < n; k++) {
      const b = indices[k]! * 6;
      s0 += packed[b]!;
      s1 += packed[b + 1]!;
      s2 += packed[b + 2]!;
      s3 += packed[b + 3]!;
      s4 += packed[b + 4]!;
      s5 += packed[b + 5]!;
    }
    const sums = this.#sums;
    sums[0] = s0;
    sums[1] = s1;
    sums[2] = s2;
    sums[3] = s3;
    sums[4] = s4;
    sums[5] = s5;
  }

  /** Sums over the drawn items, one item per draw. */
  #sumDrawn(indices: Int32Array): void {
    const groups = this.lanes >> 3;
    const sums = this.#sums;
    const packed = this.packed;
    const n = indices.length;
    for (let g = 0; g < groups; g++) {
      const base = g * this.#items * 8;
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0,
        s4 = 0,
        s5 = 0,
        s6 = 0,
        s7 = 0; // prettier-ignore
      for (let k = 0; k < n; k++) {
        const b = base + indices[k]! * 8;
        s0 += packed[b]!;
        s1 += packed[b + 1]!;
        s2 += packed[b + 2]!;
        s3 += packed[b + 3]!;
        s4 += packed[b + 4]!;
        s5 += packed[b + 5]!;
        s6 += packed[b + 6]!;
        s7 += packed[b + 7]!;
      }
      const o = g * 8;
      sums[o] = s0;
      sums[o + 1] = s1;
      sums[o + 2] = s2;
      sums[o + 3] = s3;
      sums[o + 4] = s4;
      sums[o + 5] = s5;
      sums[o + 6] = s6;
      sums[o + 7] = s7;
    }
  }

  /** Sums over the drawn items through their counts: each drawn item once, in item order. */
  #sumCounted(indices: Int32Array): void {
    const groups = this.lanes >> 3;
    const sums = this.#sums;
    const packed = this.packed;
    const counts = this.#counts;
    const rows = this.#rows;
    const times = this.#times;
    counts.fill(0);
    for (let k = 0; k < indices.length; k++) counts[indices[k]!]!++;
    let q = 0;
    for (let i = 0; i < counts.length; i++) {
      const c = counts[i]!;
      if (c) {
        rows[q] = i * 8;
        times[q++] = c;
      }
    }
    for (let g = 0; g < groups; g++) {
      const base = g * this.#items * 8;
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0,
        s4 = 0,
        s5 = 0,
        s6 = 0,
        s7 = 0; // prettier-ignore
      for (let k = 0; k < q; k++) {
        const b = base + rows[k]!;
        const c = times[k]!;
        s0 += c * packed[b]!;
        s1 += c * packed[b + 1]!;
        s2 += c * packed[b + 2]!;
        s3 += c * packed[b + 3]!;
        s4 += c * packed[b + 4]!;
        s5 += c * packed[b + 5]!;
        s6 += c * packed[b + 6]!;
        s7 += c * packed[b + 7]!;
      }
      const o = g * 8;
      sums[o] = s0;
      sums[o + 1] = s1;
      sums[o + 2] = s2;
      sums[o + 3] = s3;
      sums[o + 4] = s4;
      sums[o + 5] = s5;
      sums[o + 6] = s6;
      sums[o + 7] = s7;
    }
  }
}

/** Per-model accuracy over a set of items (or over resampled item indices). */
export function accuracies(items: AuditItem[], models: number, indices?: ArrayLike<number>): Float64Array {
  const sums = new Float64Array(models);
  const n = indices ? indices.length : items.length;
  for (let k = 0; k < n; k++) {
    const r = items[indices ? indices[k]! : k]!.responses;
    for (let m = 0; m < models; m++) sums[m]! += r[m]!;
  }
  for (let m = 0; m < models; m++) sums[m]! /= n;
  return sums;
}

/** The categories a benchmark's items cover, sorted. */
export function categoriesOf(b: AuditBenchmark): string[] {
  return [...new Set(b.items.map((i) => i.category))].sort();
}
