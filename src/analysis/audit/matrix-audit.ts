// The three-stage audit of benchmark response matrices (the audit paper, sections 2.1-2.4):
// convergent validity, the item filter, the repeated cross-fit, and the factor structure.

import type { ResponseMatrix } from '../../store/index.js';
import { prepareBenchmarks } from './benchmark-matrix.js';
import { convergentValidity, type ConvergenceOptions, type ConvergenceResult } from './convergent-validity.js';
import { crossFit, type CrossFitOptions, type CrossFitResult } from './cross-fit.js';
import { factorStructure, type StructureResult } from './factor-structure.js';
import { filterItems, type FilterResult } from './item-filter.js';

export interface MatrixAuditOptions {
  convergence?: ConvergenceOptions;
  filter?: { threshold?: number; epsilon?: number };
  crossFit?: CrossFitOptions;
  parallelIterations?: number;
  seed?: number;
}

export interface MatrixAudit {
  models: string[];
  droppedModels: string[];
  benchmarks: Array<{ name: string; items: number; droppedIncomplete: number }>;
  /** Each model's accuracy on each benchmark (all items). */
  accuracy: Array<{ model: string; byBenchmark: Record<string, number> }>;
  convergence: ConvergenceResult;
  /** Stage-1 tau recomputed on the items the filter keeps (for before/after forest plots). */
  convergenceFiltered: ConvergenceResult;
  filter: FilterResult;
  crossFit: CrossFitResult;
  structure: StructureResult[];
  timingsMs: Record<string, number>;
}

export function auditMatrices(inputs: Array<{ name: string; matrix: ResponseMatrix }>, opts: MatrixAuditOptions = {}): MatrixAudit {
  const seed = opts.seed ?? 0;
  const t: Record<string, number> = {};
  const time = <T>(label: string, f: () => T): T => {
    const s = performance.now();
    const r = f();
    t[label] = performance.now() - s;
    return r;
  };
  const panel = time('prepare', () => prepareBenchmarks(inputs));
  const convergence = time('stage1', () => convergentValidity(panel, { seed, ...opts.convergence }));
  const filter = time('stage2', () => filterItems(panel, opts.filter));
  const keptIds = filter.benchmarks.map((b) => new Set(b.flags.filter((f) => f.kept).map((f) => f.id)));
  const filteredPanel = { ...panel, benchmarks: panel.benchmarks.map((b, i) => ({ ...b, items: b.items.filter((it) => keptIds[i].has(it.id)) })) };
  const convergenceFiltered = time('stage1-filtered', () => convergentValidity(filteredPanel, { seed, ...opts.convergence }));
  const cf = time('stage3', () => crossFit(panel, { seed, ...opts.crossFit }));
  const structure = time('structure', () => factorStructure(panel, { iterations: opts.parallelIterations, seed }));
  return {
    models: panel.models,
    droppedModels: panel.droppedModels,
    benchmarks: panel.benchmarks.map((b) => ({ name: b.name, items: b.items.length, droppedIncomplete: b.droppedIncomplete })),
    accuracy: panel.models.map((model, m) => ({
      model,
      byBenchmark: Object.fromEntries(panel.benchmarks.map((b) => [b.name, b.items.reduce((s, it) => s + it.responses[m], 0) / b.items.length])),
    })),
    convergence,
    convergenceFiltered,
    filter,
    crossFit: cf,
    structure,
    timingsMs: t,
  };
}
