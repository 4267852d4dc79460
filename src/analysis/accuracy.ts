// Accuracy per subject, overall and by category or suite, with 95% intervals.
// One trial per item: a Wilson interval over items. Several replicates per item: replicates of
// an item are not independent, so each item's mean over its replicates is one observation and
// the interval is the normal interval of the mean of item means (clamped to [0, 1]).

import { wilsonInterval } from '../stats/index.js';
import type { ResponseRow } from '../store/index.js';

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
