// How a run was produced, for people: the report's Provenance section and the text of `status`.
// Records come from the store (app/provenance.ts writes them), one per invocation that differed.

import { escapeHtml } from './escape-html.js';

interface Suite {
  suite?: string;
  items?: number;
  itemsSha256?: string;
  dataset?: { id?: string; revision?: string | null; manifestSha256?: string } | null;
}
interface Template {
  suite?: string;
  template?: string;
  sha256?: string;
}

const short = (h: unknown) => (typeof h === 'string' ? h.slice(0, 12) : '-');

/** One provenance record as lines of text. */
export function provenanceLines(p: Record<string, unknown>): string[] {
  const lines = [
    `recorded ${String(p.recordedAt ?? '-')}: mindscope ${String(p.mindscope ?? '-')}, git ${p.gitCommit ? short(p.gitCommit) : 'none'}, Node ${String(p.node ?? '-')}, ${String(p.platform ?? '-')}`,
  ];
  for (const s of (p.suites as Suite[] | undefined) ?? [])
    lines.push(
      `  data ${s.suite}: ${s.items} items sha256 ${short(s.itemsSha256)}${s.dataset ? `; manifest ${s.dataset.id}@${s.dataset.revision ?? '-'} sha256 ${short(s.dataset.manifestSha256)}` : ''}`,
    );
  for (const t of (p.templates as Template[] | undefined) ?? [])
    lines.push(`  template ${t.suite}: ${t.template} sha256 ${short(t.sha256)}`);
  return lines;
}

/** The report's Provenance section (full hashes), or a note when the run has none recorded. */
export function renderProvenanceHtml(records: Array<Record<string, unknown>>): string {
  if (records.length === 0) return '<h2>Provenance</h2><p>No provenance recorded (a run made before mindscope recorded it).</p>';
  const rows = records
    .map((p) => {
      const suites = ((p.suites as Suite[] | undefined) ?? [])
        .map(
          (s) =>
            `${escapeHtml(String(s.suite))}: ${s.items} items <code>${escapeHtml(String(s.itemsSha256))}</code>${s.dataset ? `<br>manifest ${escapeHtml(`${s.dataset.id}@${s.dataset.revision ?? '-'}`)} <code>${escapeHtml(String(s.dataset.manifestSha256))}</code>` : ''}`,
        )
        .join('<br>');
      const templates = ((p.templates as Template[] | undefined) ?? [])
        .map((t) => `${escapeHtml(String(t.suite))}: ${escapeHtml(String(t.template))} <code>${escapeHtml(String(t.sha256))}</code>`)
        .join('<br>');
      return `<tr><td>${escapeHtml(String(p.recordedAt))}</td><td>${escapeHtml(String(p.mindscope))}</td><td><code>${escapeHtml(String(p.gitCommit ?? 'none'))}</code></td><td>${escapeHtml(String(p.node))}</td><td>${escapeHtml(String(p.platform))}</td><td style="text-align:left">${suites}</td><td style="text-align:left">${templates || '-'}</td></tr>`;
    })
    .join('');
  return `<h2>Provenance</h2><table><tr><th>recorded</th><th>mindscope</th><th>git commit</th><th>Node</th><th>platform</th><th>data (items hash; manifest)</th><th>prompt templates</th></tr>${rows}</table>`;
}
