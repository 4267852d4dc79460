// DialToM results of a stored run: correctness rate per model, domain and attribute with Wilson
// intervals, and the same rate rows the published-rates analyses take (so a run feeds the
// retrospective-prospective gap), plus per-item correctness for the easy-hard gap.

import { MCQ_RECORDS, McqPayloadSchema, readRecord } from '../../core/index.js';
import { wilsonInterval } from '../../stats/index.js';
import type { Store } from '../../store/index.js';
import { distractorClustering } from './dialtom-extras.js';
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
  items: number;
  rate: number;
  lower: number;
  upper: number;
}

export function dialtomRunResults(
  store: Store,
  runId: string,
): {
  cells: DialtomCell[];
  rates: RateRow[];
  perItem: Map<string, number[]>;
  distractors: Array<{ model: string; task: DialtomTaskName; domain: string; wrong: number; normalizedEntropy: number | null }>;
} {
  // Wrong choices by the chosen option's place in the item's own order, per model, task and domain.
  const wrong = new Map<string, { model: string; task: DialtomTaskName; domain: string; choices: number[]; options: number }>();
  const groups = new Map<string, { model: string; task: DialtomTaskName; domain: string; attribute: string; values: number[] }>();
  const perItem = new Map<string, number[]>();
  for (const r of store.responses(runId)) {
    const task = SUITES[r.suite];
    if (!task) continue;
    const domain = String(r.meta.domain ?? 'all');
    const attribute = String(r.meta.state ?? r.category);
    for (const attr of [attribute, 'all']) {
      const key = `${r.spec}\u0000${task}\u0000${domain}\u0000${attr}`;
      const g = groups.get(key) ?? { model: r.spec, task, domain, attribute: attr, values: [] };
      g.values.push(r.value);
      groups.set(key, g);
    }
    const k = `${r.spec}\u0000${task}\u0000${domain}`;
    perItem.set(k, [...(perItem.get(k) ?? []), r.value]);
    if (r.value === 0 && !r.parseFailed) {
      const t = store.transcript({ runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate });
      const detail = t ? readRecord(MCQ_RECORDS, t.transcript, `${r.suite}/${r.itemId}`) : undefined;
      const chosen = detail?.presented.find((o) => o.label === detail.parsed)?.text;
      const item = store.getItem(r.itemHash);
      const options = McqPayloadSchema.safeParse(item?.payload).data?.options;
      // Which distractor: the chosen option's place among the item's wrong options, in source order.
      const distractors = options?.filter((o) => o !== item?.answer) ?? [];
      const index = chosen !== undefined ? distractors.indexOf(chosen) : -1;
      if (index >= 0) {
        const w = wrong.get(k) ?? { model: r.spec, task, domain, choices: [], options: distractors.length + 1 };
        w.choices.push(index);
        wrong.set(k, w);
      }
    }
  }
  const cells = [...groups.values()].map((g) => {
    const correct = g.values.reduce((a, b) => a + b, 0);
    const ci = wilsonInterval(correct, g.values.length);
    return {
      model: g.model,
      task: g.task,
      domain: g.domain,
      attribute: g.attribute,
      correct,
      items: g.values.length,
      rate: correct / g.values.length,
      lower: ci.lower,
      upper: ci.upper,
    };
  });
  const rates = cells
    .filter((c) => c.attribute === 'all')
    .map((c) => ({ model: c.model, domain: c.domain, task: c.task, rate: c.rate * 100, items: c.items, line: 0 }));
  const distractors = [...wrong.values()].map((w) => ({
    model: w.model,
    task: w.task,
    domain: w.domain,
    ...distractorClustering(w.choices, w.options),
  }));
  return { cells, rates, perItem, distractors };
}
