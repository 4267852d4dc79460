// Benchmarks as the audit sees them: the same models in the same order, binary items with a
// category, items with a missing cell left out (and counted).

import { ConfigError, InputError } from '../../core/index.js';
import type { ResponseMatrix } from '../../store/index.js';

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
  /** Models present in some benchmark but not all, left out. */
  droppedModels: string[];
}

export function prepareBenchmarks(inputs: Array<{ name: string; matrix: ResponseMatrix }>): AuditPanel {
  if (inputs.length === 0) throw new ConfigError('the audit needs at least one benchmark matrix');
  const all = new Set(inputs.flatMap((b) => b.matrix.subjects));
  const models = inputs[0].matrix.subjects.filter((s) => inputs.every((b) => b.matrix.subjects.includes(s)));
  if (models.length < 3) throw new ConfigError(`the audit needs at least 3 models present in every benchmark; found ${models.length}`);
  const benchmarks = inputs.map(({ name, matrix }) => {
    const cols = models.map((m) => matrix.subjects.indexOf(m));
    const items: AuditItem[] = [];
    let droppedIncomplete = 0;
    matrix.items.forEach((it, i) => {
      const row = matrix.cells[i];
      const responses = new Uint8Array(models.length);
      for (let m = 0; m < cols.length; m++) {
        const v = row[cols[m]];
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
export function flatten(items: AuditItem[], models: number): Uint8Array {
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
      const base = indices[k] * models;
      for (let m = 0; m < models; m++) counts[m] += flat[base + m];
    }
  } else {
    for (let k = 0; k < flat.length; k++) counts[k % models] += flat[k];
  }
  for (let m = 0; m < models; m++) out[m] = counts[m] / n;
  return out;
}

/**
 * The bootstrap's hot loop, four models per addition: each item's 0/1 responses are packed four
 * to a double as base-8192 digits, so summing a resample costs ceil(models / 4) additions per
 * item instead of one per model. Exact while a category has fewer than 8,192 items (the digits
 * cannot carry) and far below 2^53. Lanes are padded to a multiple of eight and summed eight at
 * a time in local variables (32 models per pass over the resample), which keeps the running
 * sums in registers instead of a typed array.
 */
export class PackedItems {
  readonly lanes: number;
  readonly packed: Float64Array;
  readonly #sums: Float64Array;
  static readonly BASE = 8192;

  constructor(
    items: Array<Pick<AuditItem, 'responses'>>,
    readonly models: number,
  ) {
    if (items.length >= PackedItems.BASE) throw new Error(`PackedItems holds fewer than ${PackedItems.BASE} items`);
    this.lanes = Math.ceil(models / 32) * 8;
    this.packed = new Float64Array(items.length * this.lanes);
    this.#sums = new Float64Array(this.lanes);
    items.forEach((it, k) => {
      for (let m = 0; m < models; m++) if (it.responses[m]) this.packed[k * this.lanes + (m >> 2)] += PackedItems.BASE ** (m & 3);
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
    const L = this.lanes;
    const sums = this.#sums;
    const packed = this.packed;
    const n = indices.length;
    for (let chunk = 0; chunk < L; chunk += 8) {
      let s0 = 0,
        s1 = 0,
        s2 = 0,
        s3 = 0,
        s4 = 0,
        s5 = 0,
        s6 = 0,
        s7 = 0; // prettier-ignore
      for (let k = 0; k < n; k++) {
        const b = indices[k] * L + chunk;
        s0 += packed[b];
        s1 += packed[b + 1];
        s2 += packed[b + 2];
        s3 += packed[b + 3];
        s4 += packed[b + 4];
        s5 += packed[b + 5];
        s6 += packed[b + 6];
        s7 += packed[b + 7];
      }
      sums[chunk] = s0;
      sums[chunk + 1] = s1;
      sums[chunk + 2] = s2;
      sums[chunk + 3] = s3;
      sums[chunk + 4] = s4;
      sums[chunk + 5] = s5;
      sums[chunk + 6] = s6;
      sums[chunk + 7] = s7;
    }
    const B = PackedItems.BASE;
    for (let m = 0; m < this.models; m++) {
      const lane = sums[m >> 2];
      const digit = Math.floor(lane / B ** (m & 3)) % B;
      out[m] = digit / n;
    }
    return out;
  }
}

/** Per-model accuracy over a set of items (or over resampled item indices). */
export function accuracies(items: AuditItem[], models: number, indices?: ArrayLike<number>): Float64Array {
  const sums = new Float64Array(models);
  const n = indices ? indices.length : items.length;
  for (let k = 0; k < n; k++) {
    const r = items[indices ? indices[k] : k].responses;
    for (let m = 0; m < models; m++) sums[m] += r[m];
  }
  for (let m = 0; m < models; m++) sums[m] /= n;
  return sums;
}

export function categoriesOf(b: AuditBenchmark): string[] {
  return [...new Set(b.items.map((i) => i.category))].sort();
}
