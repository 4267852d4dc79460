// The self-contained HTML report of a run: one file, charts inlined as SVG, no scripts and no
// external resources, so it opens anywhere and can be archived with the results.

import type { AccuracyTable } from '../analysis/index.js';
// The file itself, not the analysis index: the report page loads without the rest of the analyses.
import { cellOf } from '../analysis/accuracy.js';
import { formatUsd } from './cost.js';
import { heatmapSpec, overallAccuracySpec, renderSvg } from './charts.js';
import { escapeHtml } from './escape-html.js';
import { renderProvenanceHtml } from './provenance.js';
import { displayNames } from './subject-names.js';

// Exported here too: the section renderers (audit, episode, vision) import it with the page.
export { escapeHtml };

export interface UsageSummary {
  spec: string;
  trials: number;
  inputTokens: number;
  outputTokens: number;
  /** Null when some call's price is unknown. */
  costUsd: number | null;
}

export interface ReportInput {
  runId: string;
  createdAt: string;
  config: Record<string, unknown>;
  byCategory: AccuracyTable;
  bySuite: AccuracyTable;
  /** By the source's own label (ToMBench ability, question type, order). */
  byAbility: AccuracyTable;
  usage: UsageSummary[];
  status: Array<{ spec: string; suite: string; planned: number; done: number; failed: number; pending: number }>;
  failures: Array<{ subject: string; suite: string; itemId: string; error: string }>;
  /** The plugins' sections the run has (report sections: episodes, vision, the audit, ...), in order after the accuracy tables. */
  sections?: ReadonlyArray<{ title: string; html: string }>;
  /** How the run was produced (store.provenance): versions, platform, data and template hashes. */
  provenance?: Array<Record<string, unknown>>;
  /** Tiny and adaptive runs: the estimated accuracies (HTML fragment). */
  irtSection?: string;
}

const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '—');

function accuracyTableHtml(t: AccuracyTable, groupTitle: string): string {
  const head = `<tr><th>subject</th>${t.groups.map((g) => `<th>${escapeHtml(g)}</th>`).join('')}<th>parse failures</th></tr>`;
  const names = displayNames(t.subjects);
  const rows = t.subjects.map((s) => {
    const cells = t.groups.map((g) => {
      const c = cellOf(t, s, g);
      return c
        ? `<td title="n=${c.items} items, ${c.trials} trials${c.note ? `: ${escapeHtml(c.note)}` : ''}"><b>${pct(c.accuracy)}</b><br><small>[${pct(c.lower)}, ${pct(c.upper)}]${c.note ? ` (${escapeHtml(c.note)})` : ''}<br>n=${c.items}</small></td>`
        : '<td>—</td>';
    });
    const all = cellOf(t, s, 'all');
    return `<tr><th title="${escapeHtml(s)}">${escapeHtml(names.get(s)!)}</th>${cells.join('')}<td>${all ? `${all.parseFailures} (${pct(all.parseFailureRate)})` : '—'}</td></tr>`;
  });
  return `<table class="acc"><caption>Accuracy by ${groupTitle}: estimate, 95% interval${t.replicated ? " (Wilson with the items' effective number of trials: an item's replicates are not independent)" : ' (Wilson)'}, n items</caption>${head}${rows.join('')}</table>`;
}

/** A plugin's section under its heading; its own h2 headings become h3, below the section's. */
function sectionHtml(s: { title: string; html: string }): string {
  return `<h2>${escapeHtml(s.title)}</h2>${s.html.replace(/<h2>/g, '<h3>').replace(/<\/h2>/g, '</h3>')}`;
}

const CSS = `body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;margin:2em;color:#1b1b1b;max-width:1400px}
table{border-collapse:collapse;margin:1em 0;font-size:13px}th,td{border:1px solid #ccc;padding:4px 8px;text-align:center;vertical-align:top}
th:first-child{text-align:left}caption{text-align:left;font-weight:bold;margin-bottom:.4em}
.chart{overflow-x:auto;margin:1em 0}pre{background:#f5f5f5;padding:1em;overflow-x:auto;font-size:12px}small{color:#555}`;

/** The self-contained HTML report of a run: accuracy tables and charts with intervals, usage and cost, status, failures, and the sections of its protocols. */
export async function renderHtmlReport(r: ReportInput): Promise<string> {
  const [overall, heat] = await Promise.all([
    renderSvg(overallAccuracySpec(r.byCategory)),
    renderSvg(heatmapSpec(r.byCategory, 'category')),
  ]);
  const usage = r.usage
    .map(
      (u) =>
        `<tr><th>${escapeHtml(u.spec)}</th><td>${u.trials}</td><td>${u.inputTokens}</td><td>${u.outputTokens}</td><td>${formatUsd(u.costUsd)}</td></tr>`,
    )
    .join('');
  const status = r.status
    .map(
      (s) =>
        `<tr><th>${escapeHtml(s.spec)}</th><td>${escapeHtml(s.suite)}</td><td>${s.planned}</td><td>${s.done}</td><td>${s.failed}</td><td>${s.pending}</td></tr>`,
    )
    .join('');
  const failures = r.failures.length
    ? `<h2>Failed trials (first ${r.failures.length})</h2><table><tr><th>subject</th><th>suite</th><th>item</th><th>error</th></tr>${r.failures
        .map(
          (f) =>
            `<tr><th>${escapeHtml(f.subject)}</th><td>${escapeHtml(f.suite)}</td><td>${escapeHtml(f.itemId)}</td><td style="text-align:left">${escapeHtml(f.error)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mindscope report: ${escapeHtml(r.runId)}</title><style>${CSS}</style></head>
<body>
<h1>mindscope report</h1>
<p>Run <code>${escapeHtml(r.runId)}</code>, started ${escapeHtml(r.createdAt)}. ${r.byCategory.subjects.length} subjects.</p>
<h2>Accuracy</h2>
<div class="chart">${overall}</div>
<div class="chart">${heat}</div>
${r.irtSection ? `<h2>Estimated full-suite accuracy (item response theory)</h2>${r.irtSection}` : ''}
${accuracyTableHtml(r.byCategory, 'category')}
${accuracyTableHtml(r.bySuite, 'suite')}
${r.byAbility.groups.length <= 60 ? accuracyTableHtml(r.byAbility, 'source label') : ''}
${(r.sections ?? []).map(sectionHtml).join('\n')}
<h2>Progress</h2>
<table><tr><th>subject</th><th>suite</th><th>planned</th><th>done</th><th>failed</th><th>pending</th></tr>${status}</table>
<h2>Usage</h2>
<table><tr><th>subject</th><th>trials</th><th>input tokens</th><th>output tokens</th><th>cost</th></tr>${usage}</table>
${failures}
${r.provenance ? renderProvenanceHtml(r.provenance) : ''}
<h2>Configuration</h2>
<pre>${escapeHtml(JSON.stringify(r.config, null, 2))}</pre>
</body></html>
`;
}
