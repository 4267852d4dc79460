// The three-stage audit of benchmark response matrices (the audit paper, sections 2.1-2.4):
// convergent validity, the item filter, the repeated cross-fit, and the factor structure.

import type { ResponseMatrix } from '../../store/index.js';
import { prepareBenchmarks } from './benchmark-matrix.js';
import { convergentValidity, type ConvergenceOptions, type ConvergenceResult } from './convergent-validity.js';
import { crossFit, type CrossFitOptions, type CrossFitResult } from './cross-fit.js';
import type { StructureResult } from './factor-structure.js';
import { factorStructureParallel } from './structure-pool.js';
import { filterItems, type FilterResult } from './item-filter.js';

export interface MatrixAuditOptions {
  convergence?: ConvergenceOptions;
  filter?: { threshold?: number; epsilon?: number };
  crossFit?: CrossFitOptions;
  parallelIterations?: number;
  /** 'pca' skips parallel analysis and EFA. */
  structure?: 'full' | 'pca';
  /** Worker threads for the factor structures (default: one per core, at most four; 1 = in process). */
  threads?: number;
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
  /**
   * Time per step. With worker threads, 'structure' runs beside stages 1-3 and its time is the
   * wall time until the last worker finished; 'total' is the whole audit.
   */
  timingsMs: Record<string, number>;
  structureThreads: number;
}

export async function auditMatrices(inputs: Array<{ name: string; matrix: ResponseMatrix }>, opts: MatrixAuditOptions = {}): Promise<MatrixAudit> {
  const seed = opts.seed ?? 0;
  const t: Record<string, number> = {};
  const start = performance.now();
  const time = <T>(label: string, f: () => T): T => {
    const s = performance.now();
    const r = f();
    t[label] = performance.now() - s;
    return r;
  };
  const panel = time('prepare', () => prepareBenchmarks(inputs));
  // The factor structures start first: on worker threads they run beside stages 1-3.
  const structurePromise = factorStructureParallel(panel, { iterations: opts.parallelIterations, seed, depth: opts.structure, threads: opts.threads });
  const convergence = time('stage1', () => convergentValidity(panel, { seed, ...opts.convergence }));
  const filter = time('stage2', () => filterItems(panel, opts.filter));
  const keptIds = filter.benchmarks.map((b) => new Set(b.flags.filter((f) => f.kept).map((f) => f.id)));
  const filteredPanel = { ...panel, benchmarks: panel.benchmarks.map((b, i) => ({ ...b, items: b.items.filter((it) => keptIds[i].has(it.id)) })) };
  const convergenceFiltered = time('stage1-filtered', () => convergentValidity(filteredPanel, { seed, ...opts.convergence }));
  const cf = time('stage3', () => crossFit(panel, { seed, ...opts.crossFit }));
  const { results: structure, threads, ms } = await structurePromise;
  t.structure = ms;
  t.total = performance.now() - start;
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
    structureThreads: threads,
  };
}
