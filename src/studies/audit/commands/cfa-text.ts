// The confirmatory factor analysis of an audit as terminal text: per matrix, the one-factor model
// beside the category structure, their fit indices and difference.

import type { CfaModelFit, ConfirmatoryResult, MatrixAudit, StructureResult } from '../analysis/index.js';
import { formatPValue, formatTextTable } from '../../../report/index.js';

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '-');

const label: Record<CfaModelFit['model'], string> = {
  'one-factor': 'one factor',
  'one-per-category': 'one per category',
  bifactor: 'bifactor',
};

function fitRow(m: CfaModelFit): string[] {
  return [
    label[m.model],
    String(m.factors.length),
    m.chisq.toFixed(2),
    String(m.df),
    formatPValue(m.pValue),
    f3(m.cfi),
    f3(m.tli),
    `${f3(m.rmsea)} [${f3(m.rmseaLower)}, ${f3(m.rmseaUpper)}]`,
    f3(m.srmr),
    m.converged ? 'yes' : 'no',
  ];
}

function printOne(r: ConfirmatoryResult, efa: StructureResult | undefined): string[] {
  const kind = r.indicators.kind === 'parcels' ? `${r.indicators.perCategory} item parcels per category` : 'items';
  const out = [
    `${r.name}: ${r.indicators.list.length} indicators (${kind}), ${r.models} models`,
    formatTextTable(
      ['model', 'factors', 'chi2', 'df', 'p', 'CFI', 'TLI', 'RMSEA [90% CI]', 'SRMR', 'converged'],
      [fitRow(r.oneFactor), fitRow(r.structure)],
    ),
    `${label[r.structure.model]} against one factor: delta chi2 ${r.comparison.deltaChisq.toFixed(2)} on ${r.comparison.deltaDf} df, p ${formatPValue(r.comparison.p)}; delta CFI ${r.comparison.deltaCfi >= 0 ? '+' : ''}${f3(r.comparison.deltaCfi)}, delta RMSEA ${r.comparison.deltaRmsea >= 0 ? '+' : ''}${f3(r.comparison.deltaRmsea)}`,
    `exploratory solution: parallel analysis retains ${r.exploratory.factors} factor(s) on these indicators${efa?.nFactors != null ? `, ${Math.max(1, efa.nFactors)} on the items` : ''}`,
  ];
  if (r.structure.ecv !== undefined)
    out.push(
      `bifactor: the general factor holds ${(r.structure.ecv * 100).toFixed(1)}% of the common variance (ECV); omega hierarchical ${f3(r.structure.omegaHierarchical!)}`,
    );
  for (const m of [r.oneFactor, r.structure])
    if (!m.converged)
      out.push(`${label[m.model]}: did not converge in ${m.iterations} iterations; its numbers are those of the last iterate`);
  for (const m of [r.oneFactor, r.structure])
    if (m.heywood.length) out.push(`${label[m.model]}: negative residual variance (Heywood case) for ${m.heywood.join(', ')}`);
  for (const c of r.categoriesLeftOut) out.push(`category ${c.category} left out: ${c.reason}`);
  return out;
}

/** The audit's confirmatory factor analyses as text (empty when none was asked for). */
export function printConfirmatory(a: Pick<MatrixAudit, 'cfa' | 'structure'>): string {
  if (!a.cfa?.length) return '';
  const first = a.cfa.find((r): r is ConfirmatoryResult => 'estimator' in r);
  const out = [
    `confirmatory factor analysis (${first ? `${first.estimator} on the indicators' Pearson correlation matrix` : 'no model fitted'}; factor variances fixed at 1; each structure against a single factor, the paper's exploratory result)`,
  ];
  for (const r of a.cfa) {
    out.push('');
    if ('error' in r) out.push(`${r.name}: not fitted: ${r.error}`);
    else
      out.push(
        ...printOne(
          r,
          a.structure.find((s) => s.name === r.name),
        ),
      );
  }
  return out.join('\n');
}
