import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { ConfigError, openStore } from '../../../index.js';
import { readText } from '../../../core/index.js';
import {
  judgeHumanAgreement,
  parseHumanLabels,
  readStoryTurns,
  saveStoryTurns,
  storedStories,
  storyFileFormat,
  storyJudgeScorer,
  storyTurnDatasetStats,
  storyTurnMetrics,
  writeStoryTurns,
} from '../index.js';
import { formatTextTable } from '../../../report/index.js';
import { DEFAULT_DB, intOption, printResult } from '../../../cli/toolkit.js';
import { registerIllustrate } from './illustrate-command.js';
import { agreementLine, registerReview } from './review-commands.js';

/**
 * `storyturn results --json` prints a list of `{ subject, scorer, mode: 'text-only'|'text+image', stories, questions,
 * byState: [{ state, k, n, items, rate, lower, upper }], byCategory, byTask, bySetting, byStateSetting: [{ state, setting, ... }],
 * byTurn: [{ turn, ... }], whyQuestions, otherQuestions, finalWhy: { stories, beforeWhy, why } | null,
 * feedbackEffectiveness: { correctness, answerDependent, unconditional, all } }` (each a rate or null; `correctness`
 * is CoMMET's Table 3: wrong answers followed by correctness-based feedback)
 * (each rate `{ k, n, items, rate, lower, upper }`: k right of n trials, stories or questions, from `items` stories;
 * the Wilson interval uses the stories' effective number of trials, as a story's questions and replicates are not independent).
 */
