// `mindscope view --export DIR`: the page and a snapshot of what the API would answer, as
// script files the page loads instead of calling the API (scripts, not JSON fetched, so that the
// export opens from file:// too). Trial lists are filtered in the page; search there covers
// subjects, items and errors, not transcripts. Plugin panel scripts are copied beside the page,
// and their code kept as snapshots too: a page opened from file:// cannot import a file.

import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PluginManifest } from '../app/index.js';
import { pluginManifests } from '../builtin-studies.js';
import { makeDirectory, mindscopeVersion, refuseOverwrite } from '../core/index.js';
import { resolveRunId } from '../run-report.js';
import { openStoreForReading, trialBrowser } from '../store/index.js';
import type { ViewerInfo } from './api-types.js';
import { storeStamp } from './api.js';
import { compareView } from './compare-view.js';
import { pageFolder } from './page-files.js';
import { servedPanels } from './panels.js';
import { reportFiles, runsView, storeFolder, viewerReportKinds } from './runs-view.js';
import { trialRowsView } from './trial-rows-view.js';
import { trialView } from './trial-view.js';

/** The name a snapshot is stored under (the page computes the same). */
function snapshotFile(name: string): string {
  return `data/${name.replace(/[^A-Za-z0-9._-]/g, (c) => `~${c.charCodeAt(0).toString(16)}~`)}.js`;
}

function writeSnapshot(dir: string, name: string, value: unknown): void {
  writeFileSync(join(dir, snapshotFile(name)), `window.__MINDSCOPE_DATA__[${JSON.stringify(name)}]=${JSON.stringify(value)};\n`);
}

/**
 * Write the static viewer of the store at `db` to `dir`; returns how many runs and trials it
 * holds. Trials are drawn by the viewer panels of the built-in studies and of `plugins`.
 * `refuseEmpty`: a store without runs is refused as `report` refuses it, before anything is written.
 */
export async function exportViewer(
  db: string | undefined,
  dir: string,
  opts: { force?: boolean; plugins?: readonly PluginManifest[]; refuseEmpty?: boolean } = {},
): Promise<{ runs: number; trials: number }> {
  // As `report` does: an earlier export (or anything else) in the folder is not replaced unasked.
  refuseOverwrite(join(dir, 'index.html'), opts.force, '--export');
  const store = await openStoreForReading(db);
  try {
    if (opts.refuseEmpty) await resolveRunId(store);
    cpSync(pageFolder(), dir, { recursive: true });
    // The export's page: marked static, and its script a classic one (module scripts do not load from file://).
    const index = join(dir, 'index.html');
    writeFileSync(
      index,
      readFileSync(index, 'utf8')
        .replace('<head>', '<head>\n    <meta name="mindscope-static" content="1" />')
        .replace(/<script type="module" crossorigin src=/g, '<script defer src='),
    );
    makeDirectory(join(dir, 'data'));
    const manifests = pluginManifests(opts.plugins);
    const panels = servedPanels(manifests);
    const reports = viewerReportKinds(manifests);
    for (const [url, file] of panels.scripts) {
      makeDirectory(join(dir, 'plugin-panels'));
      cpSync(file, join(dir, url));
      writeSnapshot(dir, url, readFileSync(file, 'utf8'));
    }
    writeSnapshot(dir, 'info', {
      version: mindscopeVersion(),
      location: store.location,
      backend: store.backend,
      stamp: await storeStamp(store),
      static: true,
    } satisfies ViewerInfo);
    const runs = await runsView(store, reports);
    writeSnapshot(dir, 'runs', runs);
    const folder = storeFolder(store);
    if (folder)
      for (const kind of reports)
        for (const f of reportFiles(folder, kind)) {
          makeDirectory(join(dir, kind.kind));
          cpSync(join(folder, f), join(dir, kind.kind, f));
        }
    const browser = trialBrowser(store);
    let trials = 0;
    for (const run of runs) {
      writeSnapshot(dir, `facets/${run.id}`, await browser.facets(run.id));
      const rows = [];
      for (let after: string | undefined; ; ) {
        const page = await browser.page({ runId: run.id, limit: 1000, ...(after !== undefined && { after }) });
        rows.push(...page.rows);
        if (page.next === null) break;
        after = page.next;
      }
      writeSnapshot(dir, `trials/${run.id}`, await trialRowsView(store, rows));
      for (const [n, r] of rows.entries()) writeSnapshot(dir, `trial/${run.id}/${n}`, await trialView(store, r, panels));
      trials += rows.length;
      if (run.subjects.length >= 2) {
        try {
          writeSnapshot(dir, `compare/${run.id}`, await compareView(store, run.id, undefined, 0));
        } catch {
          // A run with fewer than two scored subjects has nothing to compare.
        }
      }
    }
    return { runs: runs.length, trials };
  } finally {
    await store.close();
  }
}
