// The study's section of `mindscope report`: its table as HTML.

import type { ReportContext } from 'mindscope';
import { beliefTable } from './belief-table.js';

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** The section's HTML (undefined when the run has no such stories). */
export async function renderSection(ctx: ReportContext): Promise<string | undefined> {
  const rows = await beliefTable(ctx.store, ctx.runId);
  if (!rows.length) return undefined;
  const body = rows
    .map(
      (r) =>
        `<tr><td>${escapeHtml(r.subject)}</td><td>${r.condition}</td><td>${r.accuracy.toFixed(3)}</td><td>[${r.lower.toFixed(3)}, ${r.upper.toFixed(3)}]</td></tr>`,
    )
    .join('');
  return `<table class="sally-anne"><tr><th>subject</th><th>stories</th><th>accuracy</th><th>95% interval</th></tr>${body}</table>`;
}
