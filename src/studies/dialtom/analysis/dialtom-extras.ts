// The rest of DialToM's analyses: cross-domain agreement of model rankings (Pearson and
// Spearman of per-model correctness between each pair of domains), annotation files aggregated
// by Dawid-Skene with Gwet's AC1 for agreement (as the paper finalises its labels), and
// distractor clustering (the normalised entropy of which wrong option models pick: 1 = spread
// evenly over the distractors, 0 = always the same one).

import { decimalNumber, InputError, parseCsv } from '../../../core/index.js';
import { correlationUndefinedReason, dawidSkene, gwetAC1, normalizedEntropy, pearson, spearman } from '../../../stats/index.js';
import type { RateRow } from './rate-table.js';

export interface DomainCorrelation {
  task: string;
  domains: [string, string];
  models: number;
  pearson: number;
  spearman: number;
  /** Why both correlations are NaN (a domain where every model scored the same); absent when they are defined. */
  reason?: string;
}

/** Pearson and Spearman correlations of models' correctness rates between DialToM domains, per task. */
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
        const reason = correlationUndefinedReason(x, y, [domains[i]!, domains[j]!]);
        out.push({
          task,
          domains: [domains[i]!, domains[j]!],
          models: models.length,
          pearson: pearson(x, y),
          spearman: spearman(x, y),
          ...(reason ? { reason } : {}),
        });
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
  const rows = parseCsv(text, file);
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

/** One item's wrong answers: which distractor each chose (0..distractors-1, the wrong options in source order). */
export interface ItemWrongChoices {
  item: string;
  /** The item's number of wrong options (3 for DialToM's four-option items). */
  distractors: number;
  choices: number[];
}

export interface DistractorClustering {
  /** Items in the group. */
  items: number;
  /** Items with at least two wrong answers: the only ones whose spread over distractors is defined. */
  itemsUsed: number;
  /** Wrong answers on the items used (the weights). */
  incorrect: number;
  /** Wrong answers on all items. */
  incorrectAll: number;
  /** Weighted mean normalised entropy; null when no item has two wrong answers. */
  normalizedEntropy: number | null;
}

/**
 * Distractor clustering as DialToM defines it (Appendix J.2, Table 21): for each item, the
 * normalised Shannon entropy of its wrong answers over its distractors (1 = spread evenly, 0 =
 * all on one distractor), then the mean over items with at least two wrong answers, weighted by
 * each item's number of wrong answers. Pooling groups is the same weighted mean over all their items.
 */
export function distractorClustering(items: readonly ItemWrongChoices[]): DistractorClustering {
  let num = 0;
  let used = 0;
  let incorrect = 0;
  let incorrectAll = 0;
  for (const it of items) {
    incorrectAll += it.choices.length;
    if (it.choices.length < 2) continue;
    const counts = new Array<number>(it.distractors).fill(0);
    for (const c of it.choices) {
      if (!Number.isInteger(c) || c < 0 || c >= it.distractors)
        throw new RangeError(`item ${it.item}: distractor ${c} is not one of its ${it.distractors} distractors`);
      counts[c]!++;
    }
    num += it.choices.length * normalizedEntropy(counts, it.distractors).normalized;
    incorrect += it.choices.length;
    used++;
  }
  return { items: items.length, itemsUsed: used, incorrect, incorrectAll, normalizedEntropy: used ? num / incorrect : null };
}

/**
 * Human (or any) choices from a CSV `domain,item,choice,correct` (letters; `options`, the number
 * of options, may follow: default 4): the wrong choices per item, by domain, ready for
 * distractorClustering. Right choices count as items' answers, not as wrong choices.
 */
export function parseChoices(text: string, file = '<choices>'): Map<string, ItemWrongChoices[]> {
  const rows = parseCsv(text, file);
  if (rows.length < 2) throw new InputError('expected a header (domain,item,choice,correct[,options]) and rows', file);
  const header = rows[0]!.fields.map((h) => h.trim().toLowerCase());
  const col = (n: string) => {
    const i = header.indexOf(n);
    if (i < 0) throw new InputError(`no "${n}" column (expected domain, item, choice, correct and optionally options)`, file, 1);
    return i;
  };
  const [d, it, ch, co] = [col('domain'), col('item'), col('choice'), col('correct')];
  const op = header.indexOf('options');
  const byDomain = new Map<string, Map<string, ItemWrongChoices>>();
  for (const r of rows.slice(1)) {
    const f = r.fields.map((x) => x.trim());
    if (f.length !== header.length) throw new InputError(`row has ${f.length} fields, the header has ${header.length}`, file, r.line);
    const options = op >= 0 ? decimalNumber(f[op]!) : 4;
    if (!Number.isInteger(options) || options < 2 || options > 26)
      throw new InputError(`options must be a whole number from 2 to 26, not "${f[op]}"`, file, r.line);
    const letter = (v: string, what: string) => {
      const k = v.toUpperCase().charCodeAt(0) - 65;
      if (v.length !== 1 || k < 0 || k >= options)
        throw new InputError(`${what} must be a letter A-${String.fromCharCode(64 + options)}, not "${v}"`, file, r.line);
      return k;
    };
    const choice = letter(f[ch]!, 'choice');
    const correct = letter(f[co]!, 'correct');
    const items = byDomain.get(f[d]!) ?? new Map<string, ItemWrongChoices>();
    const entry = items.get(f[it]!) ?? { item: f[it]!, distractors: options - 1, choices: [] };
    if (entry.distractors !== options - 1) throw new InputError(`item ${f[it]} is given with different numbers of options`, file, r.line);
    if (choice !== correct) entry.choices.push(choice < correct ? choice : choice - 1);
    items.set(f[it]!, entry);
    byDomain.set(f[d]!, items);
  }
  return new Map([...byDomain].map(([k, v]) => [k, [...v.values()]]));
}
