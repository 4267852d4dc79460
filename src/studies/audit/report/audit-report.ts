// The audit's section of the HTML report: forest plots of tau with intervals before and after
// the item filter, the item retention chart (the paper's Figure 2), the cross-fit gains and
// sample loss (Table 6), the scree plot with Kaiser's count and the elbow beside parallel
// analysis, and the tables behind them.

import type { TopLevelSpec } from 'vega-lite';
import type { BenchmarkAudit, MatrixAudit } from '../analysis/index.js';
import { renderSvg } from '../../../report/index.js';
import { escapeHtml } from '../../../report/index.js';
import { formatPValue } from '../../../report/index.js';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const CONFIG = { config: { font: 'DejaVu Sans, Helvetica, Arial, sans-serif', view: { stroke: null } } };

function forestSpec(
  title: string,
  values: Array<{ label: string; series: string; estimate: number; lower: number; upper: number }>,
  xTitle: string,
): TopLevelSpec {
  const y = { field: 'label', type: 'nominal' as const, sort: null, title: null, axis: { labelLimit: 360 } };
  const color = { field: 'series', type: 'nominal' as const, title: null, legend: { orient: 'bottom' as const } };
  return {
    $schema: SCHEMA,
    ...CONFIG,
    title,
    width: 420,
    height: { step: 18 },
    data: { values },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: {
          y,
          yOffset: { field: 'series' },
          x: { field: 'lower', type: 'quantitative', title: xTitle },
          x2: { field: 'upper' },
          color,
        },
      },
      {
        mark: { type: 'point', filled: true, size: 50 },
        encoding: { y, yOffset: { field: 'series' }, x: { field: 'estimate', type: 'quantitative' }, color },
      },
    ],
  } as TopLevelSpec;
}

function screeSpec(a: MatrixAudit): TopLevelSpec {
  const values = a.structure.flatMap((s) =>
    s.eigenvalues.slice(0, 12).map((v, i) => ({ matrix: s.name, component: i + 1, share: v / s.items })),
  );
  return {
    $schema: SCHEMA,
    ...CONFIG,
    title: 'Scree plot (share of variance per principal component)',
    width: 420,
    height: 240,
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'component', type: 'quantitative', title: 'component', axis: { tickMinStep: 1 } },
      y: { field: 'share', type: 'quantitative', title: 'share of variance', axis: { format: '.0%' } },
      color: { field: 'matrix', type: 'nominal' },
    },
  } as TopLevelSpec;
}

/** Figure 2: per benchmark and category, the share of items kept, dropped for low discrimination, or of zero variance. */
function retentionSpec(a: MatrixAudit): TopLevelSpec {
  const values = a.filter.benchmarks.flatMap((b) => {
    const cats = [...b.retention.map((r) => r.category), 'all'];
    return cats.flatMap((category) => {
      const flags = category === 'all' ? b.flags : b.flags.filter((f) => f.category === category);
      const share = (keep: (f: (typeof flags)[number]) => boolean) => flags.filter(keep).length / flags.length;
      const label = `${b.name} ${category}`;
      return [
        { label, outcome: 'kept', share: share((f) => f.kept), order: 0 },
        {
          label,
          outcome: `low discrimination (< ${a.filter.threshold})`,
          share: share((f) => f.reason === 'low-discrimination'),
          order: 1,
        },
        { label, outcome: 'zero variance', share: share((f) => f.reason === 'zero-variance'), order: 2 },
      ];
    });
  });
  return {
    $schema: SCHEMA,
    ...CONFIG,
    title: 'Stage 2: item retention after the discrimination filter',
    width: 420,
    height: { step: 16 },
    data: { values },
    mark: 'bar',
    encoding: {
      y: { field: 'label', type: 'nominal', sort: null, title: null, axis: { labelLimit: 360 } },
      x: { field: 'share', type: 'quantitative', stack: 'zero', title: 'share of items', axis: { format: '.0%' } },
      color: {
        field: 'outcome',
        type: 'nominal',
        title: null,
        sort: ['kept'],
        scale: { range: ['#4c78a8', '#f58518', '#bab0ac'] },
        legend: { orient: 'bottom' },
      },
      order: { field: 'order', type: 'quantitative' },
    },
  } as TopLevelSpec;
}

