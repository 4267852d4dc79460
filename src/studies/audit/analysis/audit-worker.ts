// Worker-thread entry: runs audit tasks (see audit-tasks.ts) one message at a time and posts
// each result, with its compute time, back.

import { parentPort } from 'node:worker_threads';
import { runAuditTask, type AuditTask } from './audit-tasks.js';

parentPort?.on('message', (task: AuditTask) => {
  const start = performance.now();
  try {
    parentPort!.postMessage({ ok: true, result: runAuditTask(task), ms: performance.now() - start });
  } catch (err) {
    parentPort!.postMessage({ ok: false, error: (err as Error).message });
  }
});
