import type { Command } from 'commander';
import { ConfigError, InputError, judgeInferences, openStore, resolveRunId } from '../../index.js';
import { parseCsv, readJson, readText } from '../../core/index.js';
import {
  benchmarkInferences,
  crossDomainCorrelation,
  summarizeAnnotations,
  dialtomRunResults,
  easyHardGap,
  inferenceOverlap,
  traceEffect,
  parseHypotheses,
  parseRateTable,
  parseWrittenInferences,
  positionalBias,
  retroProspectiveGap,
  type RateRow,
} from '../../analysis/index.js';
import { formatTextTable } from '../../report/index.js';
import { registerAnalyzeVision } from './analyze-vision.js';

/** domain,A,B,C,D rows of chosen-position counts. */
function readPositions(file: string): Array<{ domain: string; counts: number[] }> {
  const rows = parseCsv(readText(file));
  if (rows.length < 2) throw new InputError('expected a header (domain,A,B,C,D) and at least one row', file);
  return rows.slice(1).map((r) => {
    const counts = r.fields.slice(1).map((x) => Number(x.trim()));
    if (counts.length < 2 || counts.some((c) => !Number.isInteger(c) || c < 0))
      throw new InputError('position counts must be whole numbers', file, r.line);
    return { domain: r.fields[0]!.trim(), counts };
  });
}

/**
 * `analyze dialtom --json` prints `{ cells?: [{ model, task, domain, attribute, correct, items, rate, lower, upper }],
 * gap: [{ model, domain, retrospective, prospective, itemsRetro, itemsPro, chi2, p, cramersV }],
 * easyHard?: [{ model, domain, u, p, rankBiserial, hard, easy }], positions?: [{ domain, counts, chi2, df, p }] }`.
 */
