import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { ConfigError, InputError, openStore, resolveRunId } from '../../../index.js';
import {
  formatPoolComposition,
  generateTasks,
  poolComposition,
  TASK_FAMILIES,
  evolveTasks,
  type GenerateTaskOptions,
  type TaskFamily,
  evolutionPool,
  labelAgreement,
  labellingSample,
  storedEpisodes,
  taskOfItem,
  type LabellingRow,
  type EmbodiedTask,
  formatAction,
  readEnactTomTasks,
  verifyTask,
} from '../index.js';
import { formatTextTable } from '../../../report/index.js';
import { intOption, numberOption, DEFAULT_DB, printResult } from '../../../cli/toolkit.js';
import { readJsonFile } from './read-json-file.js';
import { registerEmbodiedAuthoring } from './embodied-authoring.js';
import { registerEmbodiedPool } from './embodied-pool.js';
import { registerEmbodiedResults } from './embodied-results.js';

/**
 * `embodied verify FILE --json` prints a list of
 * `{ task, kDepth, solvable, minToMLevel, calibrates, needsCommunication, trivialK, rounds, plan: [text], explanations,
 *   reasons: [{ kind, part?, text }], notes, nodes, ms }` (reasons, when unsolvable: world/unsolvable-reasons.ts);
 * `embodied results --json`: see embodied-results.ts.
 */
