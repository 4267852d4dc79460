// Discriminant validity for an audit of response matrices: the ToM benchmarks' overall
// accuracies set against general-ability controls, which come either as response matrices
// (each model's mean score over the control's items) or as columns of a score table. The
// analysis itself is the benchmark-level one (Tables 7 and 8 of the audit paper).

import { ConfigError, InputError } from '../../../core/errors.js';
import type { ResponseMatrix } from '../../../store/matrix/index.js';
import { auditBenchmarks, type BenchmarkAudit } from './benchmark-level.js';
import type { MatrixAudit } from './matrix-audit.js';
import { scoreColumn, type ScoreTable } from './score-table.js';

export interface ControlScores {
  name: string;
  /** One score per audited model, in the audit's model order. */
  scores: number[];
  /** How the scores were obtained, for the report. */
  source: string;
}

/**
 * Each audited model's mean over a control matrix's items. Cells must lie in [0, 1] (partial
 * credit allowed); items some audited model has no cell for are left out and counted.
 */
export function controlFromMatrix(name: string, matrix: ResponseMatrix, models: string[]): ControlScores {
  const missing = models.filter((m) => !matrix.subjects.includes(m));
  if (missing.length)
    throw new InputError(`control "${name}" has no responses from ${missing.length} audited model(s): ${missing.join(', ')}`, name);
  const cols = models.map((m) => matrix.subjects.indexOf(m));
  const sums = new Array(models.length).fill(0);
  let used = 0;
  let left = 0;
  matrix.items.forEach((it, i) => {
    const row = cols.map((c) => matrix.cells[i]![c]);
    if (row.some((v) => v === null || v === undefined)) {
      left++;
      return;
    }
    row.forEach((v, m) => {
      if (typeof v !== 'number' || !(v >= 0 && v <= 1))
        throw new InputError(`control "${name}": item ${it.itemId} has the cell ${v} for ${models[m]} (scores must lie in [0, 1])`, name);
      sums[m] += v;
    });
    used++;
  });
  if (used === 0) throw new InputError(`control "${name}": no item has a response from every audited model`, name);
  return {
    name,
    scores: sums.map((s) => s / used),
    source: `matrix, ${used} items${left ? ` (${left} left out: missing for some audited model)` : ''}`,
  };
}

/** Score-table columns as controls, matched to the audited models by name. */
export function controlsFromTable(table: ScoreTable, columns: string[], models: string[], file: string): ControlScores[] {
  const missing = models.filter((m) => !table.models.includes(m));
  if (missing.length) throw new InputError(`no scores for ${missing.length} audited model(s): ${missing.join(', ')}`, file);
  return columns.map((c) => {
    const column = scoreColumn({ ...table, file: table.file ?? file }, c);
    return { name: c, scores: models.map((m) => column[table.models.indexOf(m)]!), source: `score table ${file}` };
  });
}

/** Within-ToM, within-general and cross-construct tau, partial tau and variance decomposition. */
export function discriminantValidity(
  audit: MatrixAudit,
  controls: ControlScores[],
  opts: { iterations?: number; seed?: number; method?: 'residual' | 'inverse' } = {},
): BenchmarkAudit {
  if (controls.length === 0) throw new ConfigError('discriminant validity needs at least one general-ability control');
  const names = new Set(audit.benchmarks.map((b) => b.name));
  for (const c of controls) if (names.has(c.name)) throw new ConfigError(`control "${c.name}" has the name of an audited ToM benchmark`);
  const benchmarks: Record<string, number[]> = {};
  for (const b of audit.benchmarks) benchmarks[b.name] = audit.accuracy.map((r) => r.byBenchmark[b.name]!);
  for (const c of controls) benchmarks[c.name] = c.scores;
  return auditBenchmarks(
    { models: audit.models, benchmarks },
    { tom: audit.benchmarks.map((b) => b.name), general: controls.map((c) => c.name), ...opts },
  );
}
