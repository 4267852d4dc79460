// Checkpoints of a SQLite store's write-ahead log, run in a worker thread. SQLite checkpoints
// on the connection that commits, inside the commit: with WAL mode's default, every so many
// commits one of them also copies thousands of pages into the main file, and the runner's event
// loop stops for that long (more than half of a run's commit time in one measurement: 1.4 s for
// 5,000 trials' commits, 0.65 s without). A PASSIVE checkpoint on another connection copies the
// same pages without blocking the writer, so the writer's own automatic checkpoint is only a
// backstop for a log the worker cannot keep up with. The driver starts the worker once the log
// is large (sqlite-driver.ts, WORKER_START_PAGES): a smaller one is checkpointed when the store closes.

import { createRequire } from 'node:module';
import type { Worker } from 'node:worker_threads';

/** How often the worker checkpoints (ms); a checkpoint with nothing to copy costs a few microseconds. */
const INTERVAL_MS = 100;
/** The writer's own automatic checkpoint (pages): only reached when the worker falls behind. */
export const BACKSTOP_PAGES = 40_000;

// The worker as a script (eval): it runs from the TypeScript sources in tests and from dist/ alike.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 0');
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.postMessage('closed');
});
`;

/** A worker thread checkpointing one SQLite file's WAL until stopped. */
export class WalCheckpointer {
  readonly #worker: Worker;
  #stopped: Promise<void> | undefined;

  /** `onFailure`: the worker could not run (the writer then checkpoints as before). */
  constructor(path: string, onFailure: () => void) {
    const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
    // node:worker_threads loaded when a checkpointer starts: a store that only reads starts none.
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path, sqlite, intervalMs: INTERVAL_MS } });
    // A checkpoint that cannot run is the writer's job again: never the run's failure.
    this.#worker.on('error', onFailure);
    this.#worker.unref();
  }

  /** Close the worker's connection (before the writer's: the last connection to close removes the WAL). */
  stop(): Promise<void> {
    this.#stopped ??= new Promise<void>((resolve) => {
      const done = () => {
        void this.#worker.terminate().finally(resolve);
      };
      // Referenced until it has closed (it is unreferenced while idle): otherwise a process with
      // nothing else to do exits before the reply, and its top-level await never settles.
      this.#worker.ref();
      this.#worker.once('message', done);
      this.#worker.once('exit', () => resolve());
      this.#worker.postMessage('stop');
    });
    return this.#stopped;
  }
}