export function registerEmbodied(program: Command): void {
  const cmd = program.command('embodied').description('embodied multi-agent ToM tasks (EnactToM): verify, generate, results');

  cmd
    .command('verify')
    .description('solvability, minimal ToM level, calibration and need for communication of each task in a file')
    .argument('<file>', 'EnactToM task JSON (one task or a list)')
    .option('--json', 'print JSON')
    .action(async (file: string, flags: { json?: boolean }) => {
      const json = readJsonFile(file);
      const results = readEnactTomTasks(json, file).map((task) => {
        const v = verifyTask(task);
        return {
          ...v,
          plan: v.plan?.map((p) => `round ${p.round} ${p.agent}: ${formatAction(p.action)}`) ?? null,
          notes: task.source.notes,
        };
      });
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
        return;
      }
      for (const r of results) {
        process.stdout.write(
          `${[
            `task ${r.task}`,
            `  K-depth ${r.kDepth}; solvable ${r.solvable}${r.rounds !== null ? ` in ${r.rounds} round(s)` : ''}; minimal ToM level ${r.minToMLevel ?? 'none'}; calibrates ${r.calibrates}; needs communication ${r.needsCommunication}`,
            r.trivialK.length ? `  trivial K goals: ${r.trivialK.join(', ')}` : '',
            ...r.explanations.map((e) => `  why not: ${e}`),
            ...(r.plan ?? []).map((p) => `  ${p}`),
            ...r.notes.map((n) => `  note: ${n}`),
            '',
          ]
            .filter((x) => x !== '')
            .join('\n')}\n`,
        );
      }
    });

  cmd
    .command('generate')
    .description(
      'procedural tasks that the verifier solves at the requested depth, that calibrate, need communication and have no trivial K goal',
    )
    .requiredOption('--out <file>', 'task JSON file to write (a list)')
    .option('--n <n>', 'number of tasks', intOption('--n', 1), 10)
    .option('--depth <d>', 'K-depth 1 to 4 (default: cycle through them)', intOption('--depth', 1))
    .option('--category <c>', 'cooperative or mixed (default: both)')
    .option('--agents <n>', '2 to 6 (default: cycle)', intOption('--agents', 2))
    .option('--family <f>', `task family: ${TASK_FAMILIES.join(', ')} (default: cycle)`)
    .option('--seed <s>', 'seed', intOption('--seed', 0), 0)
    .option('--evolve', 'bias new tasks towards the settings subjects failed in a stored run')
    .option('--from-run <id>', 'with --evolve: the run (default: the newest)')
    .option('--db <path>', 'with --evolve: store (SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--rho <r>', 'with --evolve: share of the new tasks seeded from failed tasks', numberOption('--rho', 0, 1), 0.8)
    .option('--split <s>', 'with --evolve: standard (rho 0.8) or hard (rho 0.9), as the paper')
    .option(
      '--failed-at <r>',
      "with --evolve: a task counts as failed when the models' mean share of failed episodes reaches this",
      numberOption('--failed-at', 0, 1),
      0.5,
    )
    .option('--json', 'print JSON')
    .action(
      async (f: {
        json?: boolean;
        out: string;
        n: number;
        depth?: number;
        category?: string;
        agents?: number;
        family?: string;
        seed: number;
        evolve?: boolean;
        fromRun?: string;
        db: string;
        rho: number;
        failedAt: number;
        split?: string;
      }) => {
        if (f.split !== undefined && f.split !== 'standard' && f.split !== 'hard')
          throw new ConfigError('--split must be standard or hard');
        if (f.split) f.rho = f.split === 'hard' ? 0.9 : 0.8;
        if (f.depth !== undefined && ![1, 2, 3, 4].includes(f.depth)) throw new ConfigError('--depth must be 1, 2, 3 or 4');
        if (f.agents !== undefined && ![2, 3, 4, 5, 6].includes(f.agents)) throw new ConfigError('--agents must be 2 to 6');
        if (f.family !== undefined && !(TASK_FAMILIES as readonly string[]).includes(f.family))
          throw new ConfigError(`--family must be one of ${TASK_FAMILIES.join(', ')}`);
        if (f.category !== undefined && f.category !== 'cooperative' && f.category !== 'mixed')
          throw new ConfigError('--category must be cooperative or mixed');
        let tasks: ReturnType<typeof generateTasks>;
        let evolved = '';
        if (f.evolve) {
          const store = await openStore(f.db);
          try {
            const runId = await resolveRunId(store, f.fromRun);
            const pool = await evolutionPool(store, runId, f.failedAt);
            if (pool.failed.length + pool.passed.length === 0)
              throw new ConfigError(`run ${runId} has no episodes of generated tasks to evolve from`);
            const next = evolveTasks(pool, f.n, f.seed, f.rho);
            tasks = next.tasks;
            evolved = ` (evolved from run ${runId}: ${pool.failed.length} task(s) failed (failure ratio >= ${f.failedAt}), ${pool.passed.length} passed; ${next.fromFailed} of ${f.n} seeded from failed ones, rho ${f.rho})`;
          } finally {
            await store.close();
          }
        } else
          tasks = generateTasks({
            n: f.n,
            seed: f.seed,
            depth: f.depth as GenerateTaskOptions['depth'] | undefined,
            agents: f.agents as GenerateTaskOptions['agents'] | undefined,
            family: f.family as TaskFamily | undefined,
            category: f.category as 'cooperative' | 'mixed' | undefined,
          });
        writeFileSync(
          f.out,
          `${JSON.stringify(
            tasks.map((t) => t.json),
            null,
            2,
          )}\n`,
        );
        printResult(
          f.json,
          {
            out: f.out,
            tasks: tasks.length,
            ids: tasks.map((t) => (t.json as { task_id?: unknown }).task_id),
            composition: poolComposition(tasks.map((t) => t.task)),
          },
          `wrote ${tasks.length} verified task(s) to ${f.out}${evolved}\n${formatPoolComposition(poolComposition(tasks.map((t) => t.task)))}`,
        );
      },
    );

  registerEmbodiedAuthoring(cmd);
  registerEmbodiedPool(cmd);

  cmd
    .command('composition')
    .description(
      "a task pool's composition (the EnactToM paper's Table 3): tasks by category, depth, family, mechanic, agents, rooms, objects",
    )
    .argument('<file>', 'EnactToM task JSON (one task or a list)')
    .option('--json', 'print JSON')
    .action((file: string, flags: { json?: boolean }) => {
      const json = readJsonFile(file);
      const c = poolComposition(readEnactTomTasks(json, file));
      process.stdout.write(flags.json ? `${JSON.stringify(c, null, 2)}\n` : `${formatPoolComposition(c)}\n`);
    });

  cmd
    .command('label-export')
    .description('a seeded sample of failed episodes for labelling failure modes by hand (JSON rows; fill in each "labels")')
    .requiredOption('--out <file>', 'JSON file to write')
    .option('--run-id <id>', 'run (default: the newest)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--n <n>', 'episodes to sample', intOption('--n', 1), 40)
    .option('--seed <s>', 'seed', intOption('--seed', 0), 0)
    .option('--json', 'print JSON')
    .action(async (f: { out: string; runId?: string; db: string; n: number; seed: number; json?: boolean }) => {
      const store = await openStore(f.db);
      try {
        const runId = await resolveRunId(store, f.runId);
        const episodes = await storedEpisodes(store, runId);
        const tasks = new Map<string, EmbodiedTask | undefined>();
        for (const e of episodes) if (!tasks.has(e.itemHash)) tasks.set(e.itemHash, taskOfItem((await store.getItem(e.itemHash))!));
        const rows = labellingSample(episodes, (e) => tasks.get(e.itemHash), f.n, f.seed);
        writeFileSync(f.out, `${JSON.stringify(rows, null, 2)}\n`);
        printResult(
          f.json,
          { out: f.out, runId, episodes: rows.length },
          `wrote ${rows.length} failed episode(s) of run ${runId} to ${f.out}; fill in "labels" with any of the five modes`,
        );
      } finally {
        await store.close();
      }
    });

  cmd
    .command('label-agreement')
    .description("agreement (Cohen's kappa per mode) between hand labels in an exported file and the automatic failure modes")
    .argument('<file>', 'the file label-export wrote, with labels filled in')
    .option('--json', 'print JSON')
    .action((file: string, flags: { json?: boolean }) => {
      const rows = readJsonFile(file) as LabellingRow[];
      if (!Array.isArray(rows)) throw new InputError('expected the list of rows label-export wrote', file);
      const a = labelAgreement(rows, file);
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(a, null, 2)}\n`);
        return;
      }
      const f2 = (x: number) => (Number.isNaN(x) ? '-' : x.toFixed(2));
      process.stdout.write(
        `${a.labelled} labelled episode(s)\n${formatTextTable(
          ['mode', 'human', 'automatic', 'agreement', 'kappa'],
          Object.entries(a.byMode).map(([m, x]) => [m, String(x.human), String(x.automatic), f2(x.percentAgreement), f2(x.kappa)]),
        )}\n`,
      );
    });

  registerEmbodiedResults(cmd);
}
