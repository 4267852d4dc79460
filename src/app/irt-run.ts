// What tiny and adaptive runs share: the bank checked against the run's items, a subject's
// answers read back from the store, the per-suite result stored for reports, and the run
// summaries of several runner calls added up.

import {
  estimateAccuracyFromAnswers,
  type IrtBank,
  irtItemKey,
  readIrtBank,
  type TinyAccuracyRow,
  type TinySet,
  verifyBankItems,
} from '../analysis/index.js';
import { ConfigError, InputError, type IrtRunSpec, type Item, type Task } from '../core/index.js';
import { CallTally, itemHash, type CallCounts, type RunSummary } from '../runner/index.js';
import { PROTOCOL_SCORES, type Store } from '../store/index.js';

/** One subject's IRT result on one suite: what `run --tiny` / `run --adaptive` report and store. */
export interface IrtSuiteResult {
  subject: string;
  subjectId: string;
  suite: string;
  mode: 'tiny' | 'adaptive';
  bankId: string;
  /** Items of the suite (the full suite the estimate is for) and items asked. */
  suiteItems: number;
  itemsAsked: number;
  /** Items answered (asked items whose trials are done). */
  itemsAnswered: number;
  /** Tiny: the strategy and k. */
  strategy?: string;
  k?: number;
  /** Ability on the bank's scale (EAP) and its posterior SD. */
  theta: number;
  thetaSd: number;
  /** Adaptive on a multidimensional bank: the standard error of the accuracy estimate (what it stops on). */
  accuracySe?: number;
  /** Adaptive: why the test stopped (null: interrupted, run the same command to continue). */
  stopReason?: 'target-se' | 'max-items' | 'bank-exhausted' | null;
  /** The items asked, in order. */
  items: string[];
  /** Estimated accuracy on the whole suite (category null) and per category, each estimator with its interval. */
  accuracy: TinyAccuracyRow[];
}

/** Read the bank an IRT run names; errors name the file. */
export function loadRunBank(irt: IrtRunSpec): IrtBank {
  return readIrtBank(irt.bank);
}

/**
 * Refuse a bank that does not match the run's items exactly: every item of each suite must be
 * in the bank (or in its list of items dropped at calibration) with the same content hash, and
 * every bank item of the run's suites must be among the items loaded.
 */
export function checkBankAgainstTasks(bank: IrtBank, tasks: readonly Task[], file: string): void {
  const current: Array<{ suite: string; id: string; hash: string }> = [];
  for (const t of tasks) for (const item of t.items) current.push({ suite: t.suite, id: item.id, hash: itemHash(item) });
  const suites = new Set(tasks.map((t) => t.suite));
  const inRun = bank.items.filter((it) => suites.has(it.suite));
  for (const s of suites)
    if (!inRun.some((it) => it.suite === s))
      throw new InputError(
        `bank ${bank.bankId} has no item of suite "${s}" (it covers ${[...new Set(bank.items.map((i) => i.suite))].join(', ')})`,
        file,
      );
  const check = verifyBankItems({ ...bank, items: inRun }, current, { requireHashes: true, file });
  if (check.absent.length > 0)
    throw new InputError(
      `bank ${bank.bankId}: ${check.absent.length} bank item(s) are not among the run's items (${check.absent.slice(0, 10).join(', ')}${check.absent.length > 10 ? ', ...' : ''}): run the suite with the data, --limit and --seed the bank was calibrated on`,
      file,
    );
  const known = new Set([...inRun.map((it) => irtItemKey(it.suite, it.id)), ...bank.dropped.map((d) => irtItemKey(d.suite, d.id))]);
  const unknown = current.filter((c) => !known.has(irtItemKey(c.suite, c.id)));
  if (unknown.length > 0)
    throw new InputError(
      `bank ${bank.bankId}: ${unknown.length} item(s) of the run are not in the bank (${unknown
        .slice(0, 10)
        .map((u) => `${u.suite}/${u.id}`)
        .join(', ')}${unknown.length > 10 ? ', ...' : ''}), so its estimate would not cover the suite: recalibrate on these items`,
      file,
    );
}

/** A task with only some of its items (the protocol's execute is unchanged). */
export function taskWithItems(task: Task, items: Item[]): Task {
  return { ...task, items };
}

/** Mean score over replicates per item of one subject, keyed by irtItemKey, from the stored responses. */
export async function subjectAnswers(store: Store, runId: string, subjectId: string): Promise<Map<string, number>> {
  const sums = new Map<string, { s: number; n: number }>();
  for await (const r of store.responses(runId, PROTOCOL_SCORES)) {
    if (r.subjectId !== subjectId) continue;
    const key = irtItemKey(r.suite, r.itemId);
    const cur = sums.get(key) ?? { s: 0, n: 0 };
    cur.s += r.value;
    cur.n++;
    sums.set(key, cur);
  }
  return new Map([...sums].map(([k, v]) => [k, v.s / v.n]));
}

/** The estimate rows of one suite from a subject's answers. */
export function suiteEstimate(
  bank: IrtBank,
  suite: string,
  answers: ReadonlyMap<string, number>,
  tiny?: TinySet,
): { theta: number; thetaSd: number; rows: TinyAccuracyRow[] } {
  const own = new Map([...answers].filter(([k]) => k.startsWith(`${suite}\u0000`)));
  const est = estimateAccuracyFromAnswers(bank, own, tiny ? { tiny } : {});
  return { theta: est.theta, thetaSd: est.thetaSd, rows: est.rows.filter((r) => r.suite === suite) };
}

/** Store one suite result for reports. */
export async function storeIrtResult(store: Store, runId: string, r: IrtSuiteResult): Promise<void> {
  await store.putIrtResult({
    runId,
    subjectId: r.subjectId,
    suite: r.suite,
    mode: r.mode,
    bankId: r.bankId,
    result: r as unknown as Record<string, unknown>,
  });
}

function sumCalls(a: CallCounts, b: CallCounts): CallCounts {
  const tally = new CallTally();
  tally.addCounts(a);
  tally.addCounts(b);
  return tally.counts();
}

/** Add up the summaries of several runner calls on one run (adaptive waves). */
export function addSummaries(a: RunSummary | undefined, b: RunSummary, carried: number): RunSummary {
  if (!a) return { ...b, skipped: b.skipped - carried };
  const union = <T extends { spec: string }>(x: T[], y: T[]) => [...x, ...y.filter((v) => !x.some((u) => u.spec === v.spec))];
  return {
    runId: b.runId,
    planned: a.planned + b.planned - carried,
    skipped: a.skipped + b.skipped - carried,
    done: a.done + b.done,
    failed: a.failed + b.failed,
    aborted: union(a.aborted, b.aborted),
    truncated: a.truncated + b.truncated,
    unpriced: union(a.unpriced, b.unpriced),
    costUsd: a.costUsd + b.costUsd,
    ...(b.costLimit ? { costLimit: b.costLimit } : {}),
    ...(a.interrupted || b.interrupted ? { interrupted: true as const } : {}),
    calls: sumCalls(a.calls, b.calls),
    usage: b.usage,
    elapsedMs: a.elapsedMs + b.elapsedMs,
  };
}

/** The config error for a spec that cannot run as IRT (queued runs). */
export function irtNotQueueable(): ConfigError {
  return new ConfigError('--tiny and --adaptive runs cannot be queued for workers (--enqueue): run them directly');
}
