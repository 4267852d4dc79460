// Worker-thread entry: computes one matrix's factor structure (see factor-structure.ts) from
// its 0/1 responses, flattened item-major, and posts the result back.

import { parentPort } from 'node:worker_threads';
import { structureOf, type StructureOptions } from './factor-structure.js';

export interface StructureTask {
  name: string;
  models: number;
  /** responses[item * models + model]. */
  responses: Uint8Array;
  options: StructureOptions;
}

parentPort?.on('message', (task: StructureTask) => {
  try {
    const items = Array.from({ length: task.responses.length / task.models }, (_, k) => ({ responses: task.responses.subarray(k * task.models, (k + 1) * task.models) }));
    parentPort!.postMessage({ ok: true, result: structureOf(task.name, items, task.models, task.options) });
  } catch (err) {
    parentPort!.postMessage({ ok: false, error: (err as Error).message });
  }
});
