// Leave-one-model-out check of tiny benchmarks: for each held-out model, calibrate a bank on
// the other models (warm-started from the whole panel's fit), choose k items per suite by each
// strategy on that bank, estimate the held-out model's accuracy on every suite from its answers
// to those items alone, and compare with its accuracy on all the suite's items. The baseline is
// the mean of its answers on k items drawn at random. Nothing about the held-out model enters
// its own bank, selection or gp-IRT validation.

import { createRng } from '../../core/index.js';
import type { ResponseMatrix } from '../../store/index.js';
import type { TinyPointEstimate } from '../../stats/irt/index.js';
import { type BankCalibrationOptions, calibrateBank } from './calibrate-bank.js';
import { bankItemParams, irtItemKey } from './irt-bank.js';
import { estimateAccuracyFromAnswers } from './tiny-estimate.js';
import { selectTinyItems, type TinyStrategy } from './tiny-benchmark.js';

export type TinyEstimatorName = 'anchor' | 'irt' | 'pIrt' | 'gpIrt';
export const TINY_ESTIMATORS: readonly TinyEstimatorName[] = ['anchor', 'irt', 'pIrt', 'gpIrt'];

export interface TinyValidationOptions {
  calibration: Omit<BankCalibrationOptions, 'source' | 'start' | 'diagnostics'>;
  k: number;
  strategies: readonly TinyStrategy[];
  by?: 'suite' | 'category';
  seed: number;
  /** Indices of the models to hold out (default all). */
  heldOut?: readonly number[];
  /** Parameter draws for the intervals (tiny-estimate.ts; default 20); > 0 computes the folds' standard errors. */
  parameterDraws?: number;
  /** Called after each held-out model (for progress). */
  onModel?: (done: number, total: number) => void;
}

export interface TinyValidationRow {
  model: string;
  suite: string;
  truth: number;
  /** Mean of k random items' answers. */
  random: number;
  estimates: Record<string, Record<TinyEstimatorName, TinyPointEstimate | null>>;
}

export interface TinyValidationSummary {
  suite: string;
  /** A strategy name, or 'random-sample' for the baseline. */
  strategy: string;
  estimator: TinyEstimatorName | 'mean';
  models: number;
  /** Mean and SD of the absolute errors, their 90th percentile and maximum. */
  mae: number;
  sdAbsError: number;
  p90AbsError: number;
  maxAbsError: number;
  /** Mean signed error. */
  bias: number;
  /** Share of held-out models whose true accuracy lies in the interval (null for the baseline). */
  coverage: number | null;
}

export interface TinyValidationResult {
  rows: TinyValidationRow[];
  summary: TinyValidationSummary[];
}

function summarise(
  suite: string,
  strategy: string,
  estimator: TinyValidationSummary['estimator'],
  pairs: Array<{ e: number; t: number; lo?: number; hi?: number }>,
): TinyValidationSummary {
  const abs = pairs.map((p) => Math.abs(p.e - p.t)).sort((x, y) => x - y);
  const n = abs.length;
  const mae = abs.reduce((s, v) => s + v, 0) / n;
  const sd = Math.sqrt(abs.reduce((s, v) => s + (v - mae) ** 2, 0) / Math.max(1, n - 1));
  const covered = pairs.filter((p) => p.lo !== undefined && p.t >= p.lo && p.t <= p.hi!).length;
  return {
    suite,
    strategy,
    estimator,
    models: n,
    mae,
    sdAbsError: sd,
    p90AbsError: abs[Math.min(n - 1, Math.ceil(0.9 * n) - 1)]!,
    maxAbsError: abs[n - 1]!,
    bias: pairs.reduce((s, p) => s + p.e - p.t, 0) / n,
    coverage: pairs[0]?.lo === undefined ? null : covered / n,
  };
}

