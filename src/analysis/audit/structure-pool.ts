// The factor structures of several matrices on worker threads (parallel analysis dominates
// the audit's time, and each matrix is independent of the others). Results are the same as in
// process: each matrix has its own seed. Where the compiled worker is not beside this module
// (running from TypeScript sources, as the tests do) or one thread is asked for, everything
// runs in process.

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AuditPanel } from './benchmark-matrix.js';
import { flatten } from './benchmark-matrix.js';
import { structureOf, structureTasks, type StructureOptions, type StructureResult } from './factor-structure.js';
import type { StructureTask } from './structure-worker.js';

const workerUrl = new URL('./structure-worker.js', import.meta.url);

/** Threads to use by default: one per core, at most four. */
export function defaultThreads(): number {
  return Math.min(4, availableParallelism());
}

/** `ms`: compute time in process, wall time until the last worker finished otherwise. */
export async function factorStructureParallel(panel: AuditPanel, opts: StructureOptions & { threads?: number } = {}): Promise<{ results: StructureResult[]; threads: number; ms: number }> {
  const start = performance.now();
  const { threads: asked, ...options } = opts;
  const tasks = structureTasks(panel);
  const M = panel.models.length;
  // PCA alone takes milliseconds: not worth a worker's start-up.
  const threads = options.depth === 'pca' ? 1 : Math.min(tasks.length, asked ?? defaultThreads());
  if (threads <= 1 || workerUrl.protocol !== 'file:' || !existsSync(fileURLToPath(workerUrl))) {
    const results = tasks.map((t) => structureOf(t.name, t.items, M, options));
    return { results, threads: 1, ms: performance.now() - start };
  }
  // Largest first, each to the next free worker.
  const order = tasks.map((t, i) => ({ i, size: t.items.length })).sort((a, b) => b.size - a.size);
  const results: StructureResult[] = new Array(tasks.length);
  let next = 0;
  const runWorker = async (): Promise<void> => {
    const worker = new Worker(workerUrl);
    try {
      while (next < order.length) {
        const { i } = order[next++];
        const message: StructureTask = { name: tasks[i].name, models: M, responses: flatten(tasks[i].items, M), options };
        results[i] = await new Promise<StructureResult>((resolve, reject) => {
          worker.once('message', (m: { ok: true; result: StructureResult } | { ok: false; error: string }) => (m.ok ? resolve(m.result) : reject(new Error(`${tasks[i].name}: ${m.error}`))));
          worker.once('error', reject);
          worker.postMessage(message, [message.responses.buffer as ArrayBuffer]);
        });
        worker.removeAllListeners('error');
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: threads }, runWorker));
  return { results, threads, ms: performance.now() - start };
}