export function registerStoryTurn(program: Command): void {
  const cmd = program.command('storyturn').description('StoryTurn conversations (CoMMET)');
  cmd
    .command('generate')
    .description("model-written StoryTurns by CoMMET's one-shot method, validated and saved with status generated")
    .requiredOption('--example <file>', 'a StoryTurn file; its first story is the format reference')
    .requiredOption('--aspect <name>', 'what the new stories test, e.g. "second-order belief"')
    .requiredOption('--model <spec>', 'the writing model')
    .requiredOption('--out <file>', 'StoryTurn file to add the new stories to (.json: a JSON list; .jsonl: one story a line)')
    .option('--n <n>', 'stories to write', intOption('--n', 1), 5)
    .option('--db <path>', 'store, a SQLite file or postgres:// URL (call cache)', DEFAULT_DB)
    .option('--api-key-env <name>', 'environment variable with the key for an openai-compatible model')
    .option('--json', 'print JSON: { out, written: [id], rejected: [{ id, error }] }')
    .action(
      async (f: {
        example: string;
        aspect: string;
        model: string;
        out: string;
        n: number;
        db: string;
        apiKeyEnv?: string;
        json?: boolean;
      }) => {
        storyFileFormat(f.out);
        const [example] = await readStoryTurns(f.example);
        if (!example) throw new ConfigError(`${f.example} holds no StoryTurn`);
        const store = await openStore(f.db);
        try {
          const { stories, failures } = await writeStoryTurns({
            store,
            example,
            aspect: f.aspect,
            model: f.model,
            n: f.n,
            apiKeyEnv: f.apiKeyEnv,
          });
          const existing = existsSync(f.out) ? await readStoryTurns(f.out) : [];
          const taken = new Set(existing.map((s) => s.id));
          const clash = stories.filter((s) => taken.has(s.id)).map((s) => s.id);
          if (clash.length)
            throw new ConfigError(`${f.out} holds StoryTurn(s) ${clash.join(', ')} already: give another --aspect or --out`);
          saveStoryTurns(f.out, [...existing, ...stories]);
          printResult(
            f.json,
            { out: f.out, written: stories.map((s) => s.id), rejected: failures },
            `wrote ${stories.length} generated StoryTurn(s) to ${f.out}; ${failures.length} reply(ies) rejected\n${failures.map((x) => `  ${x.id}: ${x.error}\n`).join('')}`,
          );
        } finally {
          await store.close();
        }
      },
    );
  registerReview(cmd);
  registerIllustrate(cmd);
  cmd
    .command('results')
    .description(
      'story-level and per-question accuracy, per mental state and setting, text-only vs text+image, feedback effectiveness (correctness-based as CoMMET Table 3, and answer-dependent; Wilson 95% intervals over stories)',
    )
    .requiredOption('--run-id <id...>', 'one or more runs (e.g. a text-only and a --images run)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option(
      '--judge <rubric>',
      "read open turns from this rubric's judge panel (default: the run's only rubric; exact match when it has none)",
    )
    .option('--json', 'print JSON')
    .action(async (f: { runId: string[]; db: string; judge?: string; json?: boolean }) => {
      const store = await openStore(f.db);
      try {
        const stories = [];
        for (const id of f.runId) {
          if (!(await store.getRun(id))) throw new ConfigError(`no run "${id}" in ${f.db}`);
          stories.push(...(await storedStories(store, id, await storyJudgeScorer(store, id, f.judge))));
        }
        if (stories.length === 0) throw new ConfigError(`no StoryTurn conversations in run(s) ${f.runId.join(', ')}`);
        const m = storyTurnMetrics(stories);
        if (f.json) {
          process.stdout.write(`${JSON.stringify(m, null, 2)}\n`);
          return;
        }
        const pct = (r: { rate: number; lower: number; upper: number } | null) =>
          r ? `${(r.rate * 100).toFixed(1)} [${(r.lower * 100).toFixed(1)}, ${(r.upper * 100).toFixed(1)}]` : '-';
        const w = (title: string, head: string[], rows: string[][]) =>
          process.stdout.write(`${title ? `${title}\n` : ''}${formatTextTable(head, rows)}\n\n`);
        w(
          '',
          ['subject', 'mode', 'scored by', 'stories right %', 'questions right %'],
          m.map((x) => [x.subject, x.mode, x.scorer, pct(x.stories), pct(x.questions)]),
        );
        const n = (r: { n: number } | null) => String(r?.n ?? 0);
        w(
          'feedback effectiveness: of the wrong answers followed by feedback, the share whose next answer is right',
          [
            'subject',
            'mode',
            'correctness-based (Table 3) %',
            'cases',
            'answer-dependent %',
            'cases',
            ...(m.some((x) => x.feedbackEffectiveness.unconditional) ? ['plain feedback %', 'cases'] : []),
            'all feedback %',
            'cases',
          ],
          m.map((x) => {
            const e = x.feedbackEffectiveness;
            return [
              x.subject,
              x.mode,
              pct(e.correctness),
              n(e.correctness),
              pct(e.answerDependent),
              n(e.answerDependent),
              ...(m.some((y) => y.feedbackEffectiveness.unconditional) ? [pct(e.unconditional), n(e.unconditional)] : []),
              pct(e.all),
              n(e.all),
            ];
          }),
        );
        for (const [title, key, label] of [
          ['story accuracy per mental state', 'byState', 'state'],
          ['per CoMMET category (NLC, NLCE, MBK; a state where the story has none)', 'byCategory', 'category'],
          ['per booklet task', 'byTask', 'task'],
          ['per setting', 'bySetting', 'setting'],
        ] as const)
          w(
            title,
            ['subject', 'mode', label, 'stories', 'right %'],
            m.flatMap((x) =>
              (x[key] as unknown as Array<Record<string, unknown> & { n: number; rate: number; lower: number; upper: number }>).map((s) => [
                x.subject,
                x.mode,
                String(s[label]),
                String(s.n),
                pct(s),
              ]),
            ),
          );
        w(
          'mental state x setting (story accuracy)',
          ['subject', 'mode', 'state', 'setting', 'stories', 'right %'],
          m.flatMap((x) => x.byStateSetting.map((s) => [x.subject, x.mode, s.state, s.setting, String(s.n), pct(s)])),
        );
        w(
          'questions per turn position, and "why" questions apart',
          [
            'subject',
            'mode',
            ...Array.from({ length: Math.max(...m.map((x) => x.byTurn.length)) }, (_, i) => `turn ${i + 1} %`),
            'why %',
            'other %',
          ],
          m.map((x) => [
            x.subject,
            x.mode,
            ...Array.from({ length: Math.max(...m.map((y) => y.byTurn.length)) }, (_, i) => (x.byTurn[i] ? pct(x.byTurn[i]!) : '-')),
            pct(x.whyQuestions),
            pct(x.otherQuestions),
          ]),
        );
        w(
          'stories ending in a "why" question: right up to it, and the final "why" itself',
          ['subject', 'mode', 'stories', 'right before the why %', 'final why right %'],
          m.map((x) => [
            x.subject,
            x.mode,
            String(x.finalWhy?.stories ?? 0),
            pct(x.finalWhy?.beforeWhy ?? null),
            pct(x.finalWhy?.why ?? null),
          ]),
        );
      } finally {
        await store.close();
      }
    });
  cmd
    .command('stats')
    .description(
      "a StoryTurn file's statistics (stories by status, setting, state, category and task; turns, questions and images per story), its review tally (rejections by error type) and the reviewers' agreement",
    )
    .argument('<file>', 'StoryTurn file (JSON, JSONL, CSV or Parquet)')
    .option('--json', 'print JSON')
    .action(async (file: string, f: { json?: boolean }) => {
      const s = storyTurnDatasetStats(await readStoryTurns(file));
      if (f.json) {
        process.stdout.write(`${JSON.stringify(s, null, 2)}\n`);
        return;
      }
      const line = (o: Record<string, number>) =>
        Object.entries(o)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ') || '-';
      const spread = (x: { total: number; mean: number; max: number }) => `${x.total} (mean ${x.mean.toFixed(2)} per story, max ${x.max})`;
      process.stdout.write(
        `${[
          `${s.stories} StoryTurns: ${line(s.byStatus)}`,
          `settings: ${line(s.bySetting)}`,
          `mental states: ${line(s.byState)}`,
          `categories: ${line(s.byCategory)}`,
          `tasks: ${line(s.byTask)}`,
          `turns: ${spread(s.turns)}`,
          `questions: ${spread(s.questions)}; "why" questions: ${s.whyQuestions}`,
          `images: ${spread(s.images)}`,
          `rejected stories: ${s.rejections.stories}; by error type: ${line(s.rejections.byType)}`,
          `review notes by error type: ${line(s.rejections.notesByType)}`,
          agreementLine(s.agreement),
        ].join('\n')}\n`,
      );
    });
  cmd
    .command('agreement')
    .description("the judge panel's verdicts against human labels: Cohen's kappa and Gwet's AC1, per rater and between raters")
    .requiredOption('--run-id <id>', 'a judged StoryTurn run (mindscope score --rubric ... --judge ...)')
    .requiredOption(
      '--labels <file>',
      'CSV subject,item,turn,label[,rater][,replicate] (label 1/0 or correct/incorrect; turn blank = the story)',
    )
    .option('--judge <rubric>', "the rubric whose verdicts to compare (default: the run's only rubric)")
    .option('--db <path>', 'store file (a SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--json', 'print JSON')
    .action(async (f: { runId: string; labels: string; judge?: string; db: string; json?: boolean }) => {
      const store = await openStore(f.db);
      try {
        if (!(await store.getRun(f.runId))) throw new ConfigError(`no run "${f.runId}" in ${f.db}`);
        const scorer = await storyJudgeScorer(store, f.runId, f.judge);
        if (!scorer) throw new ConfigError(`run ${f.runId} was not scored by a judge panel (mindscope score --rubric ... --judge ...)`);
        const a = await judgeHumanAgreement(store, f.runId, scorer, parseHumanLabels(readText(f.labels), f.labels));
        if (f.json) {
          process.stdout.write(`${JSON.stringify(a, null, 2)}\n`);
          return;
        }
        const row = (who: string, x: { n: number; percentAgreement: number; kappa: number; ac1: number }) => [
          who,
          String(x.n),
          (x.percentAgreement * 100).toFixed(1),
          Number.isNaN(x.kappa) ? '-' : x.kappa.toFixed(3),
          x.ac1.toFixed(3),
        ];
        process.stdout.write(
          `${formatTextTable(
            ['compared', 'answers', 'agreement %', "Cohen's kappa", "Gwet's AC1"],
            [
              ...(a.judge
                ? [row(`${a.scorer} vs all raters`, a.judge), ...a.judge.byRater.map((r) => row(`${a.scorer} vs ${r.rater}`, r))]
                : []),
              ...(a.exact ? [row('exact match (closed turns) vs raters', a.exact)] : []),
            ],
          )}\n${a.betweenRaters ? `between raters: ${a.betweenRaters.answers} answers labelled twice or more, AC1 ${a.betweenRaters.ac1.toFixed(3)} (agreement ${(a.betweenRaters.percentAgreement * 100).toFixed(1)}%)\n` : ''}${a.unmatched.length ? `${a.unmatched.length} label(s) match no judged answer (lines ${a.unmatched.slice(0, 10).join(', ')}${a.unmatched.length > 10 ? ', ...' : ''})\n` : ''}`,
        );
      } finally {
        await store.close();
      }
    });
}
