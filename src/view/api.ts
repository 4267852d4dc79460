// The viewer's JSON API (Hono) over a store opened for reading. Every answer is computed from
// the store at request time, so the page sees trials as they land; /api/info's stamp changes
// when they do, which the page polls to refresh.

import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { matchSubject, type ViewerReports } from '../app/index.js';
import { pluginManifests } from '../builtin-studies.js';
import { MindscopeError } from '../core/index.js';
import { trialBrowser, type Store, type TrialQuery, type TrialSort } from '../store/index.js';
import type { TrialPage, ViewerInfo } from './api-types.js';
import { compareView } from './compare-view.js';
import { mindscopeVersion } from '../core/index.js';
import { servedPanels, type ServedPanels } from './panels.js';
import { runsView, viewerReportKinds } from './runs-view.js';
import { trialRowsView } from './trial-rows-view.js';
import { trialView } from './trial-view.js';

const SORTS: readonly TrialSort[] = ['order', 'item', 'subject', 'score', 'latency', 'cost', 'finished'];

/** Read a trial query from URL parameters (the page's filter bar). */
export function trialQueryOf(runId: string, p: URLSearchParams): TrialQuery {
  const text = (name: string) => p.get(name) || undefined;
  const int = (name: string) => {
    const v = p.get(name);
    if (v === null || v === '') return undefined;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new MindscopeError(`?${name}=${v}: expected a whole number`);
    return n;
  };
  const bool = (name: string) => (p.get(name) === 'yes' ? true : p.get(name) === 'no' ? false : undefined);
  const outcome = p.get('outcome');
  const sort = p.get('sort') ?? 'order';
  if (!SORTS.includes(sort as TrialSort)) throw new MindscopeError(`?sort=${sort}: expected one of ${SORTS.join(', ')}`);
  return {
    runId,
    subjectId: text('subject'),
    suite: text('suite'),
    category: text('category'),
    originalLabel: text('label'),
    outcome: outcome === 'correct' || outcome === 'incorrect' || outcome === 'failed' ? outcome : undefined,
    parseFailed: bool('parse'),
    judgeDisagreement: bool('disagree'),
    replicate: int('replicate'),
    search: text('q'),
    sort: sort as TrialSort,
    descending: p.get('desc') === '1',
    after: text('after'),
    before: text('before'),
    limit: int('limit') ?? 50,
  };
}

/** A stamp that changes when trials land or runs are added. */
export function storeStamp(store: Store): Promise<string> {
  return trialBrowser(store).changeStamp();
}

/**
 * Answers that only change when trials land, kept while the store's stamp stays the same
 * (checked at most once a second): facets and counts of a finished 100,000-trial run are
 * computed once, not on every click.
 */
class StampCache {
  #stamp = '';
  #checkedAt = 0;
  readonly #values = new Map<string, unknown>();

  constructor(private readonly store: Store) {}

  async stamp(): Promise<string> {
    if (Date.now() - this.#checkedAt > 1000) {
      const stamp = await storeStamp(this.store);
      this.#checkedAt = Date.now();
      if (stamp !== this.#stamp) this.#values.clear();
      this.#stamp = stamp;
    }
    return this.#stamp;
  }

  async get<T>(key: string, compute: () => Promise<T>): Promise<T> {
    await this.stamp();
    if (this.#values.has(key)) return this.#values.get(key) as T;
    const value = await compute();
    if (this.#values.size > 200) this.#values.clear();
    this.#values.set(key, value);
    return value;
  }
}

/**
 * The API routes; `files` serves a report written beside the store by kind and name (undefined
 * when the store has no folder); `panels` are the plugins' viewer panels and `reports` the kinds
 * of reports they write (the built-in studies' by default); panel scripts are served as
 * plugin-panels/N.js.
 */
export function viewerApi(
  store: Store,
  files?: (kind: string, name: string) => Promise<Response | undefined>,
  panels: ServedPanels = servedPanels(pluginManifests()),
  reports: readonly ViewerReports[] = viewerReportKinds(pluginManifests()),
): Hono {
  const app = new Hono();
  const cache = new StampCache(store);
  app.onError((err, c) =>
    c.json({ error: err instanceof MindscopeError ? err.message : String(err) }, err instanceof MindscopeError ? 400 : 500),
  );
  app.get('/api/info', async (c) =>
    c.json({
      version: mindscopeVersion(),
      location: store.location,
      backend: store.backend,
      stamp: await cache.stamp(),
      static: false,
    } satisfies ViewerInfo),
  );
  app.get('/api/runs', async (c) => c.json(await runsView(store, reports)));
  app.get('/api/runs/:run/facets', async (c) =>
    c.json(await cache.get(`facets\u0000${c.req.param('run')}`, () => trialBrowser(store).facets(c.req.param('run')))),
  );
  /** The subject a URL's `subject` names (spec, short name or id, as compare --subjects takes) among the run's. */
  const subjectOf = async (runId: string, name: string) => matchSubject(await store.runSubjects(runId), name, `?subject=${name}`);
  app.get('/api/runs/:run/trials', async (c) => {
    const q = trialQueryOf(c.req.param('run'), new URL(c.req.url).searchParams);
    if (q.subjectId !== undefined) q.subjectId = (await subjectOf(q.runId, q.subjectId)).id;
    const browser = trialBrowser(store);
    const { after: _a, before: _b, limit: _l, sort: _s, descending: _d, ...filters } = q;
    const total = await cache.get(`count\u0000${JSON.stringify(filters)}`, () => browser.count(q));
    const page = await browser.page(q);
    return c.json({ total, rows: await trialRowsView(store, page.rows), next: page.next, prev: page.prev } satisfies TrialPage);
  });
  app.get('/api/runs/:run/trial', async (c) => {
    const p = new URL(c.req.url).searchParams;
    const replicate = Number(p.get('replicate') ?? '0');
    const view = await trialView(
      store,
      {
        runId: c.req.param('run'),
        subjectId: (await subjectOf(c.req.param('run'), p.get('subject') ?? '')).id,
        suite: p.get('suite') ?? '',
        itemId: p.get('item') ?? '',
        replicate: Number.isInteger(replicate) ? replicate : 0,
      },
      panels,
    );
    return view ? c.json(view) : c.json({ error: 'no such trial' }, 404);
  });
  app.get('/api/runs/:run/compare', async (c) => {
    const p = new URL(c.req.url).searchParams;
    const runId = c.req.param('run');
    const subjects = await Promise.all(
      p
        .getAll('subject')
        .filter(Boolean)
        .map(async (name) => (await subjectOf(runId, name)).spec),
    );
    return c.json(await compareView(store, runId, subjects, Number(p.get('replicate') ?? '0') || 0));
  });
  app.get('/files/:kind/:name', async (c) => {
    const res = files ? await files(c.req.param('kind'), c.req.param('name')) : undefined;
    return res ?? c.json({ error: 'no such report' }, 404);
  });
  app.get('/plugin-panels/:name', (c) => {
    const file = panels.scripts.get(`plugin-panels/${c.req.param('name')}`);
    if (!file) return c.json({ error: 'no such panel script' }, 404);
    return new Response(new Uint8Array(readFileSync(file)), { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
  });
  return app;
}
