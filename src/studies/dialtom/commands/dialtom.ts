import type { Command } from 'commander';
import { existsSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ConfigError, loadSuite, openStore, type Item } from '../../../index.js';
import { formatCsv, readJson, readText, type McqPayload, makeDirectory } from '../../../core/index.js';
import { readTraces } from '../../../protocols/index.js';
import { formatPValue, formatTextTable } from '../../../report/index.js';
import { DEFAULT_CONCURRENCY } from '../../../runner/index.js';
import { intOption, DEFAULT_DB, printResult } from '../../../cli/toolkit.js';
import {
  buildDialtomItems,
  contextStats,
  dialtomDatasetStats,
  elicitInferences,
  fileWriter,
  judgeTracePairs,
  modelDialtomWriter,
  parseWrittenDialogues,
  parseWrittenInferences,
  readDialogues,
  readDialtomWindows,
  type BuiltItems,
  type DialtomDomainStats,
} from '../index.js';

/** The written-task files: given, or in the released layout under --data (DIR/dialtom/data or DIR/data or DIR). */
function writtenFiles(f: { data?: string; references?: string; dialogues?: string }): { references: string; dialogues: string } {
  const found = (name: string) => {
    for (const dir of f.data ? [join(f.data, 'dialtom', 'data'), join(f.data, 'data'), f.data] : [])
      if (existsSync(join(dir, name))) return join(dir, name);
    return undefined;
  };
  const references = f.references ?? found('written_inference.csv');
  const dialogues = f.dialogues ?? found('combined_written_data.json');
  if (!references || !dialogues)
    throw new ConfigError(
      'give --data DIR (the DialToM data folder) or --references written_inference.csv and --dialogues combined_written_data.json',
    );
  return { references, dialogues };
}

async function dialtomItems(suite: string, data: string | undefined): Promise<Item<McqPayload>[]> {
  return (await loadSuite(suite, { data, seed: 0 })).items as Item<McqPayload>[];
}

/** The released layout: DIR/dialtom/data/DOMAIN_TASK_verified.json and DIR/dialtom/counterfactual_data/DOMAIN_counterfact.json. */
function writeLayout(
  root: string,
  built: Pick<BuiltItems, 'retrospective' | 'prospective' | 'prospectiveEasy'> & { counterfactual?: BuiltItems['counterfactual'] },
): void {
  const data = join(root, 'dialtom', 'data');
  makeDirectory(data);
  const domains = [...new Set(built.retrospective.map((r) => String(r.domain)))];
  for (const domain of domains) {
    const of = (rows: Array<Record<string, unknown>>) => rows.filter((r) => r.domain === domain);
    writeFileSync(join(data, `${domain}_retrospective_verified.json`), JSON.stringify(of(built.retrospective), null, 1));
    writeFileSync(join(data, `${domain}_prospective_verified.json`), JSON.stringify(of(built.prospective), null, 1));
    writeFileSync(join(data, `${domain}_prospective-easy_verified.json`), JSON.stringify(of(built.prospectiveEasy), null, 1));
    if (built.counterfactual) {
      const cf = join(root, 'dialtom', 'counterfactual_data');
      makeDirectory(cf);
      const ids = new Set(of(built.retrospective).map((r) => String(r.id)));
      // Keys are "<window id>_<state>".
      writeFileSync(
        join(cf, `${domain}_counterfact.json`),
        JSON.stringify(
          Object.fromEntries(Object.entries(built.counterfactual).filter(([k]) => ids.has(k.slice(0, k.lastIndexOf('_'))))),
          null,
          1,
        ),
      );
    }
  }
}

