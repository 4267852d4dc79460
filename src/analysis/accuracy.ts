// Accuracy per subject, overall and by category or suite, with 95% intervals.
// The unit of sampling is the item. One trial per item: the Wilson interval over items.
// Several replicates per item: replicates of an item are not independent, so the estimate is
// the mean of item means and the interval is Wilson's with the effective number of trials
// from the spread between items (clusteredWilsonInterval): never narrower than independent
// trials would give, never wider than one trial per item, and the plain Wilson interval over
// items when no spread can be estimated (every item always right, or always wrong).

// The file itself, not the stats index: the report loads this without the rest of the statistics.
import { clusteredWilsonInterval, type ClusteredInterval, wilsonOverTrials } from '../stats/clustered-wilson.js';
import type { AccuracyCountRow, ResponseRow } from '../store/index.js';

export interface AccuracyCell {
  subject: string;
  /** Category, suite, or 'all'. */
  group: string;
  items: number;
  trials: number;
  accuracy: number;
  lower: number;
  upper: number;
  /** The number of independent trials the interval stands for: the trials with one per item, between items and trials with replicates. */
  effectiveN: number;
  /** Wilson over trials (one per item), Wilson with the effective n (replicates), or the normal interval of item means (scores outside [0, 1]). */
  method: ClusteredInterval['method'];
  /** Why the interval has zero width, when it has. */
  note?: string;
  parseFailures: number;
  parseFailureRate: number;
}

export interface AccuracyTable {
  subjects: string[];
  groups: string[];
  cells: AccuracyCell[];
  /** Whether any item had more than one replicate (then intervals use the effective number of trials). */
  replicated: boolean;
}

interface Acc {
  items: Map<string, { sum: number; n: number }>;
  trials: number;
  parseFailures: number;
}

function cellOfInterval(
  subject: string,
  group: string,
  ci: ClusteredInterval,
  counts: { trials: number; parseFailures: number },
): AccuracyCell {
  return {
    subject,
    group,
    items: ci.clusters,
    trials: counts.trials,
    accuracy: ci.estimate,
    lower: ci.lower,
    upper: ci.upper,
    effectiveN: ci.effectiveN,
    method: ci.method,
    ...(ci.note ? { note: ci.note } : {}),
    parseFailures: counts.parseFailures,
    parseFailureRate: counts.trials ? counts.parseFailures / counts.trials : 0,
  };
}

function summarise(subject: string, group: string, acc: Acc): AccuracyCell {
  const ci = clusteredWilsonInterval(
    [...acc.items.values()].map((c) => ({ sum: c.sum, trials: c.n })),
    { weighting: 'cluster' },
  );
  return cellOfInterval(subject, group, ci, acc);
}

/** Accuracy by `groupBy` (category, suite, or the source's ability label), plus an 'all' group per subject. */
export type AccuracyGrouping = 'category' | 'suite' | 'ability';

/** Accuracy per subject and group with 95% intervals (Wilson over items; with replicates, Wilson with the items' effective number of trials) and parse-failure counts. */
export function accuracyTable(rows: Iterable<ResponseRow>, groupBy: AccuracyGrouping = 'category'): AccuracyTable {
  const accs = new Map<string, Map<string, Acc>>();
  let replicated = false;
  for (const r of rows) {
    let bySubject = accs.get(r.spec);
    if (!bySubject) accs.set(r.spec, (bySubject = new Map()));
    const key = `${r.suite}\u0000${r.itemId}`;
    for (const group of [r[groupBy] ?? '(none)', 'all']) {
      let acc = bySubject.get(group);
      if (!acc) bySubject.set(group, (acc = { items: new Map(), trials: 0, parseFailures: 0 }));
      const cell = acc.items.get(key) ?? { sum: 0, n: 0 };
      cell.sum += r.value;
      cell.n++;
      if (cell.n > 1) replicated = true;
      acc.items.set(key, cell);
      acc.trials++;
      if (r.parseFailed) acc.parseFailures++;
    }
  }
  const subjects = [...accs.keys()].sort();
  const groupSet = new Set<string>();
  const cells: AccuracyCell[] = [];
  for (const s of subjects) {
    for (const [g, acc] of accs.get(s)!) {
      groupSet.add(g);
      cells.push(summarise(s, g, acc));
    }
  }
  const groups = [...groupSet].filter((g) => g !== 'all').sort();
  groups.push('all');
  return { subjects, groups, cells, replicated };
}