/**
 * The audit as an HTML fragment (headings h2 and below), for its own page or a run report.
 * `retention` adds the stage-2 retention chart (the paper's Figure 2; on in the audit's own page).
 */
export async function renderAuditSection(a: MatrixAudit, opts: { retention?: boolean } = {}): Promise<string> {
  const before = a.convergence.cells.map((c, i) => {
    const f = a.convergenceFiltered.cells[i];
    return [
      { label: `${c.pair.join(' ~ ')} ${c.category}`, series: 'all items', estimate: c.tau, lower: c.lower, upper: c.upper },
      ...(f
        ? [{ label: `${c.pair.join(' ~ ')} ${c.category}`, series: 'filtered items', estimate: f.tau, lower: f.lower, upper: f.upper }]
        : []),
    ];
  });
  const gains = a.crossFit.cells.map((c) => ({
    label: `${c.pair.join(' ~ ')} ${c.category}`,
    series: 'held-out delta tau',
    estimate: c.meanDelta,
    lower: c.lower,
    upper: c.upper,
  }));
  const method = a.convergence.interval.method;
  const [forest, retention, gainPlot, scree] = await Promise.all([
    renderSvg(
      forestSpec(
        `Stage 1: Kendall tau with 95% item-bootstrap intervals (${method === 'bc' || method === 'bca' ? method.toUpperCase() : method})`,
        before.flat(),
        'tau-b',
      ),
    ),
    opts.retention ? renderSvg(retentionSpec(a)) : Promise.resolve(''),
    renderSvg(forestSpec('Stage 3: cross-fit gain in tau (mean over folds, 95% CI)', gains, 'delta tau')),
    renderSvg(screeSpec(a)),
  ]);
  const row = (cells: Array<string | number>) => `<tr>${cells.map((c) => `<td>${escapeHtml(String(c))}</td>`).join('')}</tr>`;
  const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  const f1 = (x: number) => x.toFixed(1);
  const accuracy = a.accuracy.map((r) => row([r.model, ...a.benchmarks.map((b) => pct(r.byBenchmark[b.name]!))])).join('');
  return `<p>${a.models.length} models; ${a.benchmarks.map((b) => `${escapeHtml(b.name)} (${b.items} items)`).join(', ')}.</p>
<h2>Per-model accuracy</h2><table><tr><th>model</th>${a.benchmarks.map((b) => `<th>${escapeHtml(b.name)}</th>`).join('')}</tr>${accuracy}</table>
<h2>Stage 1: convergent validity</h2>
<p>Categories tested in stages 1 and 3: ${escapeHtml(a.categories.filter === 'all' ? 'all shared' : a.categories.filter.join(', '))} (${escapeHtml(a.categories.source)}). Intervals: 95% ${method === 'bc' || method === 'bca' ? method.toUpperCase() : method} over ${a.convergence.interval.iterations} paired item-bootstrap resamples${method === 'percentile' ? '' : ", beside the paper's percentile interval"}.</p>${forest}
<table><tr><th>pair</th><th>category</th><th>tau</th><th>95% CI (${method})</th>${method === 'percentile' ? '' : '<th>percentile CI</th>'}<th>p (Holm)</th><th>accepted</th></tr>${a.convergence.cells.map((c) => row([c.pair.join(' ~ '), c.category, f3(c.tau), `[${f3(c.lower)}, ${f3(c.upper)}]`, ...(method === 'percentile' ? [] : [`[${f3(c.percentile.lower)}, ${f3(c.percentile.upper)}]${c.note ? ' *' : ''}`]), c.pHolm.toExponential(2), c.accepted ? 'yes' : 'no'])).join('')}</table>
${a.convergence.cells
  .filter((c) => c.note)
  .map((c) => `<p>* ${escapeHtml(`${c.pair.join(' ~ ')} ${c.category}: ${c.note}`)}</p>`)
  .join('')}${a.convergence.pairs
  .filter((p) => p.leftOutCategories.length)
  .map(
    (p) =>
      `<p>${escapeHtml(`${p.pair.join(' ~ ')}: shared categories outside the category filter, not tested: ${p.leftOutCategories.join(', ')}`)}</p>`,
  )
  .join('')}
<h2>Stage 2: item filter (threshold ${a.filter.threshold})</h2>${retention}
<table><tr><th>benchmark</th><th>category</th><th>kept</th><th>total</th><th>retained</th></tr>${a.filter.benchmarks.flatMap((b) => [...b.retention.map((r) => row([b.name, r.category, r.kept, r.total, pct(r.share)])), row([b.name, 'all', b.kept, b.total, pct(b.kept / b.total)])]).join('')}</table>
<h2>Stage 3: repeated cross-fit</h2>${gainPlot}
<p>Aggregate delta ${f3(a.crossFit.aggregate.meanDelta)}, conservative interval [${f3(a.crossFit.aggregate.lower)}, ${f3(a.crossFit.aggregate.upper)}], mean sample loss ${pct(a.crossFit.aggregate.sampleLoss)}.</p>
<h3>Scenario A or B per category</h3>
<p>A: every pair's agreement rises significantly once low-discrimination held-out items are removed (divergence is measurement noise). B: no pair gains, or one falls (the benchmarks operationalise the category differently). Mixed: some pairs gain, the others do not change. Significance: Holm-adjusted bootstrap p &lt; 0.05.</p>
<table><tr><th>category</th><th>verdict</th><th>why</th></tr>${a.scenarios.map((v) => row([v.category, v.verdict === 'mixed' ? 'mixed' : `Scenario ${v.verdict}`, v.reason])).join('')}</table>
<h3>Sample loss (held-out items per fold, means over valid folds)</h3>
<table><tr><th>pair</th><th>category</th><th>test items</th><th>items kept</th><th>items lost</th><th>loss rate</th></tr>${[...a.crossFit.cells.map((c) => row([c.pair.join(' ~ '), c.category, f1(c.testItems), f1(c.keptItems), f1(c.lostItems), pct(c.lossRate)])), ...a.crossFit.categories.map((c) => row(['pooled (all pairs)', c.category, f1(c.testItems), f1(c.keptItems), f1(c.lostItems), pct(c.lossRate)])), row(['overall', '', '', '', `${a.crossFit.aggregate.lost} of ${a.crossFit.aggregate.tested}`, pct(a.crossFit.aggregate.lossRate)])].join('')}</table>
<h2>Factor structure</h2>${scree}
<table><tr><th>matrix</th><th>items</th><th>components (parallel analysis)</th><th>Kaiser (eigenvalue &gt; 1)</th><th>scree elbow</th><th>factors</th><th>EFA variance per factor</th><th>factor 1 of one per category: share of total / of common variance</th><th>PC1</th><th>PC2</th><th>cum. 5</th><th>KMO</th></tr>${a.structure.map((s) => row([s.name, s.items, s.nComponents ?? 'n/a', s.kaiser, s.screeElbow === null ? 'n/a' : `PC${s.screeElbow}`, s.nFactors ?? 'n/a', s.efa ? s.efa.varianceShare.map(pct).join(' ') : 'n/a', s.commonVariance ? `${pct(s.commonVariance.totalShare)} / ${pct(s.commonVariance.commonShare)} (${s.commonVariance.factors} factors)` : 'n/a', pct(s.pcShares[0]!), pct(s.pcShares[1] ?? 0), pct(s.cumulative5), s.kmo === null ? 'n/a' : s.kmo.toFixed(3)])).join('')}</table>
${a.structure
  .filter((s) => s.note)
  .map((s) => `<p>${escapeHtml(s.name)}: ${escapeHtml(s.note!)}</p>`)
  .join('')}`;
}

