import type { Command } from 'commander';
import { DEFAULT_DB } from '../options.js';
import { importHumanAnswers, openStore } from '../../index.js';

/** `humans import`: human or expert answers enter a stored run as the subject human:NAME. */
export function registerHumans(program: Command): void {
  program
    .command('humans')
    .description('human and expert baselines as subjects')
    .command('import')
    .description(
      "per-item answers of human participants into a stored run as the subject human:NAME (one replicate per participant), read and scored by the suite's own protocol, so every analysis treats them like a model",
    )
    .requiredOption('--run-id <id>', 'the run holding the items (run the suites there first)')
    .requiredOption('--name <name>', 'the subject becomes human:NAME (e.g. lay, expert)')
    .requiredOption('--answers <file>', 'CSV, JSONL or JSON rows: suite,item,answer[,participant][,turn] (turn: StoryTurn, 1-based)')
    .option('--db <path>', 'store file (a SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--json', 'print JSON')
    .action(async (f: { runId: string; name: string; answers: string; db: string; json?: boolean }) => {
      const store = await openStore(f.db);
      try {
        const r = await importHumanAnswers({ store, runId: f.runId, name: f.name, file: f.answers });
        if (f.json) process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
        else
          process.stdout.write(
            `${r.subject}: ${r.trials} trial(s) from ${r.participants.length} participant(s) (${r.participants.join(', ')}) into run ${r.runId}: ${Object.entries(
              r.bySuite,
            )
              .map(([s, n]) => `${s} ${n}`)
              .join(', ')}${r.blank ? `; ${r.blank} blank answer(s) left out` : ''}\n`,
          );
      } finally {
        await store.close();
      }
    });
}
