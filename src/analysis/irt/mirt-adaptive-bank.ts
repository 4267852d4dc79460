// An adaptive test over one suite of a multidimensional (m2pl) bank, by item id: the next item is
// the one expected to shrink the posterior variance of the suite's accuracy most, and the test
// stops when the accuracy estimate's standard error reaches the target (stats/irt/mirt-adaptive.ts).

import { InputError } from '../../core/index.js';
import { runMirtAdaptiveTest, type TinyPointEstimate } from '../../stats/irt/index.js';
import type { IrtBank } from './irt-bank.js';
import { bankMirtAccuracyModel } from './mirt-bank.js';

export interface BankMirtAdaptiveResult {
  suite: string;
  /** Item ids asked, in order. */
  items: string[];
  itemsUsed: number;
  /** p-IRT estimate of the suite's accuracy with its 95% interval. */
  estimate: TinyPointEstimate;
  /** Standard error of the accuracy estimate when the test stopped. */
  se: number;
  stopReason: 'se' | 'max-items' | 'exhausted' | null;
}

/** Run an accuracy-targeted adaptive test on a version 2 bank; `score(suite, id)` answers an item of the suite (0..1). */
export function runBankMirtAdaptive(
  bank: IrtBank,
  score: (suite: string, id: string) => number,
  opts: { suite?: string; targetSe?: number; maxItems?: number; minItems?: number } = {},
): BankMirtAdaptiveResult {
  const suites = [...new Set(bank.items.map((it) => it.suite))];
  const suite = opts.suite ?? (suites.length === 1 ? suites[0]! : undefined);
  if (!suite || !suites.includes(suite))
    throw new InputError(`name the suite to test (--suite): the bank has ${suites.join(', ')}${opts.suite ? `, not ${opts.suite}` : ''}`);
  const members = bank.items.map((it, i) => (it.suite === suite ? i : -1)).filter((i) => i >= 0);
  const model = bankMirtAccuracyModel(bank, [{ items: members, anchors: [], anchorWeights: [], irtMae: null, meanVariance: 0 }]);
  const r = runMirtAdaptiveTest(model, (i) => score(suite, bank.items[i]!.id), {
    targetSe: opts.targetSe,
    maxItems: opts.maxItems,
    minItems: opts.minItems,
  });
  return {
    suite,
    items: r.items.map((i) => bank.items[i]!.id),
    itemsUsed: r.items.length,
    estimate: r.estimate.pIrt,
    se: r.se,
    stopReason: r.stopReason,
  };
}