export function registerDialtom(program: Command): void {
  const cmd = program
    .command('dialtom')
    .description('DialToM: item building, written inferences from models, pairwise trace judging, dataset statistics');
  registerWritten(cmd);
  cmd
    .command('build')
    .description(
      'items from dialogues: 150-200-word windows, six retrospective questions and one prospective question each, the easy set, counterfactual profiles and context-degradation variants',
    )
    .requiredOption(
      '--dialogues <file>',
      'JSON list of { id, domain, topic?, task_desc?, turns: ["speaker: text"] or [{ speaker, text }] }',
    )
    .requiredOption('--out <dir>', 'output folder (the released layout: run the dialtom suites with --data DIR)')
    .option(
      '--options <file>',
      'written options per window: { "<dialogue id>, <window>": { true, wrong, distractor_trajectories, summary } }',
    )
    .option('--model <spec>', 'write the options with a model instead')
    .option('--seed <s>', 'seed (option order, focus state, easy-set distractors)', intOption('--seed', 0), 0)
    .option('--db <path>', 'store, a SQLite file or postgres:// URL (call cache, with --model)', DEFAULT_DB)
    .option('--api-key-env <name>', 'environment variable with the key for an openai-compatible model')
    .option('--json', 'print JSON: { out, dialogues, retrospective, prospective, prospectiveEasy, counterfactualProfiles, degraded }')
    .action(
      async (f: {
        dialogues: string;
        out: string;
        options?: string;
        model?: string;
        seed: number;
        db: string;
        apiKeyEnv?: string;
        json?: boolean;
      }) => {
        if (!!f.options === !!f.model) throw new ConfigError('give exactly one of --options FILE and --model SPEC');
        const dialogues = readDialogues(readJson(f.dialogues), f.dialogues);
        let built: BuiltItems;
        if (f.options) built = await buildDialtomItems(dialogues, fileWriter(readJson(f.options), f.options), { seed: f.seed });
        else {
          const store = await openStore(f.db);
          const w = modelDialtomWriter({ store, model: f.model!, apiKeyEnv: f.apiKeyEnv });
          try {
            built = await buildDialtomItems(dialogues, w.writer, { seed: f.seed });
          } finally {
            await w.close();
            await store.close();
          }
        }
        writeLayout(f.out, built);
        for (const [mode, rows] of Object.entries(built.degraded))
          writeLayout(join(f.out, 'degraded', mode), {
            retrospective: built.retrospective,
            prospective: rows,
            prospectiveEasy: built.prospectiveEasy,
          });
        printResult(
          f.json,
          {
            out: f.out,
            dialogues: dialogues.length,
            retrospective: built.retrospective.length,
            prospective: built.prospective.length,
            prospectiveEasy: built.prospectiveEasy.length,
            counterfactualProfiles: Object.keys(built.counterfactual).length,
            degraded: Object.keys(built.degraded),
          },
          `built from ${dialogues.length} dialogue(s): ${built.retrospective.length / 6} windows, ${built.retrospective.length} retrospective questions, ${built.prospective.length} prospective, ${built.prospectiveEasy.length} easy, ${Object.keys(built.counterfactual).length} counterfactual profiles; degradation variants in ${join(f.out, 'degraded')}/{states,summary+states,history+states}\n`,
        );
      },
    );
}

