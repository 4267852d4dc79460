// Simulated panels from known IRT models, to check calibration, tiny benchmarks and adaptive
// testing against the truth: 1PL, 2PL or 3PL items, or a bifactor model (a general ability plus
// one specific ability per category, each item loading on the general one and its category's),
// or a compensatory M2PL with `dimensions` k (a dominant general dimension plus k - 1
// category dimensions: categories, in sorted order, go round-robin to "general only", dimension
// 2, ..., dimension k; an item of a category on dimension d loads on the general dimension and,
// with slope specificRatio x a lognormal draw, on d).
// Abilities ~ N(mean, sd^2); log a ~ N(meanLog, sdLog^2) (1PL: a = exp(meanLog)); b ~ N(mean,
// sd^2); 3PL c fixed. A share of cells can be left missing at random. One seed draws everything.

import { createRng, type Rng } from '../../core/index.js';
import type { MatrixItem, ResponseMatrix } from '../../store/index.js';

export interface IrtSimulationOptions {
  models: number;
  /** Suites with their item counts per category. */
  suites: Array<{ name: string; items: Record<string, number> }>;
  model: '1pl' | '2pl' | '3pl' | 'bifactor' | 'm2pl';
  /** m2pl: number of latent dimensions (default 2). */
  dimensions?: number;
  discrimination?: { meanLog: number; sdLog: number };
  difficulty?: { mean: number; sd: number };
  /** 3PL guessing floor (default 0.25). */
  guessing?: number;
  ability?: { mean: number; sd: number };
  /** Bifactor: SD-scale of the specific slopes relative to the general (default 0.6). */
  specificRatio?: number;
  /** Share of cells left blank at random (default 0). */
  missingShare?: number;
  seed: number;
}

export interface SimulatedIrtPanel {
  matrix: ResponseMatrix;
  truth: {
    /** General ability per model. */
    theta: number[];
    /** Bifactor: specific ability per category and model. */
    specific?: Record<string, number[]>;
    /** Per item, in matrix order. */
    a: number[];
    b: number[];
    c: number[];
    /** Bifactor: the specific slope per item. */
    aSpecific?: number[];
    /** m2pl: every model's ability vector and every item's slopes (dimension 1 general) and intercept. */
    abilities?: number[][];
    slopes?: number[][];
    intercepts?: number[];
    /** Expected accuracy of each model on each suite's items: mean of P over the suite. */
  };
}

function normal(rng: Rng): number {
  const u = 1 - rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

/** Draw a panel of models answering items from a known IRT model. */
export function simulateIrtPanel(opts: IrtSimulationOptions): SimulatedIrtPanel {
  if (!(opts.models >= 1)) throw new Error(`simulateIrtPanel: models must be at least 1, got ${opts.models}`);
  const rng = createRng(`simulate-irt:${opts.seed}`);
  const disc = opts.discrimination ?? { meanLog: 0.3, sdLog: 0.4 };
  const diff = opts.difficulty ?? { mean: 0, sd: 1.2 };
  const abil = opts.ability ?? { mean: 0, sd: 1 };
  const guess = opts.model === '3pl' ? (opts.guessing ?? 0.25) : 0;
  const missing = opts.missingShare ?? 0;
  const subjects = Array.from({ length: opts.models }, (_, m) => `model-${String(m + 1).padStart(3, '0')}`);
  const theta = subjects.map(() => abil.mean + abil.sd * normal(rng));
  const categories = [...new Set(opts.suites.flatMap((s) => Object.keys(s.items)))].sort();
  const specific: Record<string, number[]> | undefined =
    opts.model === 'bifactor' ? Object.fromEntries(categories.map((c) => [c, subjects.map(() => normal(rng))])) : undefined;
  const dims = opts.model === 'm2pl' ? (opts.dimensions ?? 2) : 1;
  if (!(Number.isInteger(dims) && dims >= 1 && dims <= 10)) throw new Error(`simulateIrtPanel: dimensions must be 1..10, got ${dims}`);
  const abilities = opts.model === 'm2pl' ? theta.map((t) => [t, ...Array.from({ length: dims - 1 }, () => normal(rng))]) : undefined;
  const slopes: number[][] = [];
  const intercepts: number[] = [];
  const items: MatrixItem[] = [];
  const a: number[] = [];
  const b: number[] = [];
  const c: number[] = [];
  const aSpecific: number[] = [];
  const cells: Array<Array<number | null>> = [];
  const ratio = opts.specificRatio ?? 0.6;
  for (const suite of opts.suites) {
    for (const category of Object.keys(suite.items).sort()) {
      const n = suite.items[category]!;
      for (let k = 0; k < n; k++) {
        const ai = opts.model === '1pl' ? Math.exp(disc.meanLog) : Math.exp(disc.meanLog + disc.sdLog * normal(rng));
        const bi = diff.mean + diff.sd * normal(rng);
        const si = opts.model === 'bifactor' ? ratio * Math.exp(disc.meanLog + disc.sdLog * normal(rng)) : 0;
        const on = categories.indexOf(category) % dims;
        const slope = abilities
          ? Array.from({ length: dims }, (_, d) =>
              d === 0 ? ai : d === on ? ratio * Math.exp(disc.meanLog + disc.sdLog * normal(rng)) : 0,
            )
          : [];
        if (abilities) {
          slopes.push(slope);
          intercepts.push(-ai * bi);
        }
        items.push({ suite: suite.name, itemId: `${category}-${String(k + 1).padStart(4, '0')}`, category, originalLabel: '' });
        a.push(ai);
        b.push(bi);
        c.push(guess);
        aSpecific.push(si);
        const spec = specific?.[category];
        cells.push(
          theta.map((t, m) => {
            let z = ai * (t - bi) + (spec ? si * spec[m]! : 0);
            if (abilities) for (let d = 1; d < dims; d++) z += slope[d]! * abilities[m]![d]!;
            const p = guess + (1 - guess) / (1 + Math.exp(-z));
            const y = rng.next() < p ? 1 : 0;
            return missing > 0 && rng.next() < missing ? null : y;
          }),
        );
      }
    }
  }
  return {
    matrix: { subjects, items, cells },
    truth: { theta, a, b, c, ...(specific ? { specific, aSpecific } : {}), ...(abilities ? { abilities, slopes, intercepts } : {}) },
  };
}
