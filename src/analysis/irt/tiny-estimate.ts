// A model's estimated accuracy per suite and per category from its answers to some bank items
// (a tiny benchmark's, an adaptive test's, or any): the four tinyBenchmarks estimators with
// their intervals (stats/irt/tiny-estimators.ts). The ability comes from every answered item
// (one dimension across the bank's suites).

import { InputError } from '../../core/index.js';
import { estimateTinyAccuracy, type TinyGroup, type TinyPointEstimate } from '../../stats/irt/index.js';
import { bankItemParams, type IrtBank, irtItemKey } from './irt-bank.js';
import type { TinySet } from './tiny-benchmark.js';
import { bankMirtAccuracyModel } from './mirt-bank.js';
import { estimateMirtAccuracy } from '../../stats/irt/index.js';

export interface TinyAccuracyRow {
  suite: string;
  /** null: the whole suite. */
  category: string | null;
  items: number;
  answered: number;
  anchors: number;
  anchor: TinyPointEstimate;
  irt: TinyPointEstimate;
  pIrt: TinyPointEstimate;
  gpIrt: TinyPointEstimate | null;
  lambdaGp: number | null;
}

export interface TinyAccuracyEstimate {
  bankId: string;
  theta: number;
  thetaSd: number;
  answered: number;
  /** Answers to items the bank does not have (ignored). */
  unknownItems: number;
  rows: TinyAccuracyRow[];
}

type EstimatedGroup = Pick<TinyAccuracyRow, 'items' | 'answered' | 'anchor' | 'irt' | 'pIrt' | 'gpIrt' | 'lambdaGp'>;

/** The bank's groups (suite, category) beside their estimates, one row each. */
function accuracyRows(bank: IrtBank, groups: readonly TinyGroup[], estimated: readonly EstimatedGroup[]): TinyAccuracyRow[] {
  return bank.groups.map((g, k) => {
    const r = estimated[k]!;
    return {
      suite: g.suite,
      category: g.category,
      items: r.items,
      answered: r.answered,
      anchors: groups[k]!.anchors.length,
      anchor: r.anchor,
      irt: r.irt,
      pIrt: r.pIrt,
      gpIrt: r.gpIrt,
      lambdaGp: r.lambdaGp,
    };
  });
}

/**
 * Estimate accuracies from answers keyed by irtItemKey(suite, id). Anchor weights come from the
 * tiny set when given; otherwise every answered item of a group weighs the same. gp-IRT is left
 * out for the 'information' design: its anchors are chosen for discrimination, so the anchor
 * estimator is biased towards the extremes and the gp-IRT weight (which assumes it unbiased)
 * would carry that bias in.
 */
export function estimateAccuracyFromAnswers(
  bank: IrtBank,
  answers: ReadonlyMap<string, number>,
  opts: {
    tiny?: TinySet;
    level?: number;
    /**
     * Parameter sets drawn from the bank's standard errors to widen the intervals by the item
     * parameters' uncertainty (default 20 when the bank has standard errors; 0 treats the
     * parameters as known; see tiny-estimators.ts). At 27 models it lifted the coverage of the
     * random design from 85% to 96% (README).
     */
    parameterDraws?: number;
  } = {},
): TinyAccuracyEstimate {
  if (opts.tiny && opts.tiny.bankId !== bank.bankId)
    throw new InputError(`the tiny set was chosen from bank ${opts.tiny.bankId}, not ${bank.bankId}`);
  const index = new Map<string, number>();
  bank.items.forEach((it, i) => index.set(irtItemKey(it.suite, it.id), i));
  const y = new Float64Array(bank.items.length).fill(Number.NaN);
  let unknownItems = 0;
  for (const [key, v] of answers) {
    const i = index.get(key);
    if (i === undefined) {
      unknownItems++;
      continue;
    }
    if (!(v >= 0 && v <= 1)) throw new InputError(`answer to ${key.replace('\u0000', '/')} is ${v}, not a score in [0, 1]`);
    y[i] = v;
  }
  const weightOf = new Map<number, number>();
  if (opts.tiny) for (const t of opts.tiny.items) weightOf.set(index.get(irtItemKey(t.suite, t.id))!, t.weight);
  const groups: TinyGroup[] = [];
  for (const g of bank.groups) {
    const members: number[] = [];
    bank.items.forEach((it, i) => {
      if (it.suite === g.suite && (g.category === null || it.category === g.category)) members.push(i);
    });
    const anchors = members.filter((i) => (opts.tiny ? weightOf.has(i) : !Number.isNaN(y[i]!)));
    const raw = anchors.map((i) => (opts.tiny ? weightOf.get(i)! : 1));
    const total = raw.reduce((s, v) => s + v, 0);
    groups.push({
      items: members,
      anchors,
      anchorWeights: raw.map((w) => (total > 0 ? w / total : 0)),
      irtMae: opts.tiny?.strategy === 'information' ? null : g.irtMae,
      meanVariance: g.meanVariance,
    });
  }
  if (bank.model === 'm2pl') {
    // Multidimensional: the posterior over every dimension (stats/irt/mirt-accuracy.ts); no parameter draws.
    const est = estimateMirtAccuracy(bankMirtAccuracyModel(bank, groups), y, { level: opts.level });
    return {
      bankId: bank.bankId,
      theta: est.mean[0]!,
      thetaSd: Math.sqrt(est.cov[0]!),
      answered: est.answered,
      unknownItems,
      rows: accuracyRows(bank, groups, est.groups),
    };
  }
  const hasSe = bank.items.some((it) => it.se.a !== null || it.se.b !== null);
  const draws = hasSe ? (opts.parameterDraws ?? 20) : 0;
  const result = estimateTinyAccuracy(bankItemParams(bank), y, groups, {
    level: opts.level,
    ...(draws > 0
      ? {
          parameterDraws: {
            seA: bank.items.map((it) => it.se.a ?? Number.NaN),
            seB: bank.items.map((it) => it.se.b ?? Number.NaN),
            draws,
            seed: 1,
          },
        }
      : {}),
  });
  return {
    bankId: bank.bankId,
    theta: result.theta,
    thetaSd: result.thetaSd,
    answered: result.answered,
    unknownItems,
    rows: accuracyRows(bank, groups, result.groups),
  };
}
