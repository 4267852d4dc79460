// The Runs view: every run in the store with what it was asked to do and how far it got.

import { readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { runOverview, type PluginManifest, type ViewerReports } from '../app/index.js';
import { trialBrowser, type Store } from '../store/index.js';
import type { RunView } from './api-types.js';

/** The kinds of reports the plugins in play write beside a store (see PluginManifest.viewerReports), the first declaration of a kind winning. */
export function viewerReportKinds(manifests: readonly PluginManifest[]): ViewerReports[] {
  const out = new Map<string, ViewerReports>();
  for (const m of manifests) for (const r of m.viewerReports ?? []) if (!out.has(r.kind)) out.set(r.kind, r);
  return [...out.values()];
}

/** The files of a kind of report in a folder, sorted (HTML files only: the viewer serves them as pages). */
export function reportFiles(folder: string, kind: ViewerReports): string[] {
  try {
    return readdirSync(folder)
      .filter((f) => /\.html$/i.test(f) && kind.match.test(f))
      .sort();
  } catch {
    return [];
  }
}

/** The folder reports are looked for in: the SQLite file's; none for a database server. */
export function storeFolder(store: Store): string | undefined {
  return store.backend === 'sqlite' && store.location !== ':memory:' ? dirname(store.location) : undefined;
}

/** Every run with its name, configuration, subjects, suites, progress, accuracy and cost, newest first. */
export async function runsView(store: Store, kinds: readonly ViewerReports[] = []): Promise<RunView[]> {
  const browser = trialBrowser(store);
  const folder = storeFolder(store);
  const reports = kinds.map((k) => ({ kind: k.kind, title: k.title, hint: k.hint ?? null, files: folder ? reportFiles(folder, k) : [] }));
  const runs = await store.listRuns();
  const out: RunView[] = [];
  for (const run of runs.reverse()) {
    const status = await store.status(run.id);
    const overview = await runOverview(store, run);
    const version = (await store.provenance(run.id)).at(-1)?.mindscope ?? run.config.toolVersion ?? run.spec?.toolVersion;
    out.push({
      id: run.id,
      name: overview.name,
      createdAt: run.createdAt,
      state: overview.state,
      toolVersion: typeof version === 'string' ? version : null,
      config: run.config,
      subjects: await store.runSubjects(run.id),
      suites: overview.suites,
      status,
      accuracy: overview.subjects.map((s) => ({ spec: s.spec, accuracy: s.accuracy, items: s.items })),
      usage: await store.usage(run.id),
      activity: await browser.activity(run.id),
      rubrics: await store.pinnedRubrics(run.id),
      reports,
    });
  }
  return out;
}
