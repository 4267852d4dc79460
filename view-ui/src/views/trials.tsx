// Trials: one page of a run's trials at a time, filtered, searched and sorted by the API (so a
// run of 100,000 trials stays fast); the filters live in the URL.

import { useEffect, useState } from 'preact/hooks';
import { getFacets, getTrials } from '../data.js';
import { href, type Route } from '../route.js';
import { subjectNamed } from '../subjects.js';
import { useData } from '../use-data.js';

const PAGE = 50;

function setParam(route: Route, name: string, value: string): void {
  const p = new URLSearchParams(route.params);
  if (value) p.set(name, value);
  else p.delete(name);
  // Any other change starts the list again from its first page.
  for (const paging of ['after', 'before', 'start']) p.delete(paging);
  location.hash = href('trials', route.runId, p);
}

/** Another page: the cursor of the page (after the last row shown or before the first) and where it starts. */
function turnPage(route: Route, cursor: 'after' | 'before', value: string, start: number): void {
  const p = new URLSearchParams(route.params);
  p.delete(cursor === 'after' ? 'before' : 'after');
  p.set(cursor, value);
  if (start > 0) p.set('start', String(start));
  else p.delete('start');
  location.hash = href('trials', route.runId, p);
}

function Select({
  route,
  name,
  label,
  options,
  value,
}: {
  route: Route;
  name: string;
  label: string;
  options: Array<[string, string]>;
  value?: string;
}) {
  return (
    <label>
      {label}
      <select name={name} value={value ?? route.params.get(name) ?? ''} onChange={(e) => setParam(route, name, e.currentTarget.value)}>
        <option value="">all</option>
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

export function TrialsView({ route, stamp }: { route: Route; stamp: string }) {
  const { runId, params } = route;
  const facets = useData(() => getFacets(runId), [runId, stamp]).data;
  const query = new URLSearchParams(params);
  query.delete('start');
  query.set('limit', String(PAGE));
  const started = performance.now();
  const { data, error } = useData(() => getTrials(runId, query), [runId, params.toString(), stamp]);
  const [search, setSearch] = useState(params.get('q') ?? '');
  useEffect(() => setSearch(params.get('q') ?? ''), [params.get('q')]);
  useEffect(() => {
    if (data) document.body.dataset.trialsLoaded = `${params.toString()}|${Math.round(performance.now() - started)}`;
  }, [data]);
  // Where the page starts in the list (shown only: pages are read by cursor).
  const start = Number(params.get('start') ?? 0);
  const sortBy = (col: string) => {
    const p = new URLSearchParams(params);
    for (const paging of ['after', 'before', 'start']) p.delete(paging);
    p.set('sort', col);
    if (params.get('sort') === col && params.get('desc') !== '1') p.set('desc', '1');
    else p.delete('desc');
    location.hash = href('trials', runId, p);
  };
  const open = (r: { subjectId: string; suite: string; itemId: string; replicate: number }) =>
    href('trial', runId, { subject: r.subjectId, suite: r.suite, item: r.itemId, replicate: String(r.replicate) });
  const Th = ({ col, children }: { col: string; children: string }) => (
    <th>
      <button type="button" onClick={() => sortBy(col)}>
        {children}
        {params.get('sort') === col ? (params.get('desc') === '1' ? ' \u25bc' : ' \u25b2') : ''}
      </button>
    </th>
  );
  return (
    <div>
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setParam(route, 'q', search);
        }}
      >
        <Select
          route={route}
          name="subject"
          label="subject"
          options={(facets?.subjects ?? []).map((s) => [s.id, s.spec])}
          value={subjectNamed(facets?.subjects ?? [], params.get('subject') ?? '')?.id}
        />
        <Select route={route} name="suite" label="suite" options={(facets?.suites ?? []).map((s) => [s, s])} />
        <Select route={route} name="category" label="category" options={(facets?.categories ?? []).map((s) => [s, s])} />
        <Select route={route} name="label" label="original label" options={(facets?.originalLabels ?? []).map((s) => [s, s])} />
        <Select
          route={route}
          name="outcome"
          label="outcome"
          options={[
            ['correct', 'correct'],
            ['incorrect', 'incorrect'],
            ['failed', 'failed (error)'],
          ]}
        />
        <Select
          route={route}
          name="parse"
          label="parse failure"
          options={[
            ['yes', 'yes'],
            ['no', 'no'],
          ]}
        />
        <Select
          route={route}
          name="disagree"
          label="judges disagree"
          options={[
            ['yes', 'yes'],
            ['no', 'no'],
          ]}
        />
        <Select route={route} name="replicate" label="replicate" options={(facets?.replicates ?? []).map((r) => [String(r), String(r)])} />
        <label>
          search prompts and replies
          <input name="q" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} placeholder="text, then Enter" />
        </label>
      </form>
      {error && <p class="error">{error}</p>}
      {data && (
        <>
          <div class="pager">
            <span class="total">{data.total} trials</span>
            <button
              type="button"
              disabled={data.prev === null}
              onClick={() => data.prev !== null && turnPage(route, 'before', data.prev, Math.max(0, start - PAGE))}
            >
              previous
            </button>
            <span>
              {data.rows.length ? start + 1 : 0}-{start + data.rows.length}
            </span>
            <button
              type="button"
              disabled={data.next === null}
              onClick={() => data.next !== null && turnPage(route, 'after', data.next, start + data.rows.length)}
            >
              next
            </button>
          </div>
          <table class="trials">
            <thead>
              <tr>
                <Th col="subject">subject</Th>
                <Th col="item">item</Th>
                <th>input</th>
                <th>answer</th>
                <th>gold</th>
                <th>rep</th>
                <th>category</th>
                <th>original label</th>
                <Th col="score">score</Th>
                <th>parse</th>
                <th>scorers</th>
                <Th col="latency">latency ms</Th>
                <Th col="cost">cost</Th>
                <Th col="finished">finished</Th>
              </tr>
            </thead>
            <tbody>
              {data.rows.map((r) => (
                <tr
                  key={`${r.subjectId}/${r.suite}/${r.itemId}/${r.replicate}`}
                  class="clickable"
                  onClick={() => {
                    location.hash = open(r);
                  }}
                >
                  <td>{r.spec}</td>
                  <td>
                    <a href={open(r)} class="mono">
                      {r.suite}/{r.itemId}
                    </a>
                  </td>
                  <td class="text input" title={r.input ?? ''}>
                    {r.input}
                  </td>
                  <td class="text answer" title={r.answer ?? ''}>
                    {r.answer}
                  </td>
                  <td class="text gold" title={r.gold ?? ''}>
                    {r.gold}
                  </td>
                  <td class="num">{r.replicate}</td>
                  <td>{r.category}</td>
                  <td class="label">{r.originalLabel}</td>
                  <td class="num">
                    {r.status === 'failed' ? (
                      <span class="bad">error</span>
                    ) : (
                      <span class={(r.score ?? 0) >= 1 ? 'ok' : 'bad'}>{r.score}</span>
                    )}
                  </td>
                  <td>{r.parseFailed ? <span class="bad">failed</span> : ''}</td>
                  <td class="num">
                    {r.scorers}
                    {r.judgesDisagree ? ' (judges disagree)' : ''}
                  </td>
                  <td class="num">
                    {Math.round(r.latencyMs)}
                    {r.batchLatencyMs > 0 ? ` (batch wait ${Math.round(r.batchLatencyMs / 1000)} s)` : ''}
                  </td>
                  <td class="num">{r.costUsd ? r.costUsd.toFixed(5) : ''}</td>
                  <td class="mono">{r.finishedAt.slice(0, 19)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </div>
  );
}