const PAGE_STYLE =
  'body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;margin:2em;max-width:1300px}table{border-collapse:collapse;font-size:13px;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}td:first-child{text-align:left}';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style></head><body>
<h1>${escapeHtml(title)}</h1>
${body}
</body></html>
`;
}

/** The matrix audit as its own page, with the discriminant-validity section when controls were given. */
export async function renderAuditReport(a: MatrixAudit, opts: { title?: string; discriminant?: BenchmarkAudit } = {}): Promise<string> {
  const discriminant = opts.discriminant ? `<h2>Discriminant validity</h2>\n${await renderBenchmarkAuditSection(opts.discriminant)}` : '';
  return page(opts.title ?? 'mindscope audit', `${await renderAuditSection(a, { retention: true })}\n${discriminant}`);
}

/** The benchmark-level audit (tau and partial tau forest plots, variance decomposition) as a fragment. */
export async function renderBenchmarkAuditSection(a: BenchmarkAudit): Promise<string> {
  const taus = [
    ...a.withinTom.map((c) => ({ label: `${c.a} ~ ${c.b}`, series: 'within-ToM', estimate: c.tau, lower: c.lower, upper: c.upper })),
    ...a.withinGeneral.map((c) => ({
      label: `${c.a} ~ ${c.b}`,
      series: 'within-general',
      estimate: c.tau,
      lower: c.lower,
      upper: c.upper,
    })),
    ...a.crossConstruct.map((c) => ({
      label: `${c.a} ~ ${c.b}`,
      series: 'cross-construct',
      estimate: c.tau,
      lower: c.lower,
      upper: c.upper,
    })),
  ];
  const partials = a.partial.map((p) => ({
    label: `${p.a} ~ ${p.b} | ${p.controls.join(' + ')}`,
    series: 'partial tau',
    estimate: p.partial,
    lower: p.lower,
    upper: p.upper,
  }));
  const [tauPlot, partialPlot] = await Promise.all([
    renderSvg(forestSpec('Kendall tau between benchmarks (95% model-bootstrap CI)', taus, 'tau-b')),
    renderSvg(forestSpec(`Partial tau, ${a.method} method (95% CI)`, partials, 'partial tau')),
  ]);
  const row = (cells: Array<string | number>) => `<tr>${cells.map((c) => `<td>${escapeHtml(String(c))}</td>`).join('')}</tr>`;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return `<p>${a.models} models; bootstrap ${a.bootstrap.iterations} resamples, seed ${a.bootstrap.seed}. Mean tau: within-ToM ${a.means.withinTom.toFixed(3)}, cross-construct ${a.means.crossConstruct.toFixed(3)}.</p>
