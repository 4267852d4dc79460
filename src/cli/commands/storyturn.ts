import type { Command } from 'commander';
import { ConfigError, formatTextTable, openStore, storedStories, storyTurnMetrics } from '../../index.js';

/**
 * `storyturn results --json` prints a list of `{ subject, mode: 'text-only'|'text+image', stories, questions,
 * byState: [{ state, k, n, rate, lower, upper }], bySetting, feedbackEffectiveness }` (each rate `{ k, n, rate, lower, upper }`).
 */
export function registerStoryTurn(program: Command): void {
  const cmd = program.command('storyturn').description('StoryTurn conversations (CoMMET)');
  cmd
    .command('results')
    .description('story-level and per-question accuracy, per mental state and setting, text-only vs text+image, feedback effectiveness (Wilson 95% intervals)')
    .requiredOption('--run-id <id...>', 'one or more runs (e.g. a text-only and a --images run)')
    .option('--db <path>', 'store file', 'mindscope.db')
    .option('--json', 'print JSON')
    .action((f: { runId: string[]; db: string; json?: boolean }) => {
      const store = openStore(f.db);
      try {
        const stories = f.runId.flatMap((id) => {
          if (!store.getRun(id)) throw new ConfigError(`no run "${id}" in ${f.db}`);
          return storedStories(store, id);
        });
        if (stories.length === 0) throw new ConfigError(`no StoryTurn conversations in run(s) ${f.runId.join(', ')}`);
        const m = storyTurnMetrics(stories);
        if (f.json) {
          process.stdout.write(`${JSON.stringify(m, null, 2)}\n`);
          return;
        }
        const pct = (r: { rate: number; lower: number; upper: number } | null) => (r ? `${(r.rate * 100).toFixed(1)} [${(r.lower * 100).toFixed(1)}, ${(r.upper * 100).toFixed(1)}]` : '-');
        process.stdout.write(`${formatTextTable(['subject', 'mode', 'stories right %', 'questions right %', 'feedback effective %'], m.map((x) => [x.subject, x.mode, pct(x.stories), pct(x.questions), pct(x.feedbackEffectiveness)]))}\n\n`);
        process.stdout.write(`${formatTextTable(['subject', 'mode', 'mental state', 'stories', 'right %'], m.flatMap((x) => x.byState.map((s) => [x.subject, x.mode, s.state, String(s.n), pct(s)])))}\n\n`);
        process.stdout.write(`${formatTextTable(['subject', 'mode', 'setting', 'stories', 'right %'], m.flatMap((x) => x.bySetting.map((s) => [x.subject, x.mode, s.setting, String(s.n), pct(s)])))}\n`);
      } finally {
        store.close();
      }
    });
}
