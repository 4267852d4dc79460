// Accuracy per subject, overall and by category or suite, with 95% intervals.
// One trial per item: a Wilson interval over items. Several replicates per item: replicates of
// an item are not independent, so each item's mean over its replicates is one observation and
// the interval is the normal interval of the mean of item means (clamped to [0, 1]).

// The file itself, not the stats index: the report loads this without the rest of the statistics.
import { wilsonInterval } from '../stats/wilson-interval.js';
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
  parseFailures: number;
  parseFailureRate: number;
}

export interface AccuracyTable {
  subjects: string[];
  groups: string[];
  cells: AccuracyCell[];
  /** Whether any item had more than one replicate (then intervals are over item means). */
  replicated: boolean;
}

const Z95 = 1.959963984540054;

interface Acc {
  items: Map<string, { sum: number; n: number }>;
  trials: number;
  parseFailures: number;
}

function summarise(subject: string, group: string, acc: Acc): AccuracyCell {
  const means = [...acc.items.values()].map((c) => c.sum / c.n);
  const n = means.length;
  const replicated = [...acc.items.values()].some((c) => c.n > 1);
  let accuracy: number, lower: number, upper: number;
  if (!replicated) {
    const w = wilsonInterval(
      means.reduce((s, m) => s + m, 0),
      n,
    );
    ({ estimate: accuracy, lower, upper } = w);
  } else {
    accuracy = means.reduce((s, m) => s + m, 0) / n;
    const sd = n > 1 ? Math.sqrt(means.reduce((s, m) => s + (m - accuracy) ** 2, 0) / (n - 1)) : 0;
    const half = (Z95 * sd) / Math.sqrt(n);
    lower = Math.max(0, accuracy - half);
    upper = Math.min(1, accuracy + half);
  }
  return {
    subject,
    group,
    items: n,
    trials: acc.trials,
    accuracy,
    lower,
    upper,
    parseFailures: acc.parseFailures,
    parseFailureRate: acc.trials ? acc.parseFailures / acc.trials : 0,
  };
}

/** Accuracy by `groupBy` (category, suite, or the source's ability label), plus an 'all' group per subject. */
export type AccuracyGrouping = 'category' | 'suite' | 'ability';

/** Accuracy per subject and group with 95% intervals (Wilson over items; over item means when items have replicates) and parse-failure counts. */
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
      const w = wilsonInterval(g.correct, g.rows);
      cells.push({
        subject: s,
        group: g.name,
        items: g.rows,
        trials: g.rows,
        accuracy: w.estimate,
        lower: w.lower,
        upper: w.upper,
        parseFailures: g.parseFailures,
        parseFailureRate: g.rows ? g.parseFailures / g.rows : 0,
      });
    }
  }
  const groups = [...groupSet].filter((g) => g !== 'all').sort();
  groups.push('all');
  return { subjects, groups, cells, replicated: false };
}