export function registerAnalyze(program: Command): void {
  const analyze = program.command('analyze').description('analyses of one paper family over stored runs or published rates');
  analyze
    .command('traces')
    .description('the effect of reasoning-trace injection: McNemar per subject and suite between a run without and a run with --traces')
    .requiredOption('--baseline <id>', 'run without traces')
    .requiredOption('--treated <id>', 'run with --traces')
    .option('--db <path>', 'store file', 'mindscope.db')
    .option('--json', 'print JSON')
    .action((f: { baseline: string; treated: string; db: string; json?: boolean }) => {
      const store = openStore(f.db);
      try {
        for (const id of [f.baseline, f.treated]) if (!store.getRun(id)) throw new ConfigError(`no run "${id}" in ${f.db}`);
        const r = traceEffect(store, f.baseline, f.treated);
        if (r.length === 0) throw new ConfigError('the two runs share no subject and item');
        if (f.json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
        else
          process.stdout.write(
            `${formatTextTable(
              ['subject', 'suite', 'items', 'without %', 'with %', 'only without', 'only with', 'p (McNemar)', 'p (exact)'],
              r.map((x) => [
                x.subject,
                x.suite,
                String(x.items),
                (x.baseline * 100).toFixed(1),
                (x.treated * 100).toFixed(1),
                String(x.table[0][1]),
                String(x.table[1][0]),
                x.pCorrected.toFixed(4),
                x.pExact.toFixed(4),
              ]),
            )}\n`,
          );
      } finally {
        store.close();
      }
    });
  registerAnalyzeVision(analyze);
  analyze
    .command('dialtom')
    .description(
      'DialToM: correctness per model, domain and attribute; the retrospective-prospective gap (chi-square, Cramer V as Table 19); the easy-hard gap (Mann-Whitney); positional bias',
    )
    .option('--run-id <id>', 'a stored run with DialToM suites')
    .option('--db <path>', 'store file', 'mindscope.db')
    .option('--rates <file>', 'published rates: CSV with model,domain,task,correct_rate,items')
    .option('--positions <file>', 'chosen-position counts: CSV with domain,A,B,C,D')
    .option(
      '--references <file>',
      "human-written inferences (DialToM's written_inference.csv): BLEU and ROUGE-L of free-text inferences against them",
    )
    .option(
      '--inferences <file>',
      "with --references: the inferences to score: DialToM's combined_written_data.json (the benchmark's own), or a CSV model,dataset,mental_state,sub_id,inference",
    )
    .option('--annotations <file>', 'annotation file (CSV item,annotator,label): Dawid-Skene labels and Gwet AC1')
    .option('--rubric <file>', 'with --references and --inferences: a judge rubric (e.g. rubrics/dialtom-inference.yaml: PA, CA, SA)')
    .option('--judge <spec...>', 'with --rubric: the judge panel')
    .option('--json', 'print JSON')
    .action(
      async (f: {
        runId?: string;
        db: string;
        rates?: string;
        positions?: string;
        references?: string;
        inferences?: string;
        annotations?: string;
        rubric?: string;
        judge?: string[];
        json?: boolean;
      }) => {
        if ((f.rubric || f.judge) && !(f.rubric && f.judge && f.references && f.inferences))
          throw new ConfigError('--rubric and --judge go together, with --references and --inferences');
        if (!f.rates && !f.positions && !f.runId && !f.references && !f.annotations)
          throw new ConfigError('analyze dialtom needs --run-id, --rates, --positions, --references or --annotations');
        if (f.references && !f.inferences) throw new ConfigError('--references needs --inferences (the texts to score)');
        const out: Record<string, unknown> = {};
        let rates: RateRow[] = [];
        if (f.rates) rates = parseRateTable(readText(f.rates), f.rates);
        if (f.runId) {
          const store = openStore(f.db);
          try {
            const r = dialtomRunResults(store, resolveRunId(store, f.runId));
            out.cells = r.cells;
            out.distractors = r.distractors;
            rates = [...rates, ...r.rates];
            out.easyHard = [...r.perItem.keys()]
              .filter((k) => k.split('\u0000')[1] === 'prospective')
              .flatMap((k) => {
                const [model, , domain] = k.split('\u0000');
                const easy = r.perItem.get(`${model}\u0000prospective-easy\u0000${domain}`);
                return easy ? [{ model, domain, ...easyHardGap(r.perItem.get(k)!, easy) }] : [];
              });
          } finally {
            store.close();
          }
        }
        out.gap = retroProspectiveGap(rates);
        out.crossDomain = crossDomainCorrelation(rates);
        if (f.annotations) out.annotations = summarizeAnnotations(readText(f.annotations), f.annotations);
        if (f.positions) out.positions = positionalBias(readPositions(f.positions));
        if (f.references && f.inferences) {
          const refs = parseWrittenInferences(readText(f.references), f.references);
          const hyps = f.inferences.endsWith('.json')
            ? benchmarkInferences(readJson(f.inferences), f.inferences)
            : parseHypotheses(readText(f.inferences), f.inferences);
          out.overlap = inferenceOverlap(hyps, refs);
          if (f.rubric && f.judge) {
            const store = openStore(f.db);
            try {
              out.judged = await judgeInferences({ store, rubricPath: f.rubric, judges: f.judge, hypotheses: hyps, references: refs });
            } finally {
              store.close();
            }
          }
        }
        if (f.json) {
          process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
          return;
        }
        const gap = out.gap as ReturnType<typeof retroProspectiveGap>;
        if (gap.length) {
          process.stdout.write('retrospective-prospective gap (chi-square with Yates, Cramer V from it)\n');
          process.stdout.write(
            `${formatTextTable(
              ['model', 'domain', 'retro %', 'pro %', 'chi2', 'p', 'V'],
              gap.map((g) => [
                g.model,
                g.domain,
                g.retrospective.toFixed(2),
                g.prospective.toFixed(2),
                g.chi2 === null ? '-' : g.chi2.toFixed(2),
                g.p === null ? '-' : g.p < 0.001 ? '<0.001' : g.p.toFixed(3),
                g.cramersV === null ? '- (no test: a column is empty)' : g.cramersV.toFixed(3),
              ]),
            )}\n`,
          );
        }
        const pos = out.positions as ReturnType<typeof positionalBias> | undefined;
        if (pos)
          process.stdout.write(
            `\npositional bias (goodness of fit, uniform null)\n${formatTextTable(
              ['domain', 'counts', 'chi2', 'p'],
              pos.map((x) => [x.domain, x.counts.join('/'), x.chi2.toFixed(2), x.p.toFixed(4)]),
            )}\n`,
          );
        const eh = out.easyHard as
          | Array<{
              model: string;
              domain: string;
              u: number;
              p: number;
              rankBiserial: number;
              convention: string;
              hard: number;
              easy: number;
            }>
          | undefined;
        const cd = out.crossDomain as ReturnType<typeof crossDomainCorrelation>;
        if (cd.length)
          process.stdout.write(
            `\ncross-domain agreement of models' correctness\n${formatTextTable(
              ['task', 'domains', 'models', 'Pearson', 'Spearman'],
              cd.map((x) => [x.task, x.domains.join(' ~ '), String(x.models), x.pearson.toFixed(3), x.spearman.toFixed(3)]),
            )}\n`,
          );
        const an = out.annotations as ReturnType<typeof summarizeAnnotations> | undefined;
        if (an)
          process.stdout.write(
            `\nannotations: ${an.items} items, ${an.annotators} annotators, Gwet AC1 ${an.ac1.toFixed(3)} (agreement ${(an.percentAgreement * 100).toFixed(1)}%); Dawid-Skene labels in --json\n`,
          );
        const ds = out.distractors as
          | Array<{ model: string; task: string; domain: string; wrong: number; normalizedEntropy: number | null }>
          | undefined;
        if (ds?.length)
          process.stdout.write(
            `\ndistractor clustering (normalised entropy of wrong choices)\n${formatTextTable(
              ['model', 'task', 'domain', 'wrong', 'entropy'],
              ds.map((x) => [
                x.model,
                x.task,
                x.domain,
                String(x.wrong),
                x.normalizedEntropy === null ? '-' : x.normalizedEntropy.toFixed(3),
              ]),
            )}\n`,
          );
        const ov = out.overlap as ReturnType<typeof inferenceOverlap> | undefined;
        if (ov)
          process.stdout.write(
            `\nfree-text inferences against human references (mean over references and units)\n${formatTextTable(
              ['model', 'units', 'BLEU', 'ROUGE-L', 'unmatched'],
              ov.map((x) => [x.model, String(x.units), x.bleu.toFixed(2), x.rougeL.toFixed(3), String(x.unmatched)]),
            )}\n`,
          );
        const jd = out.judged as Awaited<ReturnType<typeof judgeInferences>> | undefined;
        if (jd)
          process.stdout.write(
            `\njudged against the human references (panel means per rubric field)\n${formatTextTable(
              ['model', 'units', ...Object.keys(jd[0]?.means ?? {}), 'total', 'judge failures'],
              jd.map((x) => [
                x.model,
                String(x.units),
                ...Object.values(x.means).map((v) => v.toFixed(2)),
                x.total.toFixed(2),
                String(x.judgeFailures),
              ]),
            )}\n`,
          );
        if (eh?.length)
          process.stdout.write(
            `\neasy-hard gap (Mann-Whitney U)\n${formatTextTable(
              ['model', 'domain', 'hard', 'easy', 'U', 'p', 'r'],
              eh.map((x) => [
                x.model,
                x.domain,
                x.hard.toFixed(3),
                x.easy.toFixed(3),
                x.u.toFixed(1),
                x.p.toFixed(4),
                x.rankBiserial.toFixed(3),
              ]),
            )}\n${eh[0] ? `${eh[0].convention}\n` : ''}`,
          );
      },
    );
}
