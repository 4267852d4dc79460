// The run report's probe section: the summary tables of the run's probe trials.

import { escapeHtml } from '../../../report/index.js';
import type { Store } from '../../../store/index.js';
import { probeSummary } from '../analysis/index.js';
import { probeTables } from './probe-tables.js';

/** The probe section of a run's report (none when the run has no probe trial). */
export async function probeReportSection(store: Store, runId: string): Promise<string | undefined> {
  const tables = probeTables(await probeSummary(store, runId));
  if (tables.length === 0) return undefined;
  return tables
    .map(
      (t) =>
        `<h3>${escapeHtml(t.title)}</h3>${t.note ? `<p class="note">${escapeHtml(t.note)}</p>` : ''}<table class="probe"><thead><tr>${t.header
          .map((h) => `<th>${escapeHtml(h)}</th>`)
          .join(
            '',
          )}</tr></thead><tbody>${t.rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`,
    )
    .join('\n');
}
