// Retention after verification (the paper's section 3.5: 83.25% of Retrospective items and 54.3%
// of Prospective items kept after Dawid-Skene aggregation of the verifiers' labels). Two readings:
//   - from counts: the items a verified release holds over the candidate items that went to
//     verification, per task and domain (95% Wilson interval), pooled per task and as the mean of
//     the domain rates;
//   - from annotations (CSV item,annotator,label[,task][,domain][,batch][,answer]): Dawid-Skene
//     fitted per batch (the paper fits each annotation batch on its own; without a batch column,
//     per task), an item kept when its aggregated label is the accepting label (verdicts such as
//     valid/invalid) or, with an answer column, the item's intended answer (verifiers answering the
//     question); each annotator's confusion matrix P(observed | true) and error rate (1 - the mean
//     posterior probability of the labels they gave), flagged above a threshold; Gwet's AC1 per batch.

import { decimalNumber, InputError, parseCsv } from '../../../core/index.js';
import { dawidSkene, gwetAC1, wilsonInterval } from '../../../stats/index.js';

export interface RetentionCell {
  task: string;
  /** A domain, `pooled` (sums over the task's domains) or `mean` (the mean of its domain rates; no counts, no interval). */
  domain: string;
  retained: number;
  candidates: number;
  rate: number;
  lower: number;
  upper: number;
}

export type TaskDomainCounts = Map<string, Map<string, number>>;

/** Candidate counts: CSV task,domain,candidates; errors name the file and line. */
export function parseCandidateCounts(text: string, file = '<candidates>'): TaskDomainCounts {
  const rows = parseCsv(text, file);
  const header = rows[0]?.fields.map((h) => h.trim().toLowerCase()) ?? [];
  const col = (n: string) => {
    const i = header.indexOf(n);
    if (i < 0) throw new InputError(`no "${n}" column (expected task, domain, candidates)`, file, 1);
    return i;
  };
  const [t, d, c] = [col('task'), col('domain'), col('candidates')];
  const out: TaskDomainCounts = new Map();
  for (const r of rows.slice(1)) {
    const f = r.fields.map((x) => x.trim());
    const n = decimalNumber(f[c] ?? '');
    if (!Number.isInteger(n) || n <= 0)
      throw new InputError(`candidates must be a positive whole number, not "${f[c] ?? ''}"`, file, r.line);
    const byDomain = out.get(f[t]!) ?? new Map<string, number>();
    if (byDomain.has(f[d]!)) throw new InputError(`${f[t]} / ${f[d]} appears twice`, file, r.line);
    byDomain.set(f[d]!, n);
    out.set(f[t]!, byDomain);
  }
  if (out.size === 0) throw new InputError('expected a header (task,domain,candidates) and at least one row', file);
  return out;
}

function cell(task: string, domain: string, retained: number, candidates: number): RetentionCell {
  const ci = wilsonInterval(retained, candidates);
  return { task, domain, retained, candidates, rate: retained / candidates, lower: ci.lower, upper: ci.upper };
}

/** Retention per task and domain, pooled and as the mean of domain rates; a retained count above its candidates is an error. */
export function retentionFromCounts(retained: TaskDomainCounts, candidates: TaskDomainCounts): RetentionCell[] {
  const out: RetentionCell[] = [];
  for (const [task, byDomain] of candidates) {
    const cells: RetentionCell[] = [];
    for (const [domain, n] of byDomain) {
      const k = retained.get(task)?.get(domain);
      if (k === undefined) throw new InputError(`no verified ${task} items for domain ${domain}`);
      if (k > n) throw new InputError(`${task} ${domain}: ${k} verified items but only ${n} candidates`);
      cells.push(cell(task, domain, k, n));
    }
    out.push(...cells);
    if (cells.length > 1) {
      out.push(
        cell(
          task,
          'pooled',
          cells.reduce((s, c) => s + c.retained, 0),
          cells.reduce((s, c) => s + c.candidates, 0),
        ),
      );
      const mean = cells.reduce((s, c) => s + c.rate, 0) / cells.length;
      out.push({ task, domain: 'mean', retained: Number.NaN, candidates: Number.NaN, rate: mean, lower: Number.NaN, upper: Number.NaN });
    }
  }
  return out;
}

export interface VerificationLabel {
  item: string;
  annotator: string;
  label: string;
  task: string;
  domain: string;
  batch: string;
  answer?: string;
  line: number;
}

/** Verification annotations: CSV item,annotator,label with optional task, domain, batch and answer columns. */
export function parseVerificationLabels(text: string, file = '<annotations>'): VerificationLabel[] {
  const rows = parseCsv(text, file);
  if (rows.length < 2) throw new InputError('expected a header (item,annotator,label[,task][,domain][,batch][,answer]) and rows', file);
  const header = rows[0]!.fields.map((h) => h.trim().toLowerCase());
  const need = (n: string) => {
    const i = header.indexOf(n);
    if (i < 0) throw new InputError(`no "${n}" column (expected item, annotator, label; task, domain, batch, answer optional)`, file, 1);
    return i;
  };
  const [it, an, lb] = [need('item'), need('annotator'), need('label')];
  const [tk, dm, bt, aw] = ['task', 'domain', 'batch', 'answer'].map((n) => header.indexOf(n));
  return rows.slice(1).map((r) => {
    const f = r.fields.map((x) => x.trim());
    if (f.length !== header.length) throw new InputError(`row has ${f.length} fields, the header has ${header.length}`, file, r.line);
    for (const [i, name] of [
      [it, 'item'],
      [an, 'annotator'],
      [lb, 'label'],
    ] as const)
      if (!f[i]) throw new InputError(`empty ${name}`, file, r.line);
    const task = tk! >= 0 ? f[tk!]! : 'all';
    return {
      item: f[it]!,
      annotator: f[an]!,
      label: f[lb]!,
      task,
      domain: dm! >= 0 ? f[dm!]! : 'all',
      batch: bt! >= 0 ? f[bt!]! : task,
      ...(aw! >= 0 ? { answer: f[aw!]! } : {}),
      line: r.line,
    };
  });
}

