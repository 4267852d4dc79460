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
        if (v !== 0 && v !== 1) throw new InputError(`${name}: item ${it.itemId} has the non-binary cell ${v} for ${models[m]} (the audit needs 1 or 0)`);
        responses[m] = v;
      }
      items.push({ id: it.itemId, category: it.category, responses });
    });
    if (items.length === 0) throw new ConfigError(`${name}: no item has a response from every model`);
    return { name, items, droppedIncomplete };
  });
  return { models, benchmarks, droppedModels: [...all].filter((m) => !models.includes(m)) };
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
