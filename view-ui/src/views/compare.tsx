// Compare: two or more subjects on the same items, with `mindscope compare`'s paired statistics
// and the items split by who got them right.

import { useState } from 'preact/hooks';
import { getCompare, getRuns } from '../data.js';
import { href, type Route } from '../route.js';
import { subjectNamed } from '../subjects.js';
import { useData } from '../use-data.js';

const pc = (x: number) => (x * 100).toFixed(1);

export function CompareView({ route, stamp }: { route: Route; stamp: string }) {
  const { runId, params } = route;
  const named = params.getAll('subject');
  const replicate = Number(params.get('replicate') ?? 0);
  const runs = useData(getRuns, [stamp]).data;
  const run = runs?.find((r) => r.id === runId);
  // The URL may name subjects by spec, short name or id: the boxes tick their specs.
  const chosen = named.map((n) => subjectNamed(run?.subjects ?? [], n)?.spec ?? n);
  const { data, error } = useData(() => getCompare(runId, named, replicate), [runId, params.toString(), stamp]);
  const [show, setShow] = useState<'onlyA' | 'onlyB' | 'bothWrong' | 'bothRight'>('onlyA');
  const toggle = (spec: string) => {
    const next = chosen.includes(spec) ? chosen.filter((s) => s !== spec) : [...chosen, spec];
    const p = new URLSearchParams();
    for (const s of next) p.append('subject', s);
    location.hash = href('compare', runId, p);
  };
  const [a, b] = data?.subjects ?? [];
  const shown = (data?.items ?? []).filter((it) => {
    const [x, y] = it.values;
    if (x == null || y == null) return false;
    if (show === 'onlyA') return x >= 1 && y < 1;
    if (show === 'onlyB') return y >= 1 && x < 1;
    if (show === 'bothRight') return x >= 1 && y >= 1;
    return x < 1 && y < 1;
  });
  const subjectId = (spec: string | undefined) => run?.subjects.find((s) => s.spec === spec)?.id ?? '';
  return (
    <div class="compare">
      <div class="filters">
        {run?.subjects.map((s) => (
          <label key={s.id} style="flex-direction: row; gap: 4px">
            <input type="checkbox" checked={chosen.includes(s.spec)} onChange={() => toggle(s.spec)} />
            {s.spec}
          </label>
        ))}
        <span class="muted">(none ticked: every subject)</span>
      </div>
      {error && <p class="error">{error}</p>}
      {data && (
        <>
          <h3>
            {a} (A) vs {b} (B), replicate {data.replicate}
          </h3>
          <div class="counts">
            <div>
              <b class="both-right">{data.counts.bothRight}</b>both right
            </div>
            <div>
              <b class="both-wrong">{data.counts.bothWrong}</b>both wrong
            </div>
            <div>
              <b class="only-a">{data.counts.onlyA}</b>only A right
            </div>
            <div>
              <b class="only-b">{data.counts.onlyB}</b>only B right
            </div>
            <div>
              <b>{data.counts.bothRight + data.counts.bothWrong}</b>agreements
            </div>
            <div>
              <b>{data.counts.onlyA + data.counts.onlyB}</b>disagreements
            </div>
          </div>
          <table class="paired">
            <thead>
              <tr>
                <th>A</th>
                <th>B</th>
                <th>group</th>
                <th class="num">n</th>
                <th class="num">acc A</th>
                <th class="num">acc B</th>
                <th class="num">A - B</th>
                <th>95% CI</th>
                <th class="num">only A / only B</th>
                <th class="num">McNemar p</th>
                <th class="num">Holm p</th>
                <th class="num">MDD</th>
              </tr>
            </thead>
            <tbody>
              {data.cells.map((c, i) => (
                <tr key={i}>
                  <td>{c.a}</td>
                  <td>{c.b}</td>
                  <td>{c.group}</td>
                  <td class="num">{c.n}</td>
                  <td class="num">{pc(c.accuracyA)}</td>
                  <td class="num">{pc(c.accuracyB)}</td>
                  <td class="num">{pc(c.difference)}</td>
                  <td>{c.note ? `- (${c.note})` : `[${pc(c.lower)}, ${pc(c.upper)}]`}</td>
                  <td class="num">
                    {c.onlyA}/{c.onlyB}
                  </td>
                  <td class="num">{c.pMcnemar.toPrecision(3)}</td>
                  <td class="num">{c.pHolm.toPrecision(3)}</td>
                  <td class="num">{c.minimumDetectableDifference === null ? '-' : pc(c.minimumDetectableDifference)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p class="muted">
            percentage points; 95% CI: Newcombe's hybrid score interval for paired proportions; MDD: the smallest difference this many
            items detects at alpha 0.05 with power 0.8
          </p>
          <div class="filters">
            <label>
              items
              <select value={show} onChange={(e) => setShow(e.currentTarget.value as typeof show)}>
                <option value="onlyA">only A right</option>
                <option value="onlyB">only B right</option>
                <option value="bothWrong">both wrong</option>
                <option value="bothRight">both right</option>
              </select>
            </label>
          </div>
          <table class="compare-items">
            <tbody>
              {shown.slice(0, 200).map((it) => (
                <tr key={`${it.suite}/${it.itemId}`}>
                  <td class="mono">
                    {it.suite}/{it.itemId}
                  </td>
                  <td>{it.category}</td>
                  {[a, b].map((spec) => (
                    <td key={spec}>
                      <a href={href('trial', runId, { subject: subjectId(spec), suite: it.suite, item: it.itemId, replicate: String(data.replicate) })}>
                        {spec}
                      </a>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          {shown.length > 200 && <p class="muted">first 200 of {shown.length}</p>}
        </>
      )}
    </div>
  );
}
