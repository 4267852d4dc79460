import type { Command } from 'commander';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, InputError, openStore, resolveRunId } from '../../../index.js';
import {
  buildPool,
  difficultySeeds,
  evolutionPool,
  formatDiversity,
  generateTasks,
  readEnactTomTasks,
  splitResults,
  taskDiversity,
  type PoolManifest,
  type RateSummary,
  type SeedTask,
} from '../index.js';
import { formatTextTable } from '../../../report/index.js';
import { DEFAULT_DB, intOption, numberOption, printResult } from '../../../cli/toolkit.js';
import { readJsonFile } from './read-json-file.js';

const pct = (x: number | null | undefined) => (x === null || x === undefined || Number.isNaN(x) ? '-' : (100 * x).toFixed(1));

/** Avg ± SE [95% CI] in percent. */
const avgCell = (r: RateSummary) => `${pct(r.avg)} ± ${pct(r.se)} [${pct(r.lower)}, ${pct(r.upper)}]`;

/**
 * `embodied diversity --json` prints `{ tasks, agents, distinctGoalShapes, shapes: [{ shape, tasks }], parameters: { NAME: { VALUE: COUNT } }, constant, agentsWithoutSecret }`;
 * `embodied pool --json` prints the manifest it writes (`{ n, seed, rho, labels, seeds, splits, tasks: [{ id, split, seedTask, seedFailed, category, family, difficulty }] }`) with `out`;
 * `embodied splits --json` prints `{ runId, k, splits, rows: [{ subject, scope, splits: { SPLIT: { tasks, runs, functional, literal } } }], best, unassigned }`.
 */
