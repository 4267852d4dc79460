import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError, InputError, openStore, resolveRunId } from '../../../index.js';
import { decimalNumber, parseCsv, readJson, readText } from '../../../core/index.js';
import {
  benchmarkInferences,
  bertScoreInferences,
  crossDomainCorrelation,
  distractorClustering,
  dialtomRunResults,
  easyHardGap,
  inferenceOverlap,
  judgeInferences,
  parseChoices,
  parseHypotheses,
  parseRateTable,
  parseWrittenDialogues,
  parseWrittenInferences,
  positionalBias,
  retroProspectiveGap,
  summarizeAnnotations,
  type RateRow,
} from '../index.js';
import { formatPValue, formatTextTable } from '../../../report/index.js';
import { numberOption, DEFAULT_DB } from '../../../cli/toolkit.js';

/** domain,A,B,C,D rows of chosen-position counts. */
function readPositions(file: string): Array<{ domain: string; counts: number[] }> {
  const rows = parseCsv(readText(file), file);
  if (rows.length < 2) throw new InputError('expected a header (domain,A,B,C,D) and at least one row', file);
  return rows.slice(1).map((r) => {
    const counts = r.fields.slice(1).map((x) => decimalNumber(x.trim()));
    if (counts.length < 2 || counts.some((c) => !Number.isInteger(c) || c < 0))
      throw new InputError('position counts must be whole numbers', file, r.line);
    return { domain: r.fields[0]!.trim(), counts };
  });
}

interface Flags {
  runId?: string;
  db: string;
  rates?: string;
  positions?: string;
  choices?: string;
  references?: string;
  inferences?: string;
  dialogues?: string;
  annotations?: string;
  rubric?: string;
  judge?: string[];
  bertscoreModel?: string;
  bertscoreBaseline?: number;
  json?: boolean;
}

const BERTSCORE_SKIPPED =
  'BERTScore: not computed: no embedding model given (--bertscore-model FILE.gguf, a decoder-only GGUF read through node-llama-cpp; see README "DialToM analyses")';

/** Which model scored, as the BERTScore heading says it. */
const scoredBy = (m: { name: string; file: string; architecture: string; kind: string }) =>
  `scored by ${m.name} (${m.file}; ${m.architecture}, ${m.kind === 'decoder' ? 'decoder-only: last hidden layer, one prefix per token' : m.kind})`;

const f3 = (x: number | null | undefined, d = 3) => (x === null || x === undefined || Number.isNaN(x) ? '-' : x.toFixed(d));
const pct = (x: number) => (x * 100).toFixed(1);

