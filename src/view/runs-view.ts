// The Runs view: every run in the store with what it was asked to do and how far it got.

import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { trialBrowser, type Store } from '../store/index.js';
import type { RunView } from './api-types.js';

/** Audit reports (HTML) in a folder: files whose names start with "audit" or contain "-audit". */
export function auditFiles(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((f) => /\.html$/i.test(f) && /(^|[-_.])audit/i.test(f))
      .sort();
  } catch {
    return [];
  }
}

/** The folder audit reports are looked for in: the SQLite file's; none for a database server. */
export function storeFolder(store: Store): string | undefined {
  return store.backend === 'sqlite' && store.location !== ':memory:' ? dirname(store.location) : undefined;
}

/** Every run with its configuration, subjects, suites, progress and cost, newest first. */
export async function runsView(store: Store): Promise<RunView[]> {
  const browser = trialBrowser(store);
  const folder = storeFolder(store);
  const audits = folder ? auditFiles(folder) : [];
  const runs = await store.listRuns();
  const out: RunView[] = [];
  for (const run of runs.reverse()) {
    const status = await store.status(run.id);
    const version = run.config.toolVersion ?? run.spec?.toolVersion;
    out.push({
      id: run.id,
      createdAt: run.createdAt,
      toolVersion: typeof version === 'string' ? version : null,
      config: run.config,
      subjects: await store.runSubjects(run.id),
      suites: [...new Set(status.map((s) => s.suite))].sort(),
      status,
      usage: await store.usage(run.id),
      activity: await browser.activity(run.id),
      rubrics: await store.pinnedRubrics(run.id),
      audits,
    });
  }
  return out;
}