/** One subject's cell of an accuracy table for a group (category, suite or 'all'). */
export function cellOf(table: AccuracyTable, subject: string, group: string): AccuracyCell | undefined {
  return table.cells.find((c) => c.subject === subject && c.group === group);
}

/** Compare two strings by Unicode code point, the order of their UTF-8 bytes (the store's bytewise order). */
function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/**
 * Whether summed counts carry everything `accuracyTable` would compute from the rows: one
 * scored row per trial (`doneTrials` rows in all), no replicates and scores of 0 or 1, so that
 * each item's mean is its single value and sums are exact.
 */
export function countsSuffice(counts: readonly AccuracyCountRow[], doneTrials: number): boolean {
  let rows = 0;
  for (const c of counts) {
    if (c.maxReplicate > 0 || c.nonBinary > 0) return false;
    rows += c.rows;
  }
  return rows === doneTrials;
}

/**
 * The accuracy table of `accuracyTable`, cell for cell and in the same order, from counts summed
 * in the store; valid only when `countsSuffice` holds (each item one row of value 0 or 1).
 */
export function accuracyTableFromCounts(counts: readonly AccuracyCountRow[], groupBy: AccuracyGrouping = 'category'): AccuracyTable {
  interface Sum {
    correct: number;
    rows: number;
    parseFailures: number;
    /** Where `responses` (ordered by suite, then item id) first meets the group. */
    first: [string, string];
  }
  const bySubject = new Map<string, Map<string, Sum>>();
  for (const c of counts) {
    let groups = bySubject.get(c.spec);
    if (!groups) bySubject.set(c.spec, (groups = new Map()));
    const group = (groupBy === 'suite' ? c.suite : groupBy === 'category' ? c.category : c.ability) ?? '(none)';
    const sum = groups.get(group);
    const first: [string, string] = [c.suite, c.firstItemId];
    if (!sum) groups.set(group, { correct: c.correct, rows: c.rows, parseFailures: c.parseFailures, first });
    else {
      sum.correct += c.correct;
      sum.rows += c.rows;
      sum.parseFailures += c.parseFailures;
      if (compareCodePoints(first[0], sum.first[0]) < 0 || (first[0] === sum.first[0] && compareCodePoints(first[1], sum.first[1]) < 0))
        sum.first = first;
    }
  }
  const subjects = [...bySubject.keys()].sort();
  const groupSet = new Set<string>();
  const cells: AccuracyCell[] = [];
  for (const s of subjects) {
    const groups = [...bySubject.get(s)!].sort(
      ([, a], [, b]) => compareCodePoints(a.first[0], b.first[0]) || compareCodePoints(a.first[1], b.first[1]),
    );
    const all = { correct: 0, rows: 0, parseFailures: 0 };
    for (const [, g] of groups) {
      all.correct += g.correct;
      all.rows += g.rows;
      all.parseFailures += g.parseFailures;
    }
    // accuracyTable meets a subject's first group, then 'all' (created with the same row), then the rest.
    const ordered = groups.map(([name, g]) => ({ name, ...g }));
    ordered.splice(1, 0, { name: 'all', ...all, first: ['', ''] });
    for (const g of ordered) {
      groupSet.add(g.name);
      // One row of 0 or 1 per item: what clusteredWilsonInterval gives for clusters of one trial.
      cells.push(cellOfInterval(s, g.name, wilsonOverTrials(g.correct, g.rows), { trials: g.rows, parseFailures: g.parseFailures }));
    }
  }
  const groups = [...groupSet].filter((g) => g !== 'all').sort();
  groups.push('all');
  return { subjects, groups, cells, replicated: false };
}