async function analyzeDialtom(f: Flags): Promise<void> {
  if ((f.rubric || f.judge) && !(f.rubric && f.judge && f.references && f.inferences))
    throw new ConfigError('--rubric and --judge go together, with --references and --inferences');
  if (!f.rates && !f.positions && !f.runId && !f.references && !f.annotations && !f.choices)
    throw new ConfigError('analyze dialtom needs --run-id, --rates, --positions, --choices, --references or --annotations');
  if (f.references && !f.inferences) throw new ConfigError('--references needs --inferences (the texts to score)');
  if (f.bertscoreModel && !f.references) throw new ConfigError('--bertscore-model needs --references and --inferences');
  const out: Record<string, unknown> = {};
  const print = (s: string) => {
    if (!f.json) process.stdout.write(s);
  };
  let rates: RateRow[] = [];
  if (f.rates) rates = parseRateTable(readText(f.rates), f.rates);
  if (f.runId) {
    const store = await openStore(f.db);
    try {
      const r = await dialtomRunResults(store, await resolveRunId(store, f.runId));
      out.cells = r.cells;
      out.distractors = r.distractors;
      rates = [...rates, ...r.rates];
      out.runPositions = r.positions.map((p) => ({ ...p, test: positionalBias([{ domain: p.domain, counts: p.counts }])[0] }));
      out.easyHard = [...r.perItem.keys()]
        .filter((k) => k.split('\u0000')[1] === 'prospective')
        .flatMap((k) => {
          const [model, , domain] = k.split('\u0000');
          const easy = r.perItem.get(`${model}\u0000prospective-easy\u0000${domain}`);
          return easy ? [{ model, domain, ...easyHardGap(r.perItem.get(k)!, easy) }] : [];
        });
      print(
        `correctness per subject, task and domain (95% intervals over items: Wilson, with the items' effective number of trials where an item has several trials; Clopper-Pearson where each item has one)\n${formatTextTable(
          ['subject', 'task', 'domain', 'items', 'trials', 'CR %', 'Wilson', 'exact'],
          r.cells
            .filter((c) => c.attribute === 'all')
            .map((c) => [
              c.model,
              c.task,
              c.domain,
              String(c.items),
              String(c.trials),
              pct(c.rate),
              `[${pct(c.lower)}, ${pct(c.upper)}]`,
              Number.isNaN(c.exactLower) ? '-' : `[${pct(c.exactLower)}, ${pct(c.exactUpper)}]`,
            ]),
        )}\n\n`,
      );
    } finally {
      await store.close();
    }
  }
  out.gap = retroProspectiveGap(rates);
  out.crossDomain = crossDomainCorrelation(rates);
  if (f.annotations) out.annotations = summarizeAnnotations(readText(f.annotations), f.annotations);
  if (f.positions) out.positions = positionalBias(readPositions(f.positions));
  if (f.choices) {
    const byDomain = parseChoices(readText(f.choices), f.choices);
    const rows = [...byDomain].map(([domain, items]) => ({ domain, ...distractorClustering(items) }));
    if (byDomain.size > 1) rows.push({ domain: 'pooled', ...distractorClustering([...byDomain.values()].flat()) });
    out.choices = rows;
  }
  if (f.references && f.inferences) {
    const refs = parseWrittenInferences(readText(f.references), f.references);
    const hyps = f.inferences.endsWith('.json')
      ? benchmarkInferences(readJson(f.inferences), f.inferences)
      : parseHypotheses(readText(f.inferences), f.inferences);
    out.overlap = inferenceOverlap(hyps, refs);
    if (f.bertscoreModel) {
      out.bertscore = await bertScoreInferences({
        hypotheses: hyps,
        references: refs,
        modelPath: f.bertscoreModel,
        baseline: f.bertscoreBaseline,
      });
    } else {
      out.bertscore = null;
      out.bertscoreNote = BERTSCORE_SKIPPED;
    }
    if (f.rubric && f.judge) {
      const dialoguesFile = f.dialogues ?? join(dirname(f.references), 'combined_written_data.json');
      if (!existsSync(dialoguesFile))
        throw new ConfigError(
          `the judge needs the dialogues: --dialogues FILE (combined_written_data.json; ${dialoguesFile} does not exist)`,
        );
      const dialogues = parseWrittenDialogues(readJson(dialoguesFile), dialoguesFile);
      const store = await openStore(f.db);
      try {
        out.judged = await judgeInferences({ store, rubricPath: f.rubric, judges: f.judge, hypotheses: hyps, references: refs, dialogues });
      } finally {
        await store.close();
      }
    }
  }
  if (f.json) {
    process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
    return;
  }
  printTables(out);
}

