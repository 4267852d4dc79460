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

/**
 * A folder's `trials.jsonl` and the logs in its `inspect/`, as text, the logs as today's
 * `export inspect` writes the same trials: as the build that made the fixture wrote them, each
 * sample's metadata given the `attempts` and `truncated_calls` written since (the trial's, from
 * its row of the JSONL), after its `calls`, and nothing else changed.
 */
export function readExports(folder: string): RunExports {
  const inspect = join(folder, 'inspect');
  const jsonl = readFileSync(join(folder, 'trials.jsonl'), 'utf8');
  const counts = new Map<string, string>();
  for (const line of jsonl.split('\n')) {
    if (!line) continue;
    const t = JSON.parse(line) as { subject_id: string; item_hash: string; replicate: number; attempts: number; truncated_calls: number };
    counts.set(`${t.subject_id} ${t.item_hash} ${t.replicate}`, `,"attempts":${t.attempts},"truncated_calls":${t.truncated_calls}`);
  }
  const withCounts = (file: string, text: string): string => {
    const subject = /_(s-[0-9a-f]+)\.json$/.exec(file)?.[1];
    return text.replace(
      /("item_hash":"([0-9a-f]+)","replicate":(\d+),[^{}]*?"calls":\d+)\}/g,
      (_, head: string, hash: string, rep: string) => {
        const more = counts.get(`${subject} ${hash} ${rep}`);
        if (more === undefined) throw new Error(`${file}: no trial of ${subject} for item ${hash} #${rep} in trials.jsonl`);
        return `${head}${more}}`;
      },
    );
  };
  return {
    jsonl,
    logs: Object.fromEntries(readdirSync(inspect).map((f) => [f, withCounts(f, readFileSync(join(inspect, f), 'utf8'))])),
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
