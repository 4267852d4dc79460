// Reports: the HTML reports the studies wrote beside the store (e.g. audit reports), by kind,
// opened from the run. Which kinds there are comes from the plugins' manifests (viewerReports).

import { getRuns, isStatic } from '../data.js';
import type { Route } from '../route.js';
import { useData } from '../use-data.js';

export function ReportsView({ route, stamp }: { route: Route; stamp: string }) {
  const run = useData(getRuns, [stamp]).data?.find((r) => r.id === route.runId);
  if (!run) return <p class="muted">loading...</p>;
  if (!run.reports.length) return <p>No study in play writes reports beside a store.</p>;
  return (
    <div>
      {run.reports.map((r) => (
        <section key={r.kind}>
          <h3>{r.title}</h3>
          {r.files.length ? (
            <ul>
              {r.files.map((f) => (
                <li key={f}>
                  <a
                    href={`${isStatic ? '' : 'files/'}${r.kind}/${encodeURIComponent(f)}`}
                    target="_blank"
                    rel="noreferrer"
                  >
                    {f}
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <p>None beside this store. {r.hint ?? ''}</p>
          )}
        </section>
      ))}
    </div>
  );
}
