// DialToM results of a stored run: correctness rate per subject, domain and attribute with
// Wilson and Clopper-Pearson (exact) intervals (over items: with replicates, or several human
// participants per item, the Wilson interval uses the items' effective number of trials, and
// the exact interval, which needs independent trials, is left out), the same rate rows the published-rates analyses
// take (so a run feeds the retrospective-prospective gap), per-item correctness for the easy-hard
// gap, the positions subjects chose (positional bias, Table 20) and distractor clustering as
// the paper defines it (Table 21: per item over its wrong answers, from replicates or from
// imported human participants; see distractorClustering). Imported humans (`human:NAME`) are
// subjects like any other.

import { MCQ_RECORDS, McqPayloadSchema, readRecord } from '../../../core/index.js';
import { clopperPearsonInterval, clusteredWilsonInterval } from '../../../stats/index.js';
import { PROTOCOL_SCORES, type Store } from '../../../store/index.js';
import { distractorClustering, type DistractorClustering, type ItemWrongChoices } from './dialtom-extras.js';
import type { DialtomTaskName, RateRow } from './rate-table.js';

const SUITES: Record<string, DialtomTaskName> = {
  'dialtom-retrospective': 'retrospective',
  'dialtom-prospective': 'prospective',
  'dialtom-prospective-easy': 'prospective-easy',
};

export interface DialtomCell {
  model: string;
  task: DialtomTaskName;
  domain: string;
  attribute: string;
  correct: number;
  /** Distinct items, and their trials (replicates, or human participants). */
  items: number;
  trials: number;
  /** correct / trials. */
  rate: number;
  /** Wilson 95% interval over items (with the items' effective number of trials where an item has several). */
  lower: number;
  upper: number;
  /** Clopper-Pearson (exact) 95% interval, as the paper gives for its 20-item expert ceiling; NaN unless one whole trial per item. */
  exactLower: number;
  exactUpper: number;
}

export interface DialtomPositions {
  model: string;
  task: DialtomTaskName;
  domain: string;
  /** Chosen positions as presented: counts[0] for A, counts[1] for B, ... */
  counts: number[];
}

export interface DialtomClusteringRow extends DistractorClustering {
  /** A subject, or `all models` (every subject not imported as human:, pooled per item). */
  model: string;
  task: DialtomTaskName;
  /** A domain, or `pooled` (all domains). */
  domain: string;
}

export interface DialtomRunResults {
  cells: DialtomCell[];
  rates: RateRow[];
  /** Per subject, task and domain: each item's correctness, the mean over its trials (one value per item). */
  perItem: Map<string, number[]>;
  positions: DialtomPositions[];
  distractors: DialtomClusteringRow[];
}

export const ALL_MODELS = 'all models';