/** Leave-one-model-out errors of tiny-benchmark estimates (see the file comment). */
export function validateTinyBenchmarks(matrix: ResponseMatrix, opts: TinyValidationOptions): TinyValidationResult {
  const heldOut = opts.heldOut ?? matrix.subjects.map((_, j) => j);
  const whole = calibrateBank(matrix, { ...opts.calibration, source: 'panel', validate: false, diagnostics: false, standardErrors: false });
  const start = bankItemParams(whole);
  const suites = [...new Set(matrix.items.map((i) => i.suite))];
  const rows: TinyValidationRow[] = [];
  heldOut.forEach((m, done) => {
    const keep = matrix.subjects.map((_, j) => j).filter((j) => j !== m);
    const train: ResponseMatrix = {
      subjects: keep.map((j) => matrix.subjects[j]!),
      items: matrix.items,
      cells: matrix.cells.map((row) => keep.map((j) => row[j]!)),
    };
    const bank = calibrateBank(train, {
      ...opts.calibration,
      source: `without ${matrix.subjects[m]}`,
      diagnostics: false,
      standardErrors: (opts.parameterDraws ?? 20) > 0,
      start: whole.items.length === matrix.items.length ? start : undefined,
    });
    const answersOf = (keys: Set<string>) => {
      const out = new Map<string, number>();
      matrix.items.forEach((it, i) => {
        const key = irtItemKey(it.suite, it.itemId);
        const v = matrix.cells[i]![m];
        if (keys.has(key) && v !== null && v !== undefined) out.set(key, v);
      });
      return out;
    };
    const perStrategy = new Map<string, ReturnType<typeof estimateAccuracyFromAnswers>>();
    for (const strategy of opts.strategies) {
      const tiny = selectTinyItems(bank, { k: opts.k, strategy, by: opts.by, seed: opts.seed, matrix: train });
      const answers = answersOf(new Set(tiny.items.map((t) => irtItemKey(t.suite, t.id))));
      perStrategy.set(strategy, estimateAccuracyFromAnswers(bank, answers, { tiny, parameterDraws: opts.parameterDraws }));
    }
    const rng = createRng(`tiny-validation-random:${opts.seed}:${m}`);
    for (const suite of suites) {
      const idx = matrix.items.map((it, i) => (it.suite === suite ? i : -1)).filter((i) => i >= 0);
      const answered = idx.filter((i) => matrix.cells[i]![m] !== null && matrix.cells[i]![m] !== undefined);
      if (answered.length === 0) continue;
      const truth = answered.reduce((s, i) => s + matrix.cells[i]![m]!, 0) / answered.length;
      const sample = rng.shuffle(answered).slice(0, Math.min(opts.k, answered.length));
      const random = sample.reduce((s, i) => s + matrix.cells[i]![m]!, 0) / sample.length;
      const estimates: TinyValidationRow['estimates'] = {};
      for (const [strategy, est] of perStrategy) {
        const row = est.rows.find((r) => r.suite === suite && r.category === null)!;
        estimates[strategy] = { anchor: row.anchor, irt: row.irt, pIrt: row.pIrt, gpIrt: row.gpIrt };
      }
      rows.push({ model: matrix.subjects[m]!, suite, truth, random, estimates });
    }
    opts.onModel?.(done + 1, heldOut.length);
  });
  const summary: TinyValidationSummary[] = [];
  for (const suite of suites) {
    const rs = rows.filter((r) => r.suite === suite);
    if (rs.length === 0) continue;
    summary.push(
      summarise(
        suite,
        'random-sample',
        'mean',
        rs.map((r) => ({ e: r.random, t: r.truth })),
      ),
    );
    for (const strategy of opts.strategies)
      for (const estimator of TINY_ESTIMATORS) {
        const pairs = rs
          .map((r) => ({ p: r.estimates[strategy]![estimator], t: r.truth }))
          .filter((x) => x.p !== null && Number.isFinite(x.p.estimate))
          .map((x) => ({ e: x.p!.estimate, t: x.t, lo: x.p!.lower, hi: x.p!.upper }));
        if (pairs.length > 0) summary.push(summarise(suite, strategy, estimator, pairs));
      }
  }
  return { rows, summary };
}
