// An adaptive test over one suite of a bank, by item id, for a runner to drive in waves:
//   const s = createAdaptiveSession(bank, { suite: 'tombench', targetSe: 0.25, seed: 1 });
//   for (let ids = s.nextWave(4); ids.length > 0; ids = s.nextWave(4))
//     for (const id of ids) s.record(id, await score(id));
//   s.result()  // ability, SE, accuracy estimate with interval, items used
// Content balancing targets each category's share of the suite.
// A multidimensional (m2pl) bank runs the accuracy-targeted test instead (stats/irt/mirt-adaptive.ts):
// each next item is the one expected to shrink the posterior variance of the suite's accuracy
// most, and the test stops at `accuracySe`, the accuracy estimate's standard error; theta and se
// report the general (first) dimension's posterior mean and SD.

import { InputError } from '../../core/index.js';
import { AdaptiveTest, type ExposureControl, MirtAdaptiveTest, subsetItems } from '../../stats/irt/index.js';
import { bankItemParams, type IrtBank, irtItemKey } from './irt-bank.js';
import { bankMirtAccuracyModel } from './mirt-bank.js';
import { estimateAccuracyFromAnswers, type TinyAccuracyRow } from './tiny-estimate.js';

export interface AdaptiveSessionOptions {
  /** The suite to test (may be omitted when the bank has one). */
  suite?: string;
  /** Target SE of ability (one-dimensional banks). */
  targetSe?: number;
  /** Target SE of the suite's accuracy estimate (multidimensional banks; default 0.02). */
  accuracySe?: number;
  maxItems?: number;
  minItems?: number;
  exposure?: ExposureControl;
  /** Balance categories to their shares of the suite (default true). */
  contentBalance?: boolean;
  seed: number;
}

export interface AdaptiveSessionResult {
  suite: string;
  theta: number;
  se: number;
  /** Multidimensional banks: the standard error of the suite's accuracy estimate (what the test stops on). */
  accuracySe?: number;
  itemsUsed: number;
  items: string[];
  stopReason: 'target-se' | 'max-items' | 'bank-exhausted' | null;
  /** Estimated accuracy on the suite and per category (p-IRT with its interval). */
  accuracy: TinyAccuracyRow[];
}

export interface AdaptiveSession {
  /** The next item id, or null when the test has stopped. */
  next(): string | null;
  /** Up to n item ids to ask now (fewer, or none, when the test stops). */
  nextWave(n: number): string[];
  record(id: string, correct: number): void;
  result(): AdaptiveSessionResult;
}

/** An adaptive test over a calibrated bank, driven item by item or in waves: next(), nextWave(n), record(id, correct), result(). */
export function createAdaptiveSession(bank: IrtBank, opts: AdaptiveSessionOptions): AdaptiveSession {
  const suites = [...new Set(bank.items.map((i) => i.suite))];
  const suite = opts.suite ?? (suites.length === 1 ? suites[0]! : undefined);
  if (suite === undefined) throw new InputError(`the bank has several suites (${suites.join(', ')}): name one`);
  const members = bank.items.map((it, i) => (it.suite === suite ? i : -1)).filter((i) => i >= 0);
  if (members.length === 0) throw new InputError(`the bank has no items of suite "${suite}"`);
  if (bank.model === 'm2pl') return mirtSession(bank, suite, members, opts);
  const params = subsetItems(bankItemParams(bank), members);
  const ids = members.map((i) => bank.items[i]!.id);
  const position = new Map(ids.map((id, k) => [id, k]));
  const cats = [...new Set(members.map((i) => bank.items[i]!.category))].sort();
  const catOf = members.map((i) => cats.indexOf(bank.items[i]!.category));
  const test = new AdaptiveTest(params, {
    targetSe: opts.targetSe,
    maxItems: opts.maxItems,
    minItems: opts.minItems,
    exposure: opts.exposure,
    seed: opts.seed,
    ...(opts.contentBalance === false
      ? {}
      : { content: { categories: catOf, targets: cats.map((_, k) => catOf.filter((c) => c === k).length / members.length) } }),
  });
  const next = () => {
    const k = test.next();
    return k === null ? null : ids[k]!;
  };
  return {
    next,
    nextWave: (n) => wave(next, n),
    record(id, correct) {
      const k = position.get(id);
      if (k === undefined) throw new InputError(`item ${id} is not in suite ${suite} of the bank`);
      test.record(k, correct);
    },
    result() {
      const st = test.state();
      const answers = test.answers();
      const map = new Map<string, number>();
      answers.forEach((v, k) => {
        if (!Number.isNaN(v)) map.set(irtItemKey(suite, ids[k]!), v);
      });
      const est = estimateAccuracyFromAnswers(bank, map);
      return {
        suite,
        theta: st.theta,
        se: st.se,
        itemsUsed: st.answered,
        items: test.administered().map((k) => ids[k]!),
        stopReason: st.stopReason,
        accuracy: est.rows.filter((r) => r.suite === suite),
      };
    },
  };
}

function wave(next: () => string | null, n: number): string[] {
  const out: string[] = [];
  for (let t = 0; t < n; t++) {
    const id = next();
    if (id === null) break;
    out.push(id);
  }
  return out;
}

const MIRT_STOP = { se: 'target-se', 'max-items': 'max-items', exhausted: 'bank-exhausted' } as const;

/** The accuracy-targeted adaptive test of a multidimensional bank behind the same interface. */
function mirtSession(bank: IrtBank, suite: string, members: number[], opts: AdaptiveSessionOptions): AdaptiveSession {
  const model = bankMirtAccuracyModel(bank, [{ items: members, anchors: [], anchorWeights: [], irtMae: null, meanVariance: 0 }]);
  const test = new MirtAdaptiveTest(model, { targetSe: opts.accuracySe, maxItems: opts.maxItems, minItems: opts.minItems });
  const position = new Map(members.map((i) => [bank.items[i]!.id, i]));
  const next = () => {
    const i = test.next();
    return i === null ? null : bank.items[i]!.id;
  };
  return {
    next,
    nextWave: (n) => wave(next, n),
    record(id, correct) {
      const i = position.get(id);
      if (i === undefined) throw new InputError(`item ${id} is not in suite ${suite} of the bank`);
      test.record(i, correct);
    },
    result() {
      const r = test.result();
      const answers = test.answers();
      const map = new Map(r.items.map((i) => [irtItemKey(suite, bank.items[i]!.id), answers[i]!]));
      return {
        suite,
        theta: r.mean[0]!,
        se: Math.sqrt(r.cov[0]!),
        accuracySe: r.se,
        itemsUsed: r.items.length,
        items: r.items.map((i) => bank.items[i]!.id),
        stopReason: r.stopReason === null ? null : MIRT_STOP[r.stopReason],
        accuracy: estimateAccuracyFromAnswers(bank, map).rows.filter((row) => row.suite === suite),
      };
    },
  };
}
