// Where the page gets its data: the viewer's API, or (static export) the snapshot scripts
// written beside the page, filtered here.

import type { CompareView, RunView, TrialFacets, TrialPage, TrialRowView, TrialView, ViewerInfo } from '../../src/view/api-types.js';
import { subjectNamed } from './subjects.js';

declare global {
  interface Window {
    __MINDSCOPE_DATA__?: Record<string, unknown>;
  }
}

export interface TrialKeyParams {
  subject: string;
  suite: string;
  item: string;
  replicate: number;
}

/** The page is a static export when loaded from file:// or when it carries its snapshot. */
const STATIC = document.querySelector('meta[name="mindscope-static"]') !== null;

function snapshotFile(name: string): string {
  return `data/${name.replace(/[^A-Za-z0-9._-]/g, (c) => `~${c.charCodeAt(0).toString(16)}~`)}.js`;
}

const loading = new Map<string, Promise<unknown>>();
/** Load a snapshot script once; it stores its value under its name. */
function snapshot<T>(name: string): Promise<T> {
  let p = loading.get(name);
  if (!p) {
    p = new Promise((resolve, reject) => {
      window.__MINDSCOPE_DATA__ ??= {};
      const s = document.createElement('script');
      s.src = snapshotFile(name);
      s.onload = () => resolve(window.__MINDSCOPE_DATA__?.[name]);
      s.onerror = () => reject(new Error(`${name}: not in this export`));
      document.head.appendChild(s);
    });
    loading.set(name, p);
  }
  return p as Promise<T>;
}

async function api<T>(path: string, params?: URLSearchParams): Promise<T> {
  const res = await fetch(`api/${path}${params && [...params].length ? `?${params}` : ''}`);
  const body = await res.json();
  if (!res.ok) throw new Error(body.error ?? res.statusText);
  return body as T;
}

const run = (id: string) => encodeURIComponent(id);

export const isStatic = STATIC;

/** What a plugin panel's script exports as default: it draws the panel's data into the element. */
type DrawPanel = (element: HTMLElement, data: unknown) => void;

const scripts = new Map<string, Promise<DrawPanel>>();
/**
 * A plugin panel's drawing function, from its script (a URL relative to the page), imported once.
 * A static export holds the script's code as a snapshot too: a page opened from file:// cannot
 * import a file, but can import the code as a blob.
 */
export function loadPanelScript(script: string): Promise<DrawPanel> {
  let p = scripts.get(script);
  if (!p) {
    p = (async () => {
      const url = STATIC
        ? URL.createObjectURL(new Blob([await snapshot<string>(script)], { type: 'text/javascript' }))
        : new URL(script, document.baseURI).href;
      const mod = (await import(/* @vite-ignore */ url)) as { default?: unknown };
      if (typeof mod.default !== 'function') throw new Error('the panel script has no default export drawing the panel');
      return mod.default as DrawPanel;
    })();
    scripts.set(script, p);
  }
  return p;
}

export function getInfo(): Promise<ViewerInfo> {
  return STATIC ? snapshot('info') : api('info');
}
export function getRuns(): Promise<RunView[]> {
  return STATIC ? snapshot('runs') : api('runs');
}
export function getFacets(runId: string): Promise<TrialFacets> {
  return STATIC ? snapshot(`facets/${runId}`) : api(`runs/${run(runId)}/facets`);
}

/** The subjects of a run's rows (id and spec), each once. */
function subjectsOf(rows: readonly TrialRowView[]): Array<{ id: string; spec: string }> {
  return [...new Map(rows.map((r) => [r.subjectId, { id: r.subjectId, spec: r.spec }])).values()];
}

/** The static export's filter: the API's semantics, search over subject, item, input, answer and error only. */
function filterRows(rows: TrialRowView[], q: URLSearchParams): TrialRowView[] {
  const eq = (name: string, v: string | number | null) => !q.get(name) || String(v) === q.get(name);
  const text = q.get('q')?.toLowerCase().trim();
  const subject = q.get('subject') ? (subjectNamed(subjectsOf(rows), q.get('subject')!)?.id ?? null) : undefined;
  return rows.filter(
    (r) =>
      (subject === undefined || r.subjectId === subject) &&
      eq('suite', r.suite) &&
      eq('category', r.category) &&
      eq('label', r.originalLabel) &&
      eq('replicate', r.replicate) &&
      (q.get('outcome') !== 'failed' || r.status === 'failed') &&
      (q.get('outcome') !== 'correct' || (r.status === 'done' && (r.score ?? 0) >= 1)) &&
      (q.get('outcome') !== 'incorrect' || (r.status === 'done' && (r.score ?? 1) < 1)) &&
      (!q.get('parse') || (r.status === 'done' && r.parseFailed === (q.get('parse') === 'yes'))) &&
      (!q.get('disagree') || r.judgesDisagree === (q.get('disagree') === 'yes')) &&
      (!text || `${r.spec}\n${r.itemId}\n${r.input ?? ''}\n${r.answer ?? ''}\n${r.error ?? ''}`.toLowerCase().includes(text)),
  );
}

