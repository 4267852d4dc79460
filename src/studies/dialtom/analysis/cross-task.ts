// Cross-task agreement of models (the paper's section 5.3): does a model that infers mental states
// well (retrospective) also forecast from them well (prospective)? Each model's correctness per
// task is pooled over domains (correct counts are round(rate x items), as the gap analysis reads
// published rates; 95% Wilson interval), and the models' pooled rates of two tasks are correlated
// (Pearson and Spearman with intervals and p: correlation-test.ts), pooled and per domain. A
// model enters a pair only on the domains where it has both tasks, so both rates cover the same
// dialogues. The paper reports Pearson's p = 0.35 and Spearman's rho = 0.67 across tasks without
// naming the aggregation; pooling over domains reproduces rho from Table 3.

import { wilsonInterval } from '../../../stats/index.js';
import { type CorrelationTest, correlationTest } from './correlation-test.js';
import type { DialtomTaskName, RateRow } from './rate-table.js';

export interface ModelTaskAccuracy {
  model: string;
  task: DialtomTaskName;
  domains: string[];
  correct: number;
  items: number;
  /** correct / items, 0-1. */
  rate: number;
  /** 95% Wilson interval. */
  lower: number;
  upper: number;
}

export interface CrossTaskRow extends CorrelationTest {
  tasks: [DialtomTaskName, DialtomTaskName];
  /** `pooled` (every domain a model has both tasks in), or one domain. */
  scope: string;
  models: string[];
}

const TASK_ORDER: DialtomTaskName[] = ['retrospective', 'prospective', 'prospective-easy'];
const countOf = (r: RateRow) => Math.round((r.rate / 100) * r.items);

/** One model's correctness on one task, pooled over the given domains (all of the model's when none are given). */
function pooled(rows: RateRow[], model: string, task: DialtomTaskName, domains?: Set<string>): ModelTaskAccuracy | undefined {
  const mine = rows.filter((r) => r.model === model && r.task === task && (!domains || domains.has(r.domain)));
  if (mine.length === 0) return undefined;
  const correct = mine.reduce((s, r) => s + countOf(r), 0);
  const items = mine.reduce((s, r) => s + r.items, 0);
  const ci = wilsonInterval(correct, items);
  return {
    model,
    task,
    domains: mine.map((r) => r.domain).sort(),
    correct,
    items,
    rate: correct / items,
    lower: ci.lower,
    upper: ci.upper,
  };
}

/** Each model's correctness per task, pooled over its domains, with 95% Wilson intervals. */
export function modelTaskAccuracy(rows: RateRow[]): ModelTaskAccuracy[] {
  const out: ModelTaskAccuracy[] = [];
  for (const model of [...new Set(rows.map((r) => r.model))])
    for (const task of TASK_ORDER) {
      const a = pooled(rows, model, task);
      if (a) out.push(a);
    }
  return out;
}

/** Correlations of models' correctness between each pair of tasks the rows hold: pooled over domains, then per domain. */
export function crossTaskCorrelation(rows: RateRow[]): CrossTaskRow[] {
  const tasks = TASK_ORDER.filter((t) => rows.some((r) => r.task === t));
  const models = [...new Set(rows.map((r) => r.model))];
  const domainsOf = (model: string, task: DialtomTaskName) =>
    new Set(rows.filter((r) => r.model === model && r.task === task).map((r) => r.domain));
  const out: CrossTaskRow[] = [];
  for (let i = 0; i < tasks.length; i++)
    for (let j = i + 1; j < tasks.length; j++) {
      const [a, b] = [tasks[i]!, tasks[j]!];
      const shared = new Map(models.map((m) => [m, new Set([...domainsOf(m, a)].filter((d) => domainsOf(m, b).has(d)))]));
      const scopes = ['pooled', ...[...new Set([...shared.values()].flatMap((s) => [...s]))].sort()];
      for (const scope of scopes) {
        const x: number[] = [];
        const y: number[] = [];
        const names: string[] = [];
        for (const m of models) {
          const domains = scope === 'pooled' ? shared.get(m)! : new Set([scope].filter((d) => shared.get(m)!.has(d)));
          if (domains.size === 0) continue;
          x.push(pooled(rows, m, a, domains)!.rate);
          y.push(pooled(rows, m, b, domains)!.rate);
          names.push(m);
        }
        if (names.length === 0) continue;
        out.push({ tasks: [a, b], scope, models: names, ...correlationTest(x, y, [a, b]) });
      }
    }
  return out;
}
