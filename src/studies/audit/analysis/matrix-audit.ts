// The three-stage audit of benchmark response matrices (the audit paper, sections 2.1-2.4):
// convergent validity, the item filter, the repeated cross-fit, and the factor structure.

import type { ResponseMatrix } from '../../../store/matrix/index.js';
import { runAuditTasks } from './audit-pool.js';
import type { AuditTask } from './audit-tasks.js';
import { flatten, prepareBenchmarks } from './benchmark-matrix.js';
import {
  gatherConvergence,
  planCells,
  type ConvergenceCell,
  type ConvergenceOptions,
  type ConvergenceResult,
} from './convergent-validity.js';
import { gatherCrossFit, type CrossFitCell, type CrossFitOptions, type CrossFitResult } from './cross-fit.js';
import { structureTasks, type StructureResult } from './factor-structure.js';
import { filterItems, type FilterResult } from './item-filter.js';
import { confirmatoryFactorAnalysis, type CfaStructure, type ConfirmatoryResult } from './confirmatory.js';
import { ConfigError } from '../../../core/errors.js';
import { scenarioVerdicts, type ScenarioVerdict } from './scenario-verdict.js';

/** Models x stage-1 cell items from which the PCA-only audit uses worker threads by default. */
const PCA_WORKERS_FROM = 1_400_000;

/** The paper's five ATOMS categories, the stage-1 and stage-3 default for ToMBench, ToMATO and CogToM. */
export const ATOMS_FIVE = ['belief', 'desire', 'emotion', 'intention', 'knowledge'] as const;

/**
 * The categories stages 1 and 3 test by default: the paper's five when every benchmark is one
 * of ToMBench, ToMATO and CogToM (by name, any case), so that percept and non-literal stay out
 * of the cells and the Holm family; otherwise every category the two benchmarks share.
 */
export function defaultAuditCategories(names: string[]): { filter: string[] | 'all'; source: string } {
  const paper = ['tombench', 'tomato', 'cogtom'];
  return names.every((n) => paper.includes(n.toLowerCase()))
    ? { filter: [...ATOMS_FIVE], source: "the paper's five ATOMS categories (default for ToMBench, ToMATO and CogToM)" }
    : { filter: 'all', source: 'every category both benchmarks of a pair share (default)' };
}

export interface MatrixAuditOptions {
  /**
   * Categories tested in stages 1 and 3 (and so in the Holm family): a list, 'all' for every
   * shared category, or by default defaultAuditCategories. Stage 2 and the factor structure use
   * every item.
   */
  categories?: readonly string[] | 'all';
  convergence?: ConvergenceOptions;
  filter?: { threshold?: number; epsilon?: number };
  crossFit?: CrossFitOptions;
  parallelIterations?: number;
  /** 'pca' skips parallel analysis and EFA. */
  structure?: 'full' | 'pca';
  /** Confirmatory factor analysis of the category structure on each matrix (see confirmatory.ts). */
  cfa?: { structure: CfaStructure; parcels?: number };
  /**
   * Worker threads for the audit's tasks (default: one per core, at most four; with structure
   * 'pca', 1 = in process unless models x stage-1 cell items reach 1,400,000).
   */
  threads?: number;
  seed?: number;
}

export interface MatrixAudit {
  models: string[];
  /** The category filter of stages 1 and 3, and where it came from. */
  categories: { filter: string[] | 'all'; source: string };
  droppedModels: string[];
  benchmarks: Array<{ name: string; items: number; droppedIncomplete: number }>;
  /** Each model's accuracy on each benchmark (all items). */
  accuracy: Array<{ model: string; byBenchmark: Record<string, number> }>;
  convergence: ConvergenceResult;
  /** Stage-1 tau recomputed on the items the filter keeps (for before/after forest plots). */
  convergenceFiltered: ConvergenceResult;
  filter: FilterResult;
  crossFit: CrossFitResult;
  /** The paper's Scenario A / B reading of stage 3, per category (Holm-adjusted p < 0.05). */
  scenarios: ScenarioVerdict[];
  structure: StructureResult[];
  /** With the cfa option: each matrix's confirmatory fit, or why none could be made. */
  cfa?: Array<ConfirmatoryResult | { name: string; error: string }>;
  /**
   * Compute time per step (summed over its tasks, wherever they ran); 'total' is the wall
   * time of the whole audit, less than their sum when tasks ran on several threads.
   */
  timingsMs: Record<string, number>;
  /** Threads the audit's tasks ran on (1: in process). */
  threads: number;
}

