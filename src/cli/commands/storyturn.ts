import type { Command } from 'commander';
import { existsSync, writeFileSync } from 'node:fs';
import { ConfigError, openStore, writeStoryTurns } from '../../index.js';
import type { StoryTurnStory } from '../../protocols/index.js';
import { readStoryTurns, REVIEW_ERRORS, reviewStory, type ReviewError } from '../../suites/index.js';
import { storedStories, storyJudgeScorer, storyTurnMetrics } from '../../analysis/index.js';
import { formatTextTable } from '../../report/index.js';
import { DEFAULT_DB, intOption } from '../options.js';

function saveStories(file: string, stories: StoryTurnStory[]): void {
  writeFileSync(
    file,
    `${JSON.stringify(
      stories.map(({ state, ...s }) => ({ ...s, mental_state: state })),
      null,
      2,
    )}\n`,
  );
}

/**
 * `storyturn results --json` prints a list of `{ subject, mode: 'text-only'|'text+image', stories, questions,
 * byState: [{ state, k, n, rate, lower, upper }], bySetting, feedbackEffectiveness }` (each rate `{ k, n, rate, lower, upper }`).
 */
export function registerStoryTurn(program: Command): void {
  const cmd = program.command('storyturn').description('StoryTurn conversations (CoMMET)');
  cmd
    .command('generate')
    .description("model-written StoryTurns by CoMMET's one-shot method, validated and saved with status generated")
    .requiredOption('--example <file>', 'a StoryTurn file; its first story is the format reference')
    .requiredOption('--aspect <name>', 'what the new stories test, e.g. "second-order belief"')
    .requiredOption('--model <spec>', 'the writing model')
    .requiredOption('--out <file>', 'StoryTurn JSON file to add the new stories to')
    .option('--n <n>', 'stories to write', intOption('--n', 1), 5)
    .option('--db <path>', 'store, a SQLite file or postgres:// URL (call cache)', DEFAULT_DB)
    .option('--api-key-env <name>', 'environment variable with the key for an openai-compatible model')
    .action(async (f: { example: string; aspect: string; model: string; out: string; n: number; db: string; apiKeyEnv?: string }) => {
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
        saveStories(f.out, [...existing, ...stories]);
        process.stdout.write(
          `wrote ${stories.length} generated StoryTurn(s) to ${f.out}; ${failures.length} reply(ies) rejected\n${failures.map((x) => `  ${x.id}: ${x.error}\n`).join('')}`,
        );
      } finally {
        await store.close();
      }
    });
  cmd
    .command('review')
    .description(`approve a generated StoryTurn, or reject it with an error type (${Object.keys(REVIEW_ERRORS).join(', ')})`)
    .argument('<file>', 'StoryTurn JSON file')
    .requiredOption('--id <id>', 'story id')
    .option('--approve', 'mark approved (runs use approved stories)')
    .option('--reject <type>', 'mark rejected with this error type')
    .option('--note <text>', 'with --reject: what is wrong')
    .action(async (file: string, f: { id: string; approve?: boolean; reject?: string; note?: string }) => {
      if (!!f.approve === !!f.reject) throw new ConfigError('give exactly one of --approve and --reject TYPE');
      const stories = await readStoryTurns(file);
      const updated = reviewStory(stories, f.id, f.approve ? { approve: true } : { reject: f.reject as ReviewError, note: f.note });
      saveStories(file, updated);
      const s = updated.find((x) => x.id === f.id)!;
      process.stdout.write(`${f.id}: ${s.status}${s.review?.length ? ` (${s.review.join('; ')})` : ''}\n`);
    });
  cmd
    .command('results')
    .description(
      'story-level and per-question accuracy, per mental state and setting, text-only vs text+image, feedback effectiveness (Wilson 95% intervals)',
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
        process.stdout.write(
          `${formatTextTable(
            ['subject', 'mode', 'scored by', 'stories right %', 'questions right %', 'feedback effective %'],
            m.map((x) => [x.subject, x.mode, x.scorer, pct(x.stories), pct(x.questions), pct(x.feedbackEffectiveness)]),
          )}\n\n`,
        );
        process.stdout.write(
          `${formatTextTable(
            ['subject', 'mode', 'mental state', 'stories', 'right %'],
            m.flatMap((x) => x.byState.map((s) => [x.subject, x.mode, s.state, String(s.n), pct(s)])),
          )}\n\n`,
        );
        process.stdout.write(
          `${formatTextTable(
            ['subject', 'mode', 'setting', 'stories', 'right %'],
            m.flatMap((x) => x.bySetting.map((s) => [x.subject, x.mode, s.setting, String(s.n), pct(s)])),
          )}\n`,
        );
      } finally {
        await store.close();
      }
    });
}
