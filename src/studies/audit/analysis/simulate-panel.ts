// Simulated model x item response matrices from a multidimensional 2PL IRT model, to check
// the audit on known truth. Each model has a general ability g and a ToM ability per category;
// `structure: 'single'` gives every category the same ToM ability (one latent ToM factor),
// `'independent'` gives each category its own. `generalLoading` mixes g into every ability, as
// general language ability would; control benchmarks measure g alone. A share of items carries
// no signal (discrimination 0). `benchmarkShare` gives each benchmark's category ability a
// benchmark-specific part as well, so that two benchmarks rank the models differently and the
// true tau between them is below one; the truth records every ability, and since expected
// accuracy rises with ability, the true stage-1 tau of a pair and category is the tau between
// the two benchmarks' abilities (trueStage1Tau). Everything is drawn from one seed.

import { createRng, type Rng, kendallTau } from '../../../stats/index.js';
import type { ResponseMatrix } from '../../../store/matrix/index.js';

export interface SimulatedBenchmark {
  name: string;
  /** Items per category. */
  items: Record<string, number>;
}

export interface SimulateOptions {
  models: number;
  benchmarks: SimulatedBenchmark[];
  structure: 'single' | 'independent';
  /** Weight of the general ability in each ToM ability, 0..1 (default 0.5). */
  generalLoading?: number;
  /** Share of items with no signal (default 0.25). */
  noSignalShare?: number;
  /**
   * Share of each benchmark's category ability that is specific to the benchmark, 0..1
   * (default 0: every benchmark measures the same category ability).
   */
  benchmarkShare?: number;
  /** Control benchmarks measuring general ability only, with their item counts. */
  controls?: Record<string, number>;
  seed: number;
}

export interface SimulatedPanel {
  models: string[];
  matrices: Array<{ name: string; matrix: ResponseMatrix }>;
  /** Per-model accuracy on each control benchmark. */
  controlScores: Record<string, number[]>;
  /** The control benchmarks' response matrices (category 'general'). */
  controlMatrices: Array<{ name: string; matrix: ResponseMatrix }>;
  /** The true abilities, for checks: per category, and per benchmark and category (what its items measure). */
  truth: { general: number[]; tom: Record<string, number[]>; byBenchmark: Record<string, Record<string, number[]>> };
}

function normal(rng: Rng): number {
  const u = 1 - rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/** A simulated panel of models x items with a known latent structure (one ToM factor, or independent categories), for testing the audit. */
export function simulatePanel(opts: SimulateOptions): SimulatedPanel {
  const rng = createRng(`simulate-panel:${opts.seed}`);
  const w = opts.generalLoading ?? 0.5;
  const noSignal = opts.noSignalShare ?? 0.25;
  const models = Array.from({ length: opts.models }, (_, i) => `model-${String(i + 1).padStart(2, '0')}`);
  const general = models.map(() => normal(rng));
  const categories = [...new Set(opts.benchmarks.flatMap((b) => Object.keys(b.items)))].sort();
  const shared = models.map(() => normal(rng));
  const tom: Record<string, number[]> = {};
  for (const c of categories) {
    const own = opts.structure === 'single' ? shared : models.map(() => normal(rng));
    tom[c] = models.map((_, m) => Math.sqrt(w) * general[m]! + Math.sqrt(1 - w) * own[m]!);
  }
  const share = opts.benchmarkShare ?? 0;
  if (!(share >= 0 && share <= 1)) throw new Error(`benchmarkShare must lie in [0, 1], got ${share}`);
  const byBenchmark: Record<string, Record<string, number[]>> = {};
  for (const bench of opts.benchmarks) {
    byBenchmark[bench.name] = {};
    for (const c of Object.keys(bench.items).sort()) {
      // No draws at share 0, so that panels without benchmark-specific abilities stay as they were.
      byBenchmark[bench.name]![c] = share === 0 ? tom[c]! : tom[c]!.map((t) => Math.sqrt(1 - share) * t + Math.sqrt(share) * normal(rng));
    }
  }
  const answer = (theta: number, a: number, b: number) => (rng.next() < 1 / (1 + Math.exp(-a * (theta - b))) ? 1 : 0);
  const item = () => ({ a: rng.next() < noSignal ? 0 : 0.8 + rng.next() * 1.7, b: normal(rng) });
  const matrices = opts.benchmarks.map((bench) => {
    const items: ResponseMatrix['items'] = [];
    const cells: number[][] = [];
    for (const c of Object.keys(bench.items).sort()) {
      for (let k = 0; k < bench.items[c]!; k++) {
        const { a, b } = item();
        items.push({ suite: bench.name, itemId: `${c}-${k}`, category: c, originalLabel: a === 0 ? 'no-signal' : 'signal' });
        const ability = byBenchmark[bench.name]![c]!;
        cells.push(models.map((_, m) => answer(ability[m]!, a, b)));
      }
    }
    return { name: bench.name, matrix: { subjects: models, items, cells } };
  });
  const controlScores: Record<string, number[]> = {};
  const controlMatrices: SimulatedPanel['controlMatrices'] = [];
  for (const [name, n] of Object.entries(opts.controls ?? {})) {
    const params = Array.from({ length: n }, item);
    const cells = params.map(() => new Array<number>(models.length));
    controlScores[name] = models.map((_, m) => params.reduce((s, p, k) => s + (cells[k]![m] = answer(general[m]!, p.a, p.b)), 0) / n);
    const items = params.map((p, k) => ({
      suite: name,
      itemId: `general-${k}`,
      category: 'general',
      originalLabel: p.a === 0 ? 'no-signal' : 'signal',
    }));
    controlMatrices.push({ name, matrix: { subjects: models, items, cells } });
  }
  return { models, matrices, controlScores, controlMatrices, truth: { general, tom, byBenchmark } };
}

/**
 * The stage-1 estimand of a simulated panel: Kendall tau between two benchmarks' true
 * abilities in a category (expected accuracy rises with ability, so it orders models alike).
 */
export function trueStage1Tau(panel: SimulatedPanel, a: string, b: string, category: string): number {
  const x = panel.truth.byBenchmark[a]?.[category];
  const y = panel.truth.byBenchmark[b]?.[category];
  if (!x || !y) throw new Error(`no true abilities for ${a} and ${b} in ${category}`);
  return kendallTau(x, y);
}