export function registerEmbodiedPool(cmd: Command): void {
  cmd
    .command('diversity')
    .description(
      'how varied generated tasks are: per parameter its distribution (objects, agents, actions and secrets per agent, knowledge chains, goal parts, families ...) and the distinct goal shapes (the goal with entities as variables, and/or arguments in canonical order)',
    )
    .option('--n <n>', 'tasks to generate', intOption('--n', 1), 500)
    .option('--seed <s>', 'seed', intOption('--seed', 0), 0)
    .option('--file <file>', 'report on the tasks of this EnactToM task file instead of generating')
    .option('--top <n>', 'most common goal shapes to list', intOption('--top', 0), 10)
    .option('--json', 'print JSON')
    .action((f: { n: number; seed: number; file?: string; top: number; json?: boolean }) => {
      const tasks = f.file ? readEnactTomTasks(readJsonFile(f.file), f.file) : generateTasks({ n: f.n, seed: f.seed }).map((g) => g.task);
      const r = taskDiversity(tasks);
      process.stdout.write(f.json ? `${JSON.stringify(r, null, 2)}\n` : `${formatDiversity(r, f.top)}\n`);
    });

  cmd
    .command('pool')
    .description(
      "a task pool with the paper's standard and hard splits, half each: a split's tasks are generated from seed tasks of which a share rho failed (0.8 standard, 0.9 hard); writes tasks.json, standard.json, hard.json and manifest.json (each task's split, seed and difficulty measures)",
    )
    .requiredOption('--out <dir>', 'folder to write the pool to')
    .option('--n <n>', 'tasks in the pool', intOption('--n', 2), 300)
    .option('--seed <s>', 'seed', intOption('--seed', 0), 0)
    .option(
      '--from-run <id>',
      'seed tasks: the generated tasks of this stored run, failed when their failure ratio across the evaluated models reaches --failed-at (default: a base round of --n generated tasks, the harder half by difficulty rank failed)',
    )
    .option('--db <path>', 'with --from-run: store (SQLite file or postgres:// URL)', DEFAULT_DB)
    .option(
      '--failed-at <r>',
      'with --from-run: failure ratio at which a seed task counts as failed',
      numberOption('--failed-at', 0, 1),
      0.5,
    )
    .option('--json', 'print the manifest as JSON')
    .action(async (f: { out: string; n: number; seed: number; fromRun?: string; db: string; failedAt: number; json?: boolean }) => {
      let seeds: SeedTask[];
      let labels: string;
      if (f.fromRun !== undefined) {
        const store = await openStore(f.db);
        try {
          const runId = await resolveRunId(store, f.fromRun);
          const pool = await evolutionPool(store, runId, f.failedAt);
          seeds = pool.ratios.flatMap((r) => (r.settings ? [{ id: r.taskId, settings: r.settings, failed: r.ratio >= f.failedAt }] : []));
          if (seeds.length === 0) throw new ConfigError(`run ${runId} has no episodes of generated tasks to seed a pool from`);
          labels = `run ${runId}: failed when the failure ratio across ${pool.judged.join(', ')} is >= ${f.failedAt}`;
        } finally {
          await store.close();
        }
      } else {
        seeds = difficultySeeds(f.n, f.seed);
        labels = `difficulty rank: the harder half of a base round of ${f.n} generated tasks (seed ${f.seed}) failed`;
      }
      const { tasks, manifest } = buildPool({ n: f.n, seed: f.seed, seeds, labels });
      mkdirSync(f.out, { recursive: true });
      const write = (name: string, x: unknown) => writeFileSync(join(f.out, name), `${JSON.stringify(x, null, 2)}\n`);
      write(
        'tasks.json',
        tasks.map((g) => g.json),
      );
      for (const split of ['standard', 'hard'] as const)
        write(
          `${split}.json`,
          tasks.filter((g) => (g.json.generator as { split?: string }).split === split).map((g) => g.json),
        );
      write('manifest.json', manifest);
      printResult(f.json, { out: f.out, ...manifest }, formatPool(manifest, f.out));
    });

  cmd
    .command('splits')
    .description(
      "the paper's Table 2 from a stored run of a pool: per subject and scope (cooperative, mixed, overall), the standard and hard splits side by side, functional and literal Avg ± SE [95% CI over tasks], Pass@k and Pass^k",
    )
    .option('--run-id <id>', 'run (default: the newest)')
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--k <k>', 'k of Pass@k and Pass^k', intOption('--k', 1), 3)
    .option('--manifest <file>', "a pool's manifest.json, for tasks whose split is not in their settings")
    .option('--json', 'print JSON')
    .action(async (f: { runId?: string; db: string; k: number; manifest?: string; json?: boolean }) => {
      let manifest: Map<string, string> | undefined;
      if (f.manifest) {
        const m = readJsonFile(f.manifest) as Partial<PoolManifest>;
        if (!Array.isArray(m?.tasks)) throw new InputError('expected a pool manifest (with "tasks")', f.manifest);
        manifest = new Map(m.tasks.map((t) => [String(t.id), String(t.split)]));
      }
      const store = await openStore(f.db);
      try {
        const runId = await resolveRunId(store, f.runId);
        const r = await splitResults(store, runId, f.k, manifest);
        if (r.splits.length === 0)
          throw new ConfigError(
            `run ${runId} has no episodes of tasks with a split (run a pool made by "embodied pool", or give --manifest)`,
          );
        if (f.json) {
          process.stdout.write(`${JSON.stringify(r, null, 2)}\n`);
          return;
        }
        const header = ['subject', 'scope'];
        for (const s of r.splits) header.push(`${s} func Avg`, `Pass@${r.k}`, `Pass^${r.k}`, `${s} lit Avg`, `Pass@${r.k}`, `Pass^${r.k}`);
        const rows = r.rows.map((row) => [
          row.subject,
          row.scope,
          ...r.splits.flatMap((s) => {
            const c = row.splits[s];
            if (!c) return ['-', '-', '-', '-', '-', '-'];
            const mark = (family: 'functional' | 'literal') =>
              row.scope === 'overall' && r.best[s]![family].includes(row.subject) ? ' *' : '';
            return [
              avgCell(c.functional),
              pct(c.functional.passAtK),
              `${pct(c.functional.passHatK)}${mark('functional')}`,
              avgCell(c.literal),
              pct(c.literal.passAtK),
              `${pct(c.literal.passHatK)}${mark('literal')}`,
            ];
          }),
        ]);
        const tasks = r.splits.map((s) => {
          const overall = r.rows.filter((x) => x.scope === 'overall' && x.splits[s]);
          return `${s} ${Math.max(0, ...overall.map((x) => x.splits[s]!.tasks))} task(s)`;
        });
        process.stdout.write(
          `run ${runId}: ${tasks.join(', ')}; % (Avg ± binomial SE over runs [95% CI over tasks]; Pass@${r.k}; Pass^${r.k}); * best overall Pass^${r.k} of the split${r.unassigned ? `; ${r.unassigned} episode(s) of tasks without a split left out` : ''}\n\n${formatTextTable(header, rows)}\n`,
        );
      } finally {
        await store.close();
      }
    });
}

/** The pool command's summary: the splits with their seeds and mean difficulty. */
function formatPool(m: PoolManifest, out: string): string {
  const f1 = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '-' : x.toFixed(2));
  const rows = (['standard', 'hard'] as const).map((s) => {
    const x = m.splits[s];
    return [
      s,
      String(x.tasks),
      String(m.rho[s]),
      String(x.fromFailed),
      String(x.fromPassed),
      f1(x.mean.kDepth),
      f1(x.mean.agents),
      f1(x.mean.objects),
      f1(x.mean.planRounds),
      f1(x.mean.planMessages),
      f1(x.mean.rank),
    ];
  });
  return [
    `wrote ${m.tasks.length} verified task(s) to ${out} (tasks.json, standard.json, hard.json, manifest.json)`,
    `seed tasks: ${m.seeds.tasks} (${m.seeds.failed} failed, ${m.seeds.passed} passed); labels: ${m.labels}`,
    formatTextTable(
      [
        'split',
        'tasks',
        'rho',
        'from failed',
        'from passed',
        'K-depth',
        'agents',
        'objects',
        'plan rounds',
        'plan messages',
        'difficulty rank',
      ],
      rows,
    ),
  ].join('\n');
}
