// The rest of DialToM's analyses: cross-domain agreement of model rankings (Pearson and
// Spearman of per-model correctness between each pair of domains), annotation files aggregated
// by Dawid-Skene with Gwet's AC1 for agreement (as the paper finalises its labels), and
// distractor clustering (the normalised entropy of which wrong option models pick: 1 = spread
// evenly over the distractors, 0 = always the same one).

import { InputError, parseCsv } from '../../core/index.js';
import { dawidSkene, gwetAC1, normalizedEntropy, pearson, spearman } from '../../stats/index.js';
import type { RateRow } from './rate-table.js';

export interface DomainCorrelation {
  task: string;
  domains: [string, string];
  models: number;
  pearson: number;
  spearman: number;
}

export function crossDomainCorrelation(rows: RateRow[]): DomainCorrelation[] {
  const out: DomainCorrelation[] = [];
  for (const task of [...new Set(rows.map((r) => r.task))]) {
    const mine = rows.filter((r) => r.task === task);
    const domains = [...new Set(mine.map((r) => r.domain))].sort();
    for (let i = 0; i < domains.length; i++) {
      for (let j = i + 1; j < domains.length; j++) {
        const models = [...new Set(mine.map((r) => r.model))].filter(
          (m) => mine.some((r) => r.model === m && r.domain === domains[i]) && mine.some((r) => r.model === m && r.domain === domains[j]),
        );
        if (models.length < 3) continue;
        const x = models.map((m) => mine.find((r) => r.model === m && r.domain === domains[i])!.rate);
        const y = models.map((m) => mine.find((r) => r.model === m && r.domain === domains[j])!.rate);
        out.push({ task, domains: [domains[i]!, domains[j]!], models: models.length, pearson: pearson(x, y), spearman: spearman(x, y) });
      }
    }
  }
  return out;
}

export interface AnnotationSummary {
  items: number;
  annotators: number;
  ac1: number;
  percentAgreement: number;
  /** Dawid-Skene label per item, with its posterior probability. */
  labels: Array<{ item: string; label: string | number; probability: number }>;
}

/** An annotation file: CSV with item, annotator, label (one row per judgement). */
export function summarizeAnnotations(text: string, file = '<annotations>'): AnnotationSummary {
  const rows = parseCsv(text);
  if (rows.length < 2) throw new InputError('expected a header (item,annotator,label) and rows', file);
  const header = rows[0]!.fields.map((h) => h.trim().toLowerCase());
  const col = (n: string) => {
    const i = header.indexOf(n);
    if (i < 0) throw new InputError(`no "${n}" column (expected item, annotator, label)`, file, 1);
    return i;
  };
  const it = col('item');
  const an = col('annotator');
  const lb = col('label');
  const data = rows.slice(1).map((r) => {
    const label = r.fields[lb]?.trim();
    if (!label) throw new InputError('empty label', file, r.line);
    const task = r.fields[it];
    const worker = r.fields[an];
    if (task === undefined || worker === undefined) throw new InputError('row has fewer fields than the header', file, r.line);
    return { task: task.trim(), worker: worker.trim(), label };
  });
  const items = [...new Set(data.map((d) => d.task))];
  const annotators = [...new Set(data.map((d) => d.worker))];
  const matrix = items.map((i) => annotators.map((a) => data.find((d) => d.task === i && d.worker === a)?.label ?? null));
  const ds = dawidSkene(data);
  const agreement = gwetAC1(matrix);
  return {
    items: items.length,
    annotators: annotators.length,
    ac1: agreement.coefficient,
    percentAgreement: agreement.pa,
    labels: ds.tasks.map((task, t) => {
      const probs = ds.probas[t]!;
      const best = probs.indexOf(Math.max(...probs));
      return { item: task, label: ds.labels[best]!, probability: probs[best]! };
    }),
  };
}

/** Wrong choices as distractor indices (0..options-2, the wrong options in source order) -> normalised entropy over the distractors. */
export function distractorClustering(wrongChoices: number[], options: number): { wrong: number; normalizedEntropy: number | null } {
  const counts = new Array(options - 1).fill(0);
  for (const c of wrongChoices) counts[c]++;
  return { wrong: wrongChoices.length, normalizedEntropy: wrongChoices.length ? normalizedEntropy(counts, options - 1).normalized : null };
}
