import type { Command } from 'commander';
import { ConfigError, loadSuite } from '../../../index.js';
import { readText } from '../../../core/index.js';
import { formatTextTable } from '../../../report/index.js';
import { intOption, numberOption, printResult } from '../../../cli/toolkit.js';
import {
  parseCandidateCounts,
  parseVerificationLabels,
  retentionFromCounts,
  type RetentionCell,
  type TaskDomainCounts,
  type VerificationResult,
  verifyByDawidSkene,
} from '../index.js';
import { pct } from './rates-input.js';

interface Flags {
  data?: string;
  candidates?: string;
  candidatesEach?: number;
  annotations?: string;
  accept?: string;
  flagAbove: number;
  json?: boolean;
}

/** Verified items per task and domain in a release (the retrospective and prospective suites). */
async function verifiedCounts(data: string | undefined): Promise<TaskDomainCounts> {
  const out: TaskDomainCounts = new Map();
  for (const task of ['retrospective', 'prospective']) {
    const byDomain = new Map<string, number>();
    for (const item of (await loadSuite(`dialtom-${task}`, { data, seed: 0 })).items) {
      const domain = String(item.meta.domain);
      byDomain.set(domain, (byDomain.get(domain) ?? 0) + 1);
    }
    out.set(task, byDomain);
  }
  return out;
}

const retentionTable = (cells: RetentionCell[], what: string) =>
  formatTextTable(
    ['task', 'domain', what, 'candidates', 'retention %', 'Wilson'],
    cells.map((c) => [
      c.task,
      c.domain,
      Number.isNaN(c.retained) ? '' : String(c.retained),
      Number.isNaN(c.candidates) ? '' : String(c.candidates),
      (c.rate * 100).toFixed(2),
      Number.isNaN(c.lower) ? '' : `[${pct(c.lower)}, ${pct(c.upper)}]`,
    ]),
  );

function verificationText(v: VerificationResult, flagAbove: number): string {
  const confusion = (a: VerificationResult['annotators'][number]) =>
    a.categories.map((t, k) => `true ${t}: ${a.categories.map((o, l) => `${o} ${a.confusion[k]![l]!.toFixed(2)}`).join(' ')}`).join('; ');
  const flagged = v.annotators.filter((a) => a.flagged);
  return `Dawid-Skene verification (fitted per batch; an item is ${v.rule})\n${formatTextTable(
    ['batch', 'items', 'annotators', 'Gwet AC1', 'agreement %', 'EM iterations'],
    v.batches.map((b) => [b.batch, String(b.items), String(b.annotators), b.ac1.toFixed(3), pct(b.percentAgreement), String(b.iterations)]),
  )}\n\nretention after verification (95% Wilson intervals)\n${retentionTable(v.retention, 'kept')}\n\nannotators (error rate = 1 - the mean posterior probability of the labels they gave; flagged above ${flagAbove}; P(observed | true) from Dawid-Skene)\n${formatTextTable(
    ['batch', 'annotator', 'labels', 'error rate', 'flag', 'P(observed | true)'],
    v.annotators.map((a) => [a.batch, a.annotator, String(a.labels), a.errorRate.toFixed(3), a.flagged ? 'FLAGGED' : '', confusion(a)]),
  )}\n${flagged.length ? `${flagged.length} annotator(s) flagged: ${flagged.map((a) => `${a.annotator} (${a.batch})`).join(', ')}\n` : 'no annotator flagged\n'}`;
}

async function retention(f: Flags): Promise<void> {
  const fromCounts = f.candidates !== undefined || f.candidatesEach !== undefined;
  if (f.candidates && f.candidatesEach !== undefined) throw new ConfigError('give --candidates FILE or --candidates-each N, not both');
  if (!fromCounts && !f.annotations)
    throw new ConfigError(
      'analyze dialtom-retention needs candidate counts (--candidates FILE or --candidates-each N, with --data DIR) or --annotations FILE',
    );
  const out: { counts?: RetentionCell[]; verification?: VerificationResult } = {};
  const parts: string[] = [];
  if (fromCounts) {
    const verified = await verifiedCounts(f.data);
    const candidates = f.candidates
      ? parseCandidateCounts(readText(f.candidates), f.candidates)
      : new Map([...verified].map(([task, byDomain]) => [task, new Map([...byDomain.keys()].map((d) => [d, f.candidatesEach!]))]));
    out.counts = retentionFromCounts(verified, candidates);
    parts.push(
      `retention from counts (verified items over candidate items; 95% Wilson intervals)\n${retentionTable(out.counts, 'verified')}\n`,
    );
  }
  if (f.annotations) {
    const labels = parseVerificationLabels(readText(f.annotations), f.annotations);
    out.verification = verifyByDawidSkene(labels, { accept: f.accept, flagAbove: f.flagAbove, file: f.annotations });
    parts.push(verificationText(out.verification, f.flagAbove));
  }
  printResult(f.json, out, parts.join('\n'));
}

/**
 * `analyze dialtom-retention --json` prints `{ counts?: [{ task, domain, retained, candidates, rate, lower, upper }],
 * verification?: { rule, batches: [{ batch, items, annotators, ac1, percentAgreement, iterations }], retention,
 * annotators: [{ batch, annotator, labels, errorRate, flagged, confusion, categories }], items } }`.
 */
export function registerRetention(analyze: Command): void {
  analyze
    .command('dialtom-retention')
    .description(
      "DialToM retention after verification (section 3.5): verified items over candidates per task and domain; from verifiers' labels, Dawid-Skene per batch with each annotator's confusion matrix and error rate, weak annotators flagged",
    )
    .option('--data <dir>', 'the verified release (the released layout); default: the downloaded DialToM data')
    .option('--candidates <file>', 'candidate items that went to verification: CSV task,domain,candidates')
    .option(
      '--candidates-each <n>',
      'the same number of candidate items for every task and domain of --data',
      intOption('--candidates-each', 1),
    )
    .option(
      '--annotations <file>',
      'verifiers\' labels: CSV item,annotator,label[,task][,domain][,batch][,answer] (an "answer" column: an item is kept when the aggregated label is its answer)',
    )
    .option('--accept <label>', 'without an answer column: the aggregated label that keeps an item (e.g. valid)')
    .option('--flag-above <rate>', 'flag annotators whose error rate is above this', numberOption('--flag-above', 0, 1), 0.3)
    .option('--json', 'print JSON')
    .action(retention);
}