/** The three-stage psychometric audit of benchmark response matrices (convergent validity, item filter, cross-fit) with factor structure and discriminant validity. */
export async function auditMatrices(
  inputs: Array<{ name: string; matrix: ResponseMatrix }>,
  opts: MatrixAuditOptions = {},
): Promise<MatrixAudit> {
  const seed = opts.seed ?? 0;
  const t: Record<string, number> = {};
  const start = performance.now();
  const panel = prepareBenchmarks(inputs);
  t.prepare = performance.now() - start;
  // Stage 2 first (fast, in process): stage 1 is repeated on the items it keeps.
  const s2 = performance.now();
  const itemFilter = filterItems(panel, opts.filter);
  t.stage2 = performance.now() - s2;
  const keptIds = itemFilter.benchmarks.map((b) => new Set(b.flags.filter((f) => f.kept).map((f) => f.id)));
  const filteredPanel = {
    ...panel,
    benchmarks: panel.benchmarks.map((b, i) => ({ ...b, items: b.items.filter((it) => keptIds[i]!.has(it.id)) })),
  };
  // Everything else is independent pieces of work, run on worker threads where there are cores.
  const M = panel.models.length;
  const categories =
    opts.categories === undefined
      ? defaultAuditCategories(panel.benchmarks.map((b) => b.name))
      : { filter: opts.categories === 'all' ? ('all' as const) : [...opts.categories], source: 'given (--categories)' };
  const filter = categories.filter === 'all' ? undefined : categories.filter;
  const plan = planCells(panel, filter);
  const planFiltered = planCells(filteredPanel, filter);
  const convergenceOptions = { seed, ...opts.convergence };
  const crossFitOptions = { seed, ...opts.crossFit };
  const structureOptions = { iterations: opts.parallelIterations, seed, depth: opts.structure };
  const groups = {
    structure: structureTasks(panel).map(
      (s): AuditTask => ({
        kind: 'structure',
        name: s.name,
        models: M,
        responses: flatten(s.items, M),
        categories: s.items.map((it) => it.category),
        options: structureOptions,
      }),
    ),
    stage1: plan.flatMap((p) => p.cells.map((cell): AuditTask => ({ kind: 'convergence', cell, options: convergenceOptions }))),
    'stage1-filtered': planFiltered.flatMap((p) =>
      p.cells.map((cell): AuditTask => ({ kind: 'convergence', cell, options: convergenceOptions })),
    ),
    stage3: plan.flatMap((p) => p.cells.map((cell): AuditTask => ({ kind: 'cross-fit', cell, options: crossFitOptions }))),
  };
  const tasks = Object.values(groups).flat();
  // Without parallel analysis small tasks do not repay a worker's start-up, so that depth runs
  // in process unless asked or unless the bootstrap's work (models x items over the stage-1
  // cells) reaches 1,400,000, about twice the paper's (27 models x 26,520 cell items).
  // Measured on 2 cores once the bootstrap summed in WebAssembly (wall time of the command, in
  // process against two workers, alternating runs): the paper's panel 1.03-1.39 s against
  // 1.27-1.51, 27 x 10,000 items a benchmark (about 1,300,000) 1.34-1.79 against 1.51-2.11 (even
  // at the medians), 100 x 3,000 (1,450,000; 100 models sum through per-item counts, in
  // JavaScript) 1.90-1.97 against 1.65-1.70, 27 x 30,000 2.92-2.95 against 2.68-2.80. A review
  // on the same machine, busier, found workers slower at all three of the first: the line is
  // drawn between the sizes where they lost or tied and those where they won. Before that, with
  // the sums in JavaScript: the paper's panel 0.74 s against 0.69 s, 27 x 10,000 1.08 against
  // 0.93 s, 27 x 3,000 (about 380,000) even at 0.53 s, on a machine whose cores contended less
  // (the threshold was 500,000). (Before, when a worker took
  // longer to start: 1.8 s in process, 2.1 s on two workers at the paper's scale.)
  const work = M * plan.reduce((s, p) => s + p.cells.reduce((t, c) => t + (c.a.length + c.b.length) / M, 0), 0);
  const outcome = await runAuditTasks(tasks, opts.threads ?? (opts.structure === 'pca' && work < PCA_WORKERS_FROM ? 1 : undefined));
  const take = <T>(group: keyof typeof groups): T[] => {
    const offset = Object.keys(groups)
      .slice(0, Object.keys(groups).indexOf(group))
      .reduce((s, g) => s + groups[g as keyof typeof groups].length, 0);
    const count = groups[group].length;
    t[group] = outcome.ms.slice(offset, offset + count).reduce((a, b) => a + b, 0);
    return outcome.results.slice(offset, offset + count) as T[];
  };
  const byPair = <T>(flat: T[], p: typeof plan): T[][] => {
    let k = 0;
    return p.map((x) => x.cells.map(() => flat[k++]!));
  };
  const structure = take<StructureResult>('structure');
  const convergence = gatherConvergence(plan, byPair(take<ConvergenceCell>('stage1'), plan), convergenceOptions);
  const convergenceFiltered = gatherConvergence(
    planFiltered,
    byPair(take<ConvergenceCell>('stage1-filtered'), planFiltered),
    convergenceOptions,
  );
  const cf = gatherCrossFit(byPair(take<CrossFitCell>('stage3'), plan), crossFitOptions);
  let cfa: MatrixAudit['cfa'];
  if (opts.cfa) {
    const s4 = performance.now();
    const { structure: cfaStructure, parcels } = opts.cfa;
    cfa = structureTasks(panel).map((task) => {
      try {
        return confirmatoryFactorAnalysis(task.name, task.items, M, { structure: cfaStructure, parcels, seed });
      } catch (err) {
        if (err instanceof ConfigError || err instanceof RangeError) return { name: task.name, error: err.message };
        throw err;
      }
    });
    t.cfa = performance.now() - s4;
  }
  const threadsUsed = outcome.threads;
  t.total = performance.now() - start;
  return {
    models: panel.models,
    droppedModels: panel.droppedModels,
    benchmarks: panel.benchmarks.map((b) => ({ name: b.name, items: b.items.length, droppedIncomplete: b.droppedIncomplete })),
    accuracy: panel.models.map((model, m) => ({
      model,
      byBenchmark: Object.fromEntries(
        panel.benchmarks.map((b) => [b.name, b.items.reduce((s, it) => s + it.responses[m]!, 0) / b.items.length]),
      ),
    })),
    categories,
    convergence,
    convergenceFiltered,
    filter: itemFilter,
    crossFit: cf,
    scenarios: scenarioVerdicts(cf.cells),
    structure,
    ...(cfa ? { cfa } : {}),
    timingsMs: t,
    threads: threadsUsed,
  };
}
