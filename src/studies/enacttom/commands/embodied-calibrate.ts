// `mindscope embodied calibrate FILE --model SPEC`: calibration by model teams (paper, Section
// 4.3). Each task of the file is played by each team twice, as two stored runs: secrets private,
// and every secret revealed to every agent. A task no team passes with every secret revealed is
// flagged as a bad task; --out keeps the rest.

import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { readJsonFile } from './read-json-file.js';
import { ConfigError, evaluate, openStore } from '../../../index.js';
import { modelCalibration, readEnactTomTasks } from '../index.js';
import { formatTextTable } from '../../../report/index.js';
import { DEFAULT_DB, intOption } from '../../../cli/toolkit.js';

/**
 * `embodied calibrate --json` prints `{ privateRunId, revealedRunId, teams: [{ subject, tasks, privateRate, revealedRate, failsRevealed }],
 * tasks: [{ taskId, flagged, teams: [{ subject, private: { passed, runs }, revealed: { passed, runs }, failsRevealed }] }], flagged, out?, flaggedFile? }`.
 */
export function registerEmbodiedCalibrate(cmd: Command): void {
  cmd
    .command('calibrate')
    .description(
      'calibration by model teams: each task played with secrets private and with every secret revealed to every agent (two runs); a task no team passes with every secret revealed is flagged as a bad task',
    )
    .argument('<file>', 'EnactToM task JSON (one task or a list)')
    .requiredOption(
      '--model <spec>',
      'a team (any model spec; team:A+B for mixed teams); repeat for several',
      (v: string, prev: string[] | undefined) => [...(prev ?? []), v],
    )
    .option('--trials <n>', 'episodes per task, team and condition', intOption('--trials', 1), 1)
    .option('--seed <s>', 'seed', intOption('--seed', 0), 0)
    .option('--concurrency <n>', 'concurrent calls per provider endpoint', intOption('--concurrency', 1), 4)
    .option('--db <path>', 'store (SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--api-key-env <name>', 'environment variable with the key for openai-compatible servers')
    .option('--out <file>', 'the tasks that pass calibration (JSON list, as given)')
    .option('--flagged <file>', 'the flagged tasks, with the passes of each team (JSON list)')
    .option('--json', 'print JSON')
    .action(
      async (
        file: string,
        f: {
          model?: string[];
          trials: number;
          seed: number;
          concurrency: number;
          db: string;
          apiKeyEnv?: string;
          out?: string;
          flagged?: string;
          json?: boolean;
        },
      ) => {
        const models = f.model ?? [];
        if (models.length === 0) throw new ConfigError('give at least one team with --model SPEC');
        const json = readJsonFile(file);
        readEnactTomTasks(json, file); // validates every task before anything runs
        const raw = (Array.isArray(json) ? json : [json]) as Array<Record<string, unknown>>;
        const store = await openStore(f.db);
        try {
          const spec = { suites: ['enacttom'], data: file, models, trials: f.trials, seed: f.seed };
          const ops = { store, concurrency: f.concurrency, apiKeyEnv: f.apiKeyEnv };
          const priv = await evaluate(spec, { ...ops, name: 'calibration: secrets private' });
          const rev = await evaluate(
            { ...spec, options: { episode: { secrets: 'revealed' } } },
            { ...ops, name: 'calibration: every secret revealed' },
          );
          const c = await modelCalibration(store, priv.runId, rev.runId);
          const flagged = new Set(c.flagged);
          if (f.out)
            writeFileSync(
              f.out,
              `${JSON.stringify(
                raw.filter((t) => !flagged.has(String(t.task_id))),
                null,
                2,
              )}\n`,
            );
          if (f.flagged)
            writeFileSync(
              f.flagged,
              `${JSON.stringify(
                c.tasks.filter((t) => t.flagged),
                null,
                2,
              )}\n`,
            );
          if (f.json) {
            process.stdout.write(
              `${JSON.stringify({ ...c, ...(f.out ? { out: f.out } : {}), ...(f.flagged ? { flaggedFile: f.flagged } : {}) }, null, 2)}\n`,
            );
            return;
          }
          const pass = (x: { passed: number; runs: number }) => (x.runs ? `${x.passed}/${x.runs}` : '-');
          const pct = (x: number) => (Number.isNaN(x) ? '-' : (x * 100).toFixed(1));
          process.stdout.write(
            `runs: ${c.privateRunId} (secrets private), ${c.revealedRunId} (every secret revealed)\n\n${formatTextTable(
              ['task', 'team', 'private', 'revealed', 'verdict'],
              c.tasks.flatMap((t) =>
                t.teams.map((x) => [
                  t.taskId,
                  x.subject,
                  pass(x.private),
                  pass(x.revealed),
                  t.flagged ? 'flagged: fails even with every secret revealed' : x.failsRevealed ? 'team fails revealed' : 'ok',
                ]),
              ),
            )}\n\n${formatTextTable(
              ['team', 'tasks', 'private %', 'revealed %', 'fails revealed'],
              c.teams.map((x) => [x.subject, String(x.tasks), pct(x.privateRate), pct(x.revealedRate), String(x.failsRevealed)]),
            )}\n\n${c.flagged.length} of ${c.tasks.length} task(s) flagged${c.flagged.length ? `: ${c.flagged.join(', ')}` : ''}${f.out ? `\nwrote ${f.out}` : ''}${f.flagged ? `\nwrote ${f.flagged}` : ''}\n`,
          );
        } finally {
          await store.close();
        }
      },
    );
}