function printTables(out: Record<string, unknown>): void {
  const w = (s: string) => process.stdout.write(s);
  const gap = out.gap as ReturnType<typeof retroProspectiveGap>;
  if (gap.length)
    w(
      `retrospective-prospective gap (chi-square with Yates, Cramer V from it)\n${formatTextTable(
        ['model', 'domain', 'retro %', 'pro %', 'chi2', 'p', 'V'],
        gap.map((g) => [
          g.model,
          g.domain,
          g.retrospective.toFixed(2),
          g.prospective.toFixed(2),
          f3(g.chi2, 2),
          g.p === null ? '-' : g.p < 0.001 ? '<0.001' : g.p.toFixed(3),
          g.cramersV === null ? '- (no test: a column is empty)' : g.cramersV.toFixed(3),
        ]),
      )}\n`,
    );
  const posFile = out.positions as ReturnType<typeof positionalBias> | undefined;
  const posRun = out.runPositions as
    | Array<{ model: string; task: string; domain: string; counts: number[]; test: ReturnType<typeof positionalBias>[number] }>
    | undefined;
  if (posFile || posRun?.length)
    w(
      `\npositional bias (chosen positions; goodness of fit against a uniform null)\n${formatTextTable(
        ['subject', 'task', 'domain', 'counts', 'chi2', 'p'],
        [
          ...(posFile ?? []).map((x) => ['(file)', '', x.domain, x.counts.join('/'), f3(x.chi2, 2), formatPValue(x.p)]),
          ...(posRun ?? []).map((x) => [x.model, x.task, x.domain, x.counts.join('/'), f3(x.test.chi2, 2), formatPValue(x.test.p)]),
        ],
      )}\n`,
    );
  const cd = out.crossDomain as ReturnType<typeof crossDomainCorrelation>;
  if (cd.length)
    w(
      `\ncross-domain agreement of models' correctness\n${formatTextTable(
        ['task', 'domains', 'models', 'Pearson', 'Spearman'],
        cd.map((x) => [x.task, x.domains.join(' ~ '), String(x.models), f3(x.pearson), f3(x.spearman)]),
      )}\n`,
    );
  const an = out.annotations as ReturnType<typeof summarizeAnnotations> | undefined;
  if (an)
    w(
      `\nannotations: ${an.items} items, ${an.annotators} annotators, Gwet AC1 ${an.ac1.toFixed(3)} (agreement ${(an.percentAgreement * 100).toFixed(1)}%); Dawid-Skene labels in --json\n`,
    );
  type Clustering = { items: number; itemsUsed: number; incorrect: number; normalizedEntropy: number | null; domain: string };
  const clusterRows = [
    ...((out.distractors as Array<Clustering & { model: string; task: string }> | undefined) ?? []),
    ...((out.choices as Clustering[] | undefined) ?? []).map((c) => ({ ...c, model: '(choices file)', task: '' })),
  ];
  if (clusterRows.length)
    w(
      `\ndistractor clustering (per item: normalised entropy of its wrong answers over its distractors; mean over items with 2+ wrong answers, weighted by wrong answers; Table 21)\n${formatTextTable(
        ['subject', 'task', 'domain', 'items (2+ wrong)', 'wrong answers', 'Hn'],
        clusterRows.map((x) => [x.model, x.task, x.domain, `${x.itemsUsed} / ${x.items}`, String(x.incorrect), f3(x.normalizedEntropy)]),
      )}\n`,
    );
  const ov = out.overlap as ReturnType<typeof inferenceOverlap> | undefined;
  if (ov)
    w(
      `\nfree-text inferences against human references (mean over references, then units)\n${formatTextTable(
        ['model', 'units', 'BLEU', 'ROUGE-L', 'unmatched'],
        ov.map((x) => [x.model, String(x.units), x.bleu.toFixed(2), x.rougeL.toFixed(3), String(x.unmatched)]),
      )}\n`,
    );
  const bs = out.bertscore as Awaited<ReturnType<typeof bertScoreInferences>> | null | undefined;
  if (bs)
    w(
      `\nBERTScore (${bs[0] ? scoredBy(bs[0].embeddingModel) : ''}${bs[0]?.baseline !== null && bs[0] ? `, rescaled with baseline ${bs[0].baseline}` : ', not rescaled'}; the paper's BERTScore is roberta-large's, an encoder's: not comparable with another model's)\n${formatTextTable(
        ['model', 'units', 'P', 'R', 'F1'],
        bs.map((x) => [x.model, String(x.units), f3(x.precision), f3(x.recall), f3(x.f1)]),
      )}\n`,
    );
  else if (out.bertscoreNote) w(`\n${out.bertscoreNote}\n`);
  const jd = out.judged as Awaited<ReturnType<typeof judgeInferences>> | undefined;
  if (jd)
    w(
      `\njudged against each human reference with the source dialogue (panel median per reference; mean over references, then units)\n${formatTextTable(
        ['model', 'units', ...Object.keys(jd[0]?.means ?? {}).map((k) => k.toUpperCase()), 'TA', 'judge failures'],
        jd.map((x) => [x.model, String(x.units), ...Object.values(x.means).map((v) => f3(v, 2)), f3(x.total, 2), String(x.judgeFailures)]),
      )}\n`,
    );
  const eh = out.easyHard as
    | Array<{ model: string; domain: string; u: number; p: number; rankBiserial: number; convention: string; hard: number; easy: number }>
    | undefined;
  if (eh?.length)
    w(
      `\neasy-hard gap (Mann-Whitney U)\n${formatTextTable(
        ['model', 'domain', 'hard', 'easy', 'U', 'p', 'r'],
        eh.map((x) => [
          x.model,
          x.domain,
          x.hard.toFixed(3),
          x.easy.toFixed(3),
          x.u.toFixed(1),
          formatPValue(x.p),
          x.rankBiserial.toFixed(3),
        ]),
      )}\n${eh[0] ? `${eh[0].convention}\n` : ''}`,
    );
}

