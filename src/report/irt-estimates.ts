// The estimates of a tiny or adaptive run (run --tiny / --adaptive), as a text table for the
// terminal and an HTML section for the report: per subject and suite, the items asked and the
// estimated accuracy of the whole suite and of each category, each estimator with its interval.

import type { TinyAccuracyRow } from '../analysis/index.js';
import { formatTextTable } from './text-table.js';

/** What the report needs of one subject's IRT result on one suite (app's IrtSuiteResult). */
export interface IrtRunRow {
  subject: string;
  suite: string;
  mode: 'tiny' | 'adaptive';
  bankId: string;
  suiteItems: number;
  itemsAsked: number;
  itemsAnswered: number;
  strategy?: string;
  theta: number;
  thetaSd: number;
  stopReason?: string | null;
  accuracy: TinyAccuracyRow[];
}

const pct = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '-' : (100 * x).toFixed(1));
const interval = (e: { estimate: number; lower: number; upper: number } | null | undefined) =>
  e ? `${pct(e.estimate)} [${pct(e.lower)}, ${pct(e.upper)}]` : '-';

function howAsked(r: IrtRunRow): string {
  if (r.mode === 'tiny') return `tiny (${r.strategy ?? '?'})`;
  return `adaptive (${r.stopReason ?? 'interrupted'})`;
}

/** The estimates as a text table: one line per subject, suite and category. */
export function irtRunTextTable(rows: readonly IrtRunRow[]): string {
  const lines: string[][] = [];
  for (const r of rows)
    for (const a of r.accuracy)
      lines.push([
        r.subject,
        r.suite,
        a.category ?? 'all',
        a.category === null ? `${r.itemsAnswered}/${r.suiteItems}` : `${a.answered}/${a.items}`,
        a.category === null ? howAsked(r) : '',
        a.category === null ? `${r.theta.toFixed(2)} (${r.thetaSd.toFixed(2)})` : '',
        interval(a.pIrt),
        interval(a.gpIrt),
        interval(a.irt),
      ]);
  return formatTextTable(['subject', 'suite', 'category', 'asked', 'how', 'ability (SE)', 'p-IRT %', 'gp-IRT %', 'IRT %'], lines);
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The estimates as an HTML section of the run report. */
export function irtRunSection(rows: readonly IrtRunRow[]): string {
  const body = rows
    .flatMap((r) =>
      r.accuracy.map(
        (a) =>
          `<tr><th>${esc(r.subject)}</th><td>${esc(r.suite)}</td><td>${esc(a.category ?? 'all')}</td><td>${a.category === null ? `${r.itemsAnswered} of ${r.suiteItems}` : `${a.answered} of ${a.items}`}</td><td>${a.category === null ? esc(howAsked(r)) : ''}</td><td>${a.category === null ? `${r.theta.toFixed(2)} (${r.thetaSd.toFixed(2)})` : ''}</td><td>${interval(a.pIrt)}</td><td>${interval(a.gpIrt)}</td><td>${interval(a.irt)}</td></tr>`,
      ),
    )
    .join('');
  const banks = [...new Set(rows.map((r) => r.bankId))].join(', ');
  return `<p>Only some items were asked (bank ${esc(banks)}); the accuracy of the whole suite and of each category is estimated from them (p-IRT and gp-IRT as in tinyBenchmarks, IRT: the model's prediction), with 95% intervals.</p>
<table><tr><th>subject</th><th>suite</th><th>category</th><th>items answered</th><th>how</th><th>ability (SE)</th><th>p-IRT %</th><th>gp-IRT %</th><th>IRT %</th></tr>${body}</table>`;
}
