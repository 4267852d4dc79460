// Which stage-1 interval covers the true tau? Simulated panels with known abilities (two
// benchmarks whose category abilities share a common part and keep a benchmark-specific part,
// so the true tau is below one): each replication draws new models and items, runs the paired
// item bootstrap of every cell once, builds every interval method from the same replicates,
// and counts how often each contains the cell's true tau (trueStage1Tau).

import { INTERVAL_METHODS, type IntervalMethod } from '../../../stats/index.js';
import { prepareBenchmarks } from './benchmark-matrix.js';
import { cellBootstrap, cellInterval, planCells } from './convergent-validity.js';
import { simulatePanel, trueStage1Tau } from './simulate-panel.js';

export interface CoverageOptions {
  replications: number;
  models: number;
  /** Items per benchmark and category. */
  items: number;
  categories?: string[];
  /** Benchmark-specific share of each category ability (0..1; 0 makes the true tau 1). */
  benchmarkShare?: number;
  generalLoading?: number;
  noSignalShare?: number;
  /** Bootstrap resamples per cell. */
  iterations?: number;
  level?: number;
  seed?: number;
  methods?: readonly IntervalMethod[];
}

export interface CoverageRow {
  method: IntervalMethod;
  /** Cells whose interval contains the true tau. */
  covered: number;
  cells: number;
  coverage: number;
  /** Binomial standard error of the coverage (cells of one replication share models, so this is a lower bound). */
  se: number;
  /** Intervals entirely below / above the true tau. */
  below: number;
  above: number;
  meanWidth: number;
  /** Intervals that exclude their own point estimate. */
  excludeEstimate: number;
}

export interface CoverageResult {
  settings: Required<Omit<CoverageOptions, 'methods' | 'level'>> & { level: number };
  rows: CoverageRow[];
  meanTrueTau: number;
  meanEstimate: number;
}

/** Coverage of each stage-1 interval method over simulated replications (see the file comment). */
export function intervalCoverage(opts: CoverageOptions): CoverageResult {
  const settings = {
    replications: opts.replications,
    models: opts.models,
    items: opts.items,
    categories: opts.categories ?? ['belief', 'desire', 'emotion', 'intention', 'knowledge'],
    benchmarkShare: opts.benchmarkShare ?? 0.1,
    generalLoading: opts.generalLoading ?? 0.5,
    noSignalShare: opts.noSignalShare ?? 0.25,
    iterations: opts.iterations ?? 1000,
    seed: opts.seed ?? 0,
    level: opts.level ?? 0.95,
  };
  if (settings.level !== 0.95) throw new Error('intervalCoverage: stage-1 intervals are 95% intervals');
  const methods = opts.methods ?? INTERVAL_METHODS;
  const tally = methods.map((method) => ({ method, covered: 0, below: 0, above: 0, width: 0, excludeEstimate: 0 }));
  let cells = 0;
  let trueSum = 0;
  let estimateSum = 0;
  for (let r = 0; r < settings.replications; r++) {
    const items = Object.fromEntries(settings.categories.map((c) => [c, settings.items]));
    const panel = simulatePanel({
      models: settings.models,
      benchmarks: [
        { name: 'A', items },
        { name: 'B', items },
      ],
      structure: 'single',
      generalLoading: settings.generalLoading,
      noSignalShare: settings.noSignalShare,
      benchmarkShare: settings.benchmarkShare,
      seed: settings.seed * 1_000_003 + r,
    });
    const plan = planCells(prepareBenchmarks(panel.matrices));
    for (const d of plan[0]!.cells) {
      const truth = trueStage1Tau(panel, 'A', 'B', d.category);
      const boot = cellBootstrap(d, { iterations: settings.iterations, seed: settings.seed });
      if (Number.isNaN(boot.tau)) continue;
      cells++;
      trueSum += truth;
      estimateSum += boot.tau;
      for (const t of tally) {
        const { lower, upper } = cellInterval(d, boot, t.method);
        if (lower <= truth && truth <= upper) t.covered++;
        else if (upper < truth) t.below++;
        else t.above++;
        t.width += upper - lower;
        if (boot.tau < lower || boot.tau > upper) t.excludeEstimate++;
      }
    }
  }
  return {
    settings,
    rows: tally.map((t) => {
      const coverage = t.covered / cells;
      return {
        method: t.method,
        covered: t.covered,
        cells,
        coverage,
        se: Math.sqrt((coverage * (1 - coverage)) / cells),
        below: t.below,
        above: t.above,
        meanWidth: t.width / cells,
        excludeEstimate: t.excludeEstimate,
      };
    }),
    meanTrueTau: trueSum / cells,
    meanEstimate: estimateSum / cells,
  };
}
