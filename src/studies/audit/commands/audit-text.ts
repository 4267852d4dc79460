// Terminal summaries of the audits.

import type { BenchmarkAudit, MatrixAudit } from '../analysis/index.js';
import { formatPValue, formatTextTable } from '../../../report/index.js';

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');

export function printBenchmarkAudit(a: BenchmarkAudit): string {
  const tauRows = (label: string, cells: BenchmarkAudit['withinTom']) =>
    cells.map((c) => [label, `${c.a} ~ ${c.b}`, f3(c.tau), `[${f3(c.lower)}, ${f3(c.upper)}]`]);
  const out = [
    `benchmark-level audit of ${a.models} models (model bootstrap: ${a.bootstrap.iterations} resamples, seed ${a.bootstrap.seed})`,
    '',
    formatTextTable(
      ['type', 'pair', 'tau-b', '95% CI'],
      [
        ...tauRows('within-ToM', a.withinTom),
        ['', 'mean', f3(a.means.withinTom), ''],
        ...tauRows('within-general', a.withinGeneral),
        ...tauRows('cross-construct', a.crossConstruct),
        ['', 'mean', f3(a.means.crossConstruct), ''],
      ],
    ),
    '',
    `partial tau (${a.method} method)`,
    formatTextTable(
      ['pair', 'control', 'zero-order', 'partial', '95% CI', 'p (boot)', 'shrinkage'],
      a.partial.map((p) => [
        `${p.a} ~ ${p.b}`,
        p.controls.join(' + '),
        f3(p.zeroOrder),
        f3(p.partial),
        `[${f3(p.lower)}, ${f3(p.upper)}]`,
        formatPValue(p.pBootstrap, { upperBound: p.pBootstrapUpperBound }),
        `${(p.shrinkage * 100).toFixed(1)}%`,
      ]),
    ),
    ...a.partial.filter((p) => p.reason).map((p) => `${p.a} ~ ${p.b} | ${p.controls.join(' + ')}: partial tau undefined: ${p.reason}`),
  ];
  if (a.varianceDecomposition.length) {
    out.push(
      '',
      'variance decomposition: composite r-squared (the paper: on the mean of the standardised general benchmarks) and multiple R-squared (regression on every general benchmark)',
    );
    out.push(
      formatTextTable(
        ['benchmark', 'composite r2', 'unexplained', 'multiple R2', 'unexplained'],
        a.varianceDecomposition.map((v) => [
          v.benchmark,
          `${(v.generalShare * 100).toFixed(1)}%`,
          `${(v.unexplained * 100).toFixed(1)}%`,
          `${(v.multipleR2 * 100).toFixed(1)}%`,
          `${(v.multipleUnexplained * 100).toFixed(1)}%`,
        ]),
      ),
    );
  }
  return out.join('\n');
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export function printMatrixAudit(a: MatrixAudit): string {
  const out = [
    `audit of ${a.models.length} models on ${a.benchmarks.map((b) => `${b.name} (${b.items} items${b.droppedIncomplete ? `, ${b.droppedIncomplete} incomplete left out` : ''})`).join(', ')}`,
  ];
  if (a.droppedModels.length) out.push(`models left out (not in every benchmark, or no response at all): ${a.droppedModels.join(', ')}`);
  const rule = a.convergence.rule;
  const method = a.convergence.interval.method;
  out.push(
    '',
    `stage 1, convergent validity (accept: tau >= ${rule.tauMin} and lower bound >= ${rule.lowerMin}; Holm within pair; 95% ${method === 'bc' || method === 'bca' ? method.toUpperCase() : method} item-bootstrap interval, ${a.convergence.interval.iterations} resamples)`,
  );
  out.push(
    `categories tested in stages 1 and 3: ${a.categories.filter === 'all' ? 'all shared' : a.categories.filter.join(', ')} (${a.categories.source})`,
  );
  out.push(
    formatTextTable(
      [
        'pair',
        'category',
        'items',
        'tau-b',
        `95% CI (${method})`,
        ...(method === 'percentile' ? [] : ['percentile CI']),
        'p (Holm)',
        'accepted',
        'tau filtered',
      ],
      a.convergence.cells.map((c, i) => [
        c.pair.join(' ~ '),
        c.category,
        `${c.itemsA}/${c.itemsB}`,
        f3(c.tau),
        `[${f3(c.lower)}, ${f3(c.upper)}]`,
        ...(method === 'percentile' ? [] : [`[${f3(c.percentile.lower)}, ${f3(c.percentile.upper)}]${c.note ? ' *' : ''}`]),
        c.pHolm.toExponential(2),
        c.accepted ? 'yes' : 'no',
        f3(a.convergenceFiltered.cells[i]?.tau ?? Number.NaN),
      ]),
    ),
  );
  for (const c of a.convergence.cells) if (c.note) out.push(`* ${c.pair.join(' ~ ')} ${c.category}: ${c.note}`);
  for (const p of a.convergence.pairs) {
    if (p.excludedCategories.length)
      out.push(`${p.pair.join(' ~ ')}: categories in one benchmark only, left out: ${p.excludedCategories.join(', ')}`);
    if (p.leftOutCategories.length)
      out.push(`${p.pair.join(' ~ ')}: shared categories outside the category filter, not tested: ${p.leftOutCategories.join(', ')}`);
  }
  out.push(`overall mean tau ${f3(a.convergence.overallMeanTau)}`);
  out.push('', `stage 2, item filter (point-biserial < ${a.filter.threshold} or zero variance)`);
  out.push(
    formatTextTable(
      ['benchmark', 'category', 'kept', 'total', 'retained'],
      a.filter.benchmarks.flatMap((b) => [
        ...b.retention.map((r) => [b.name, r.category, String(r.kept), String(r.total), pct(r.share)]),
        [b.name, 'all', String(b.kept), String(b.total), pct(b.kept / b.total)],
      ]),
    ),
  );
  const s = a.crossFit.settings;
  out.push('', `stage 3, repeated cross-fit (${s.folds} folds x ${s.seeds} seeds; delta tau after - before filtering held-out items)`);
  out.push(
    formatTextTable(
      ['pair', 'category', 'folds', 'mean delta', '95% CI', 'p (Holm)', 'sample loss'],
      a.crossFit.cells.map((c) => [
        c.pair.join(' ~ '),
        c.category,
        String(c.folds),
        f3(c.meanDelta),
        `[${f3(c.lower)}, ${f3(c.upper)}]`,
        formatPValue(c.pHolm, { upperBound: c.pHolmUpperBound }),
        pct(c.sampleLoss),
      ]),
    ),
  );
  out.push(
    `aggregate delta ${f3(a.crossFit.aggregate.meanDelta)}, conservative interval [${f3(a.crossFit.aggregate.lower)}, ${f3(a.crossFit.aggregate.upper)}], mean sample loss ${pct(a.crossFit.aggregate.sampleLoss)}`,
  );
  out.push(
    '',
    "scenario per category (the paper's rule: A when every pair gains significantly after filtering, B when none gains or one reverses, mixed otherwise; Holm-adjusted p < 0.05)",
  );
  out.push(
    formatTextTable(
      ['category', 'verdict', 'why'],
      a.scenarios.map((v) => [v.category, v.verdict === 'mixed' ? 'mixed' : `Scenario ${v.verdict}`, v.reason]),
    ),
  );
  out.push('', "stage 3 sample loss (the paper's Table 6: held-out items per fold, means over valid folds; rate = lost / tested)");
  const f1 = (x: number) => x.toFixed(1);
  out.push(
    formatTextTable(
      ['pair', 'category', 'test items', 'items kept', 'items lost', 'loss rate'],
      [
        ...a.crossFit.cells.map((c) => [
          c.pair.join(' ~ '),
          c.category,
          f1(c.testItems),
          f1(c.keptItems),
          f1(c.lostItems),
          pct(c.lossRate),
        ]),
        ...a.crossFit.categories.map((c) => [
          'pooled (all pairs)',
          c.category,
          f1(c.testItems),
          f1(c.keptItems),
          f1(c.lostItems),
          pct(c.lossRate),
        ]),
        ['overall', '', '', '', `${a.crossFit.aggregate.lost} of ${a.crossFit.aggregate.tested}`, pct(a.crossFit.aggregate.lossRate)],
      ],
    ),
  );
  out.push('', 'factor structure (parallel analysis beside Kaiser (eigenvalue > 1) and the scree elbow; PCA)');
  out.push(
    'F1 total / common: the first principal-axis factor of the solution with one factor per category, its share of the total variance and of the common variance (the sum of the communalities)',
  );
  out.push(
    formatTextTable(
      [
        'matrix',
        'items',
        'components',
        'Kaiser',
        'scree elbow',
        'EFA factors',
        'factor variance',
        'F1 total / common',
        'PC1',
        'PC2',
        'cum. 5 PC',
        'KMO',
      ],
      a.structure.map((x) => [
        x.name,
        String(x.items),
        x.nComponents === null ? 'n/a' : String(x.nComponents),
        String(x.kaiser),
        x.screeElbow === null ? 'n/a' : `PC${x.screeElbow}`,
        x.efa ? String(x.efa.factors) : 'n/a',
        x.efa ? x.efa.varianceShare.map(pct).join(' ') : 'n/a',
        x.commonVariance
          ? `${pct(x.commonVariance.totalShare)} / ${pct(x.commonVariance.commonShare)} (${x.commonVariance.factors} factors)`
          : 'n/a',
        pct(x.pcShares[0]!),
        pct(x.pcShares[1] ?? 0),
        pct(x.cumulative5),
        x.kmo === null ? 'n/a' : x.kmo.toFixed(3),
      ]),
    ),
  );
  for (const x of a.structure) if (x.note) out.push(`${x.name}: ${x.note}`);
  return out.join('\n');
}