/**
 * `analyze dialtom --json` prints `{ cells?: [{ model, task, domain, attribute, correct, items, trials, rate, lower, upper, exactLower, exactUpper }],
 * gap: [{ model, domain, retrospective, prospective, itemsRetro, itemsPro, chi2, p, cramersV }], crossDomain,
 * easyHard?: [{ model, domain, u, p, rankBiserial, convention, hard, easy }], positions?: [{ domain, counts, chi2, df, p }] (from --positions), runPositions?: [{ model, task, domain, counts, test }],
 * distractors?: [{ model, task, domain, items, itemsUsed, incorrect, incorrectAll, normalizedEntropy }], choices?,
 * annotations?, overlap?, bertscore?: [{ model, units, precision, recall, f1, embeddings, embeddingModel: { file, name, architecture, kind }, baseline }] | null, bertscoreNote?, judged? }`.
 */
export function registerAnalyzeDialtom(analyze: Command): void {
  analyze
    .command('dialtom')
    .description(
      'DialToM: correctness per subject, domain and attribute (Wilson and exact intervals); the retrospective-prospective gap (Table 19); the easy-hard gap; positional bias; distractor clustering (Table 21); written inferences against the human references (BLEU, ROUGE-L, BERTScore, judge)',
    )
    .option('--run-id <id>', 'a stored run with DialToM suites (imported humans, human:NAME, included)')
    .option('--db <path>', 'store file (a SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--rates <file>', 'published rates: CSV with model,domain,task,correct_rate,items')
    .option('--positions <file>', 'chosen-position counts: CSV with domain,A,B,C,D')
    .option('--choices <file>', "participants' choices: CSV with domain,item,choice,correct[,options] (letters): distractor clustering")
    .option('--references <file>', "human-written inferences (DialToM's written_inference.csv)")
    .option(
      '--inferences <file>',
      "with --references: the inferences to score: DialToM's combined_written_data.json (the benchmark's own), or a CSV model,dataset,mental_state,sub_id,inference (dialtom infer writes one)",
    )
    .option('--dialogues <file>', 'with --rubric: the dialogues (combined_written_data.json; default: next to --references)')
    .option('--annotations <file>', 'annotation file (CSV item,annotator,label): Dawid-Skene labels and Gwet AC1')
    .option(
      '--rubric <file>',
      'with --references and --inferences: a judge rubric (dialtom-inference: PA, CA, SA on 0-3 with the dialogue)',
    )
    .option('--judge <spec...>', 'with --rubric: the judge panel')
    .option(
      '--bertscore-model <file>',
      "with --references: a decoder-only GGUF whose token embeddings BERTScore uses (an encoder GGUF such as the paper's roberta-large is refused with the reason: node-llama-cpp gives an encoder's vector per text, not per token)",
    )
    .option(
      '--bertscore-baseline <b>',
      "with --bertscore-model: rescale as (s - b) / (1 - b) (bert-score's rescale_with_baseline)",
      numberOption('--bertscore-baseline', -1),
    )
    .option('--json', 'print JSON')
    .action(analyzeDialtom);
}
