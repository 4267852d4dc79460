// A run's exports as text (its trials as JSONL, its Inspect logs by file name), for tests that
// check a store exports the same bytes after a migration or a copy.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportInspectLogs, exportTrials, openStore } from '../../src/index.js';
import type { SqlStore } from '../../src/store/index.js';

export interface RunExports {
  jsonl: string;
  logs: Record<string, string>;
}

/** A folder's `trials.jsonl` and the logs in its `inspect/`, as text. */
export function readExports(folder: string): RunExports {
  const inspect = join(folder, 'inspect');
  return {
    jsonl: readFileSync(join(folder, 'trials.jsonl'), 'utf8'),
    logs: Object.fromEntries(readdirSync(inspect).map((f) => [f, readFileSync(join(inspect, f), 'utf8')])),
  };
}

/** Open the store, export the run into a new folder under `scratch`, and read it back; with the store's schema version. */
export async function exportRun(location: string, run: string, scratch: string): Promise<{ exports: RunExports; schemaVersion: number }> {
  const store = await openStore(location);
  const out = mkdtempSync(join(scratch, 'out-'));
  let schemaVersion: number;
  try {
    schemaVersion = await (store as SqlStore).schemaVersion();
    await exportTrials(store, run, join(out, 'trials.jsonl'));
    await exportInspectLogs(store, run, join(out, 'inspect'));
  } finally {
    await store.close();
  }
  return { exports: readExports(out), schemaVersion };
}