const SORT_KEYS: Record<string, (r: TrialRowView) => string | number> = {
  item: (r) => `${r.suite}\u0000${r.itemId}\u0000${String(r.replicate).padStart(6, '0')}\u0000${r.spec}`,
  subject: (r) => `${r.spec}\u0000${r.suite}\u0000${r.itemId}\u0000${String(r.replicate).padStart(6, '0')}`,
  score: (r) => r.score ?? -1,
  latency: (r) => r.latencyMs,
  cost: (r) => r.costUsd,
  finished: (r) => r.finishedAt,
};

export async function getTrials(runId: string, q: URLSearchParams): Promise<TrialPage> {
  if (!STATIC) return api(`runs/${run(runId)}/trials`, q);
  const all = await snapshot<TrialRowView[]>(`trials/${runId}`);
  const indexed = all.map((r, n) => ({ r, n }));
  const kept = new Set(filterRows(all, q));
  let rows = indexed.filter((x) => kept.has(x.r));
  const key = SORT_KEYS[q.get('sort') ?? ''];
  if (key) rows = [...rows].sort((a, b) => (key(a.r) < key(b.r) ? -1 : key(a.r) > key(b.r) ? 1 : a.n - b.n));
  if (q.get('desc') === '1') rows.reverse();
  // A snapshot's cursors are positions in the sorted list: `after` the first row of the next
  // page, `before` the end of the previous one.
  const limit = Number(q.get('limit') ?? 50);
  const before = q.get('before');
  const after = q.get('after');
  const end = before !== null ? Number(before) : Math.min(rows.length, (after !== null ? Number(after) : 0) + limit);
  const start = before !== null ? Math.max(0, end - limit) : after !== null ? Number(after) : 0;
  return {
    total: rows.length,
    rows: rows.slice(start, end).map((x) => x.r),
    next: end < rows.length ? String(end) : null,
    prev: start > 0 ? String(start) : null,
  };
}

export async function getTrial(runId: string, k: TrialKeyParams): Promise<TrialView> {
  if (!STATIC) {
    return api(`runs/${run(runId)}/trial`, new URLSearchParams({ subject: k.subject, suite: k.suite, item: k.item, replicate: String(k.replicate) }));
  }
  const all = await snapshot<TrialRowView[]>(`trials/${runId}`);
  const subject = subjectNamed(subjectsOf(all), k.subject)?.id;
  const n = all.findIndex((r) => r.subjectId === subject && r.suite === k.suite && r.itemId === k.item && r.replicate === k.replicate);
  if (n < 0) throw new Error('no such trial in this export');
  return snapshot(`trial/${runId}/${n}`);
}

export async function getCompare(runId: string, subjects: string[], replicate: number): Promise<CompareView> {
  if (!STATIC) {
    const p = new URLSearchParams({ replicate: String(replicate) });
    for (const s of subjects) p.append('subject', s);
    return api(`runs/${run(runId)}/compare`, p);
  }
  const all = await snapshot<CompareView>(`compare/${runId}`);
  const runView = (await getRuns()).find((r) => r.id === runId);
  const named = subjects.map((n) => subjectNamed(runView?.subjects ?? [], n)?.spec ?? n);
  const chosen = named.length >= 2 ? named : all.subjects;
  const cols = chosen.map((s) => all.subjects.indexOf(s));
  const counts = { bothRight: 0, bothWrong: 0, onlyA: 0, onlyB: 0, missing: 0 };
  const items = all.items.map((it) => {
    const values = cols.map((c) => it.values[c] ?? null);
    const [a, b] = values;
    if (a == null || b == null) counts.missing++;
    else if (a >= 1 && b >= 1) counts.bothRight++;
    else if (a >= 1) counts.onlyA++;
    else if (b >= 1) counts.onlyB++;
    else counts.bothWrong++;
    return { ...it, values };
  });
  const cells = all.cells.filter((c) => chosen.includes(c.a) && chosen.includes(c.b));
  return { subjects: chosen, replicate: all.replicate, cells, items, counts };
}
