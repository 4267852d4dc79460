// Audit: the audit reports (HTML) found beside the store, opened from the run.

import { getRuns, isStatic } from '../data.js';
import type { Route } from '../route.js';
import { useData } from '../use-data.js';

export function AuditView({ route, stamp }: { route: Route; stamp: string }) {
  const run = useData(getRuns, [stamp]).data?.find((r) => r.id === route.runId);
  if (!run) return <p class="muted">loading...</p>;
  if (!run.audits.length)
    return (
      <p>
        No audit report beside this store. Write one with <code>mindscope audit ... --out audit.html</code> in the store's folder, and it
        shows here.
      </p>
    );
  return (
    <div>
      <h3>Audit reports</h3>
      <ul>
        {run.audits.map((f) => (
          <li key={f}>
            <a href={isStatic ? `audit/${encodeURIComponent(f)}` : `files/audit/${encodeURIComponent(f)}`} target="_blank" rel="noreferrer">
              {f}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
