// Runs audit tasks on worker threads, largest first, each to the next free worker; results
// come back in task order and are the same as in process. Where the compiled worker is not
// beside this module (running from TypeScript sources, as the tests do) or one thread is asked
// for, the tasks run in process, in order.

import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { runAuditTask, taskCost, type AuditTask, type AuditTaskResult } from './audit-tasks.js';

const workerUrl = new URL('./audit-worker.js', import.meta.url);

/** Threads to use by default: one per core, at most four. */
function defaultThreads(): number {
  return Math.min(4, availableParallelism());
}

export interface PoolOutcome {
  results: AuditTaskResult[];
  /** Compute time of each task (in its worker or in process). */
  ms: number[];
  threads: number;
}

export async function runAuditTasks(tasks: AuditTask[], threads = defaultThreads()): Promise<PoolOutcome> {
  const n = Math.min(tasks.length, Math.max(1, threads));
  if (n <= 1 || workerUrl.protocol !== 'file:' || !existsSync(fileURLToPath(workerUrl))) {
    const ms: number[] = [];
    const results = tasks.map((t) => {
      const start = performance.now();
      const r = runAuditTask(t);
      ms.push(performance.now() - start);
      return r;
    });
    return { results, ms, threads: 1 };
  }
  const order = tasks.map((t, i) => ({ i, cost: taskCost(t) })).sort((a, b) => b.cost - a.cost);
  const results: AuditTaskResult[] = new Array(tasks.length);
  const ms: number[] = new Array(tasks.length).fill(0);
  let next = 0;
  const work = async (): Promise<void> => {
    const worker = new Worker(workerUrl);
    try {
      while (next < order.length) {
        const { i } = order[next++]!;
        const reply = await new Promise<{ ok: true; result: AuditTaskResult; ms: number } | { ok: false; error: string }>(
          (resolve, reject) => {
            worker.once('message', resolve);
            worker.once('error', reject);
            worker.postMessage(tasks[i]);
          },
        );
        worker.removeAllListeners('error');
        if (!reply.ok) throw new Error(reply.error);
        results[i] = reply.result;
        ms[i] = reply.ms;
      }
    } finally {
      await worker.terminate();
    }
  };
  await Promise.all(Array.from({ length: n }, work));
  return { results, ms, threads: n };
}