function registerWritten(cmd: Command): void {
  cmd
    .command('infer')
    .description(
      "the written task: each model writes a one-line mental-state inference per unit of the human reference set, by DialToM's written prompt; a CSV for analyze dialtom --references --inferences",
    )
    .requiredOption('--model <spec...>', 'models')
    .requiredOption('--out <file>', 'CSV model,dataset,mental_state,sub_id,inference')
    .option('--data <dir>', 'the DialToM data folder (holds written_inference.csv and combined_written_data.json)')
    .option('--references <file>', 'written_inference.csv (the units and their human references)')
    .option('--dialogues <file>', 'combined_written_data.json (the dialogue of each unit)')
    .option('--limit <n>', 'first N units', intOption('--limit', 1))
    .option('--concurrency <n>', 'concurrent calls per endpoint', intOption('--concurrency', 1), DEFAULT_CONCURRENCY)
    .option('--db <path>', 'store file (call cache: asking again costs nothing) (a SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--api-key-env <name>', 'environment variable with the key for openai-compatible models')
    .option('--json', 'print JSON: { out, inferences, models }')
    .action(
      async (f: {
        json?: boolean;
        model: string[];
        out: string;
        data?: string;
        references?: string;
        dialogues?: string;
        limit?: number;
        concurrency: number;
        db: string;
        apiKeyEnv?: string;
      }) => {
        const files = writtenFiles(f);
        const store = await openStore(f.db);
        try {
          const rows = await elicitInferences({
            store,
            models: f.model,
            references: parseWrittenInferences(readText(files.references), files.references),
            dialogues: parseWrittenDialogues(readJson(files.dialogues), files.dialogues),
            limit: f.limit,
            concurrency: f.concurrency,
            apiKeyEnv: f.apiKeyEnv,
          });
          writeFileSync(
            f.out,
            formatCsv(
              ['model', 'dataset', 'mental_state', 'sub_id', 'inference'],
              rows.map((r) => [r.model, r.dataset, r.state, r.subId, r.inference]),
            ),
          );
          printResult(
            f.json,
            { out: f.out, inferences: rows.length, models: f.model },
            `wrote ${rows.length} inference(s) from ${f.model.length} model(s) to ${f.out}`,
          );
        } finally {
          await store.close();
        }
      },
    );
  cmd
    .command('judge-traces')
    .description(
      "DialToM's pairwise trace-quality judge (Appendix K.5): two teachers' masked traces side by side, four dimensions 0-2, the judge not told which is which",
    )
    .requiredOption('--a <file>', 'traces of the first source: JSONL of { item_id, trace }')
    .requiredOption('--b <file>', 'traces of the second source')
    .requiredOption('--judge <spec...>', 'the judge panel')
    .option('--name-a <name>', 'name of the first source (default: its file name)')
    .option('--name-b <name>', 'name of the second source')
    .option('--suite <id>', 'the suite the item ids belong to', 'dialtom-prospective')
    .option('--data <dir>', 'data folder of the suite')
    .option('--rubric <file>', 'pairwise rubric', 'dialtom-trace-pair')
    .option('--seed <s>', 'seed of the order each pair is shown in', intOption('--seed', 0), 0)
    .option(
      '--traces-drop-last [n]',
      "also drop each trace's last sentence, or last N sentences (the DialToM paper drops 5)",
      intOption('--traces-drop-last', 0),
    )
    .option('--db <path>', 'store file (call cache) (a SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--api-key-env <name>', 'environment variable with the key for openai-compatible judges')
    .option('--json', 'print JSON')
    .action(
      async (f: {
        a: string;
        b: string;
        judge: string[];
        nameA?: string;
        nameB?: string;
        suite: string;
        data?: string;
        rubric: string;
        seed: number;
        tracesDropLast?: boolean | number;
        db: string;
        apiKeyEnv?: string;
        json?: boolean;
      }) => {
        const store = await openStore(f.db);
        try {
          const r = await judgeTracePairs({
            store,
            items: await dialtomItems(f.suite, f.data),
            traces: { a: readTraces(f.a), b: readTraces(f.b) },
            names: { a: f.nameA ?? basename(f.a), b: f.nameB ?? basename(f.b) },
            judges: f.judge,
            rubricPath: f.rubric,
            seed: f.seed,
            dropLast: f.tracesDropLast,
            apiKeyEnv: f.apiKeyEnv,
          });
          if (f.json) {
            process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
            return;
          }
          process.stdout.write(
            `${r.items} item(s) judged (${r.judgeFailures} judge failure(s)); a = ${r.names.a}, b = ${r.names.b}\n${formatTextTable(
              ['dimension', 'mean a', 'mean b', 'a higher', 'b higher', 'ties', 'p (sign test)'],
              r.dimensions.map((d) => [
                d.dimension,
                d.meanA.toFixed(2),
                d.meanB.toFixed(2),
                String(d.winsA),
                String(d.winsB),
                String(d.ties),
                d.pSign === null ? '-' : formatPValue(d.pSign),
              ]),
            )}\n`,
          );
        } finally {
          await store.close();
        }
      },
    );
  cmd
    .command('stats')
    .description(
      'descriptive statistics of a DialToM item set (Table 2): contexts, words and turns per context, words per turn, questions per task and attribute',
    )
    .option('--data <dir>', 'the data folder (the released layout, or what dialtom build wrote)')
    .option(
      '--windows <dir>',
      "the dialogue windows the items were built from instead (the authors' original_data: DOMAIN/*.json of id -> { ctx })",
    )
    .option('--json', 'print JSON')
    .action(async (f: { data?: string; windows?: string; json?: boolean }) => {
      if (f.data && f.windows) throw new ConfigError('give --data (an item set) or --windows (dialogue windows), not both');
      const s: Array<Omit<DialtomDomainStats, 'byAttribute' | 'retrospective' | 'prospective'> & Partial<DialtomDomainStats>> = f.windows
        ? [...readDialtomWindows(f.windows)].map(([domain, contexts]) => ({ domain, ...contextStats(contexts) }))
        : dialtomDatasetStats(await dialtomItems('dialtom-retrospective', f.data), await dialtomItems('dialtom-prospective', f.data));
      if (f.json) {
        process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
        return;
      }
      const attributes = [...new Set(s.flatMap((r) => Object.keys(r.byAttribute ?? {})))];
      const questions = (r: (typeof s)[number]) =>
        r.byAttribute
          ? [
              String(r.retrospective),
              String(r.prospective),
              ...attributes.map((a) => `${r.byAttribute![a]?.retrospective ?? 0}/${r.byAttribute![a]?.prospective ?? 0}`),
            ]
          : [];
      process.stdout.write(
        `${formatTextTable(
          [
            'domain',
            'contexts',
            'words/context',
            'turns/context',
            'utterances/context',
            'words/turn',
            ...(f.windows ? [] : ['retrospective', 'prospective', ...attributes.map((a) => `${a} (retro/pro)`)]),
          ],
          s.map((r) => [
            r.domain,
            String(r.contexts),
            r.wordsPerContext.toFixed(1),
            r.turnsPerContext.toFixed(2),
            r.utterancesPerContext.toFixed(2),
            r.wordsPerTurn.toFixed(1),
            ...questions(r),
          ]),
        )}\nA turn is an exchange of one utterance of each speaker (floor(utterances / 2) per context); words are the tokens of each "speaker: text" line, the label included: as the paper's Table 2 counts them.\n`,
      );
    });
}