/** The DialToM analyses of a stored run (see the file comment); subjects include imported humans. */
export async function dialtomRunResults(store: Store, runId: string): Promise<DialtomRunResults> {
  const groups = new Map<
    string,
    { model: string; task: DialtomTaskName; domain: string; attribute: string; items: Map<string, { sum: number; trials: number }> }
  >();
  const itemScores = new Map<string, Map<string, { sum: number; trials: number }>>();
  const positions = new Map<string, DialtomPositions>();
  // Wrong answers per (subject, task, domain) and item: which distractor each chose.
  const wrong = new Map<string, { model: string; task: DialtomTaskName; domain: string; items: Map<string, ItemWrongChoices> }>();
  const addWrong = (model: string, task: DialtomTaskName, domain: string, item: string, distractors: number, choice: number | null) => {
    const k = `${model}\u0000${task}\u0000${domain}`;
    const g = wrong.get(k) ?? { model, task, domain, items: new Map() };
    const it = g.items.get(item) ?? { item, distractors, choices: [] };
    if (choice !== null) it.choices.push(choice);
    g.items.set(item, it);
    wrong.set(k, g);
  };
  for await (const r of store.responses(runId, PROTOCOL_SCORES)) {
    const task = SUITES[r.suite];
    if (!task) continue;
    const domain = String(r.meta.domain ?? 'all');
    const attribute = String(r.meta.state ?? r.category);
    for (const attr of [attribute, 'all']) {
      const key = `${r.spec}\u0000${task}\u0000${domain}\u0000${attr}`;
      const g = groups.get(key) ?? { model: r.spec, task, domain, attribute: attr, items: new Map() };
      const item = g.items.get(r.itemId) ?? { sum: 0, trials: 0 };
      item.sum += r.value;
      item.trials++;
      g.items.set(r.itemId, item);
      groups.set(key, g);
    }
    const k = `${r.spec}\u0000${task}\u0000${domain}`;
    const scores = itemScores.get(k) ?? new Map<string, { sum: number; trials: number }>();
    const score = scores.get(r.itemId) ?? { sum: 0, trials: 0 };
    score.sum += r.value;
    score.trials++;
    scores.set(r.itemId, score);
    itemScores.set(k, scores);
    const t = await store.transcript({ runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate });
    const detail = t ? readRecord(MCQ_RECORDS, t.transcript, `${r.suite}/${r.itemId}`) : undefined;
    if (!detail) continue;
    const chosenIndex = detail.presented.findIndex((o) => o.label === detail.parsed);
    if (chosenIndex >= 0) {
      const p = positions.get(k) ?? { model: r.spec, task, domain, counts: detail.presented.map(() => 0) };
      while (p.counts.length < detail.presented.length) p.counts.push(0);
      p.counts[chosenIndex]!++;
      positions.set(k, p);
    }
    const item = await store.getItem(r.itemHash);
    const options = McqPayloadSchema.safeParse(item?.payload).data?.options;
    if (!item || !options) continue;
    // Which distractor: the chosen option's place among the item's wrong options, in source order.
    const distractors = options.filter((o) => o !== item.answer);
    const chosen = chosenIndex >= 0 ? detail.presented[chosenIndex]!.text : undefined;
    const index = r.value === 0 && chosen !== undefined ? distractors.indexOf(chosen) : -1;
    const itemKey = `${domain}/${r.itemId}`;
    for (const model of r.spec.startsWith('human:') ? [r.spec] : [r.spec, ALL_MODELS])
      addWrong(model, task, domain, itemKey, distractors.length, index >= 0 ? index : null);
  }
  const cells = [...groups.values()].map((g) => {
    const items = [...g.items.values()];
    const ci = clusteredWilsonInterval(items, { weighting: 'trial' });
    const correct = items.reduce((a, c) => a + c.sum, 0);
    // The exact interval is over independent whole trials: one per item, scored 0 or 1.
    const exact =
      ci.trials === ci.clusters && Number.isInteger(correct)
        ? clopperPearsonInterval(correct, ci.trials)
        : { lower: Number.NaN, upper: Number.NaN };
    return {
      model: g.model,
      task: g.task,
      domain: g.domain,
      attribute: g.attribute,
      correct,
      items: ci.clusters,
      trials: ci.trials,
      rate: correct / ci.trials,
      lower: ci.lower,
      upper: ci.upper,
      exactLower: exact.lower,
      exactUpper: exact.upper,
    };
  });
  const rates = cells
    .filter((c) => c.attribute === 'all')
    .map((c) => ({ model: c.model, domain: c.domain, task: c.task, rate: c.rate * 100, items: c.items, line: 0 }));
  const distractors: DialtomClusteringRow[] = [];
  const bySubjectTask = new Map<string, ItemWrongChoices[]>();
  for (const g of wrong.values()) {
    const items = [...g.items.values()];
    distractors.push({ model: g.model, task: g.task, domain: g.domain, ...distractorClustering(items) });
    const k = `${g.model}\u0000${g.task}`;
    bySubjectTask.set(k, [...(bySubjectTask.get(k) ?? []), ...items]);
  }
  for (const [k, items] of bySubjectTask) {
    const [model, task] = k.split('\u0000') as [string, DialtomTaskName];
    if (new Set(distractors.filter((d) => d.model === model && d.task === task).map((d) => d.domain)).size > 1)
      distractors.push({ model, task, domain: 'pooled', ...distractorClustering(items) });
  }
  // Replicates of an item are one observation of it: the easy-hard test compares items.
  const perItem = new Map([...itemScores].map(([k, scores]) => [k, [...scores.values()].map((c) => c.sum / c.trials)]));
  return { cells, rates, perItem, positions: [...positions.values()], distractors };
}