${tauPlot}
${partialPlot}
<table><tr><th>pair</th><th>control</th><th>zero-order</th><th>partial</th><th>95% CI</th><th>p (boot)</th><th>shrinkage</th></tr>${a.partial.map((p) => row([`${p.a} ~ ${p.b}`, p.controls.join(' + '), p.zeroOrder.toFixed(3), p.partial.toFixed(3), `[${p.lower.toFixed(3)}, ${p.upper.toFixed(3)}]`, formatPValue(p.pBootstrap, { upperBound: p.pBootstrapUpperBound }), pct(p.shrinkage)])).join('')}</table>
<h3>Variance decomposition</h3>
<p>Composite r-squared: on the mean of the standardised general benchmarks (the paper's). Multiple R-squared: regression on every general benchmark.</p>
<table><tr><th>benchmark</th><th>composite r-squared</th><th>unexplained</th><th>multiple R-squared</th><th>unexplained</th></tr>${a.varianceDecomposition.map((v) => row([v.benchmark, pct(v.generalShare), pct(v.unexplained), pct(v.multipleR2), pct(v.multipleUnexplained)])).join('')}</table>`;
}

/** The benchmark-level audit (audit --scores) as its own page. */
export async function renderBenchmarkAuditReport(a: BenchmarkAudit, title = 'mindscope audit: benchmark level'): Promise<string> {
  return page(title, await renderBenchmarkAuditSection(a));
}