export interface AnnotatorQuality {
  batch: string;
  annotator: string;
  labels: number;
  /** 1 - the mean posterior probability (Dawid-Skene) of the labels the annotator gave. */
  errorRate: number;
  flagged: boolean;
  /** P(observed | true): rows are true labels, columns observed labels, both in `categories` order. */
  confusion: number[][];
  categories: string[];
}

export interface VerificationResult {
  /** How an item is kept. */
  rule: string;
  batches: Array<{ batch: string; items: number; annotators: number; ac1: number; percentAgreement: number; iterations: number }>;
  retention: RetentionCell[];
  annotators: AnnotatorQuality[];
  items: Array<{ batch: string; item: string; task: string; domain: string; label: string; probability: number; retained: boolean }>;
}

/** Dawid-Skene per batch, retention per task and domain, and each annotator's error rate and confusion matrix (see the file comment). */
export function verifyByDawidSkene(
  labels: VerificationLabel[],
  opts: { accept?: string; flagAbove: number; file?: string },
): VerificationResult {
  const withAnswer = labels.some((l) => l.answer !== undefined);
  if (!withAnswer && opts.accept === undefined)
    throw new InputError('say which aggregated label keeps an item: an accepting label (--accept), or an "answer" column');
  const rule = withAnswer ? "kept when the aggregated label is the item's answer" : `kept when the aggregated label is "${opts.accept}"`;
  // One description per item: its task, domain and answer must agree across rows.
  const items = new Map<string, VerificationLabel>();
  for (const l of labels) {
    const key = `${l.batch}\u0000${l.item}`;
    const first = items.get(key);
    if (!first) items.set(key, l);
    else if (first.task !== l.task || first.domain !== l.domain || first.answer !== l.answer)
      throw new InputError(
        `item ${l.item}: its task, domain or answer differs from line ${first.line}`,
        opts.file ?? '<annotations>',
        l.line,
      );
  }
  const out: VerificationResult = { rule, batches: [], retention: [], annotators: [], items: [] };
  for (const batch of [...new Set(labels.map((l) => l.batch))]) {
    const mine = labels.filter((l) => l.batch === batch);
    const ds = dawidSkene(mine.map((l) => ({ task: l.item, worker: l.annotator, label: l.label })));
    const categories = ds.labels.map(String);
    const taskIndex = new Map(ds.tasks.map((t, i) => [t, i]));
    const annotators = [...new Set(mine.map((l) => l.annotator))];
    const given = new Map(mine.map((l) => [`${l.item}\u0000${l.annotator}`, l.label]));
    const matrix = ds.tasks.map((t) => annotators.map((a) => given.get(`${t}\u0000${a}`) ?? null));
    const agreement = gwetAC1(matrix);
    out.batches.push({
      batch,
      items: ds.tasks.length,
      annotators: annotators.length,
      ac1: agreement.coefficient,
      percentAgreement: agreement.pa,
      iterations: ds.iterations,
    });
    for (const [t, item] of ds.tasks.entries()) {
      const d = items.get(`${batch}\u0000${item}`)!;
      const label = String(ds.aggregated[t]);
      const keep = withAnswer ? label === d.answer : label === opts.accept;
      out.items.push({ batch, item, task: d.task, domain: d.domain, label, probability: Math.max(...ds.probas[t]!), retained: keep });
    }
    for (const a of annotators) {
      const theirs = mine.filter((l) => l.annotator === a);
      const support = theirs.reduce((s, l) => s + ds.probas[taskIndex.get(l.item)!]![categories.indexOf(l.label)]!, 0);
      const errorRate = 1 - support / theirs.length;
      const confusion = categories.map((_, k) => categories.map((observed) => ds.errors[a]?.[observed]?.[k] ?? 0));
      out.annotators.push({
        batch,
        annotator: a,
        labels: theirs.length,
        errorRate,
        flagged: errorRate > opts.flagAbove,
        confusion,
        categories,
      });
    }
  }
  const tally: TaskDomainCounts = new Map();
  const total: TaskDomainCounts = new Map();
  for (const it of out.items) {
    for (const [map, add] of [
      [tally, it.retained ? 1 : 0],
      [total, 1],
    ] as const) {
      const byDomain = map.get(it.task) ?? new Map<string, number>();
      byDomain.set(it.domain, (byDomain.get(it.domain) ?? 0) + add);
      map.set(it.task, byDomain);
    }
  }
  out.retention = retentionFromCounts(tally, total);
  return out;
}
