import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { ConfigError, openStore, resolveRunId } from '../../../index.js';
import { evolveTasks, formatPoolComposition, poolComposition, evolutionPool, evolutionRounds, evolutionRoundsSpec } from '../index.js';
import { formatTextTable, renderSvg } from '../../../report/index.js';
import { DEFAULT_DB, intOption, numberOption, printResult } from '../../../cli/toolkit.js';
import { registerEmbodiedAuthor } from './embodied-author.js';
import { registerEmbodiedCalibrate } from './embodied-calibrate.js';

/**
 * `embodied evolve --json` prints `{ runId, rho, failedAt, judged, fromFailed, failedShare, ratios: [{ taskId, ratio, subjects }], rounds: [{ round, pool, failed? }] }`;
 * `embodied rounds --json` prints `[{ round, runId, tasks, subjects: [{ subject, functional, literal, runs }] }]`.
 */
export function registerEmbodiedAuthoring(cmd: Command): void {
  registerEmbodiedAuthor(cmd);
  registerEmbodiedCalibrate(cmd);
  cmd
    .command('evolve')
    .description(
      "the next round of an evolving pool: a share rho of its tasks seeded from tasks a stored run's evaluated models failed, the rest from tasks they passed; prints each round's pool statistics",
    )
    .requiredOption('--out <file>', 'the new round (EnactToM JSON list)')
    .option('--from-run <id>', 'the evaluated round (default: the newest run)')
    .option('--db <path>', 'store (SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--n <n>', 'tasks in the new round', intOption('--n', 1), 10)
    .option('--rho <r>', 'share of the new tasks seeded from failed tasks', numberOption('--rho'), 0.8)
    .option('--split <s>', 'standard (rho 0.8) or hard (rho 0.9), as the paper')
    .option(
      '--failed-at <r>',
      "a task counts as failed when the models' mean share of failed episodes reaches this",
      numberOption('--failed-at'),
      0.5,
    )
    .option('--seed <s>', 'seed', intOption('--seed', 0), 0)
    .option('--json', 'print JSON')
    .action(
      async (f: {
        out: string;
        fromRun?: string;
        db: string;
        n: number;
        rho: number;
        split?: string;
        failedAt: number;
        seed: number;
        json?: boolean;
      }) => {
        if (f.split !== undefined && f.split !== 'standard' && f.split !== 'hard')
          throw new ConfigError('--split must be standard or hard');
        const rho = f.split ? (f.split === 'hard' ? 0.9 : 0.8) : f.rho;
        if (!(rho >= 0 && rho <= 1)) throw new ConfigError('--rho must lie in [0, 1]');
        if (!(f.failedAt >= 0 && f.failedAt <= 1)) throw new ConfigError('--failed-at must lie in [0, 1]');
        const store = await openStore(f.db);
        try {
          const runId = await resolveRunId(store, f.fromRun);
          const pool = await evolutionPool(store, runId, f.failedAt);
          if (pool.failed.length + pool.passed.length === 0)
            throw new ConfigError(`run ${runId} has no episodes of generated tasks to evolve from`);
          const next = evolveTasks(pool, f.n, f.seed, rho);
          writeFileSync(
            f.out,
            `${JSON.stringify(
              next.tasks.map((t) => t.json),
              null,
              2,
            )}\n`,
          );
          const evaluatedTasks = pool.ratios.flatMap((r) => (r.task ? [r.task] : []));
          const failedTasks = pool.ratios.flatMap((r) => (r.task && r.settings && r.ratio >= f.failedAt ? [r.task] : []));
          const rounds = [
            { round: 0, runId, pool: poolComposition(evaluatedTasks), failed: poolComposition(failedTasks) },
            { round: 1, file: f.out, pool: poolComposition(next.tasks.map((t) => t.task)) },
          ];
          const ratios = pool.ratios.map((r) => ({ taskId: r.taskId, ratio: r.ratio, subjects: r.subjects }));
          if (f.json) {
            process.stdout.write(
              `${JSON.stringify({ runId, rho, failedAt: f.failedAt, judged: pool.judged, fromFailed: next.fromFailed, failedShare: next.failedShare, ratios, rounds }, null, 2)}\n`,
            );
            return;
          }
          process.stdout.write(
            `run ${runId}: failure ratio over ${pool.judged.join(', ')}; ${failedTasks.length} of ${evaluatedTasks.length} task(s) failed (ratio >= ${f.failedAt}); ${next.fromFailed} of ${f.n} new task(s) seeded from them (rho ${rho})\n\n`,
          );
          process.stdout.write(`round 0 (evaluated)\n${formatPoolComposition(rounds[0]!.pool)}\n\n`);
          process.stdout.write(`round 0, failed (failure ratio >= ${f.failedAt})\n${formatPoolComposition(rounds[0]!.failed!)}\n\n`);
          process.stdout.write(`round 1 (${f.out})\n${formatPoolComposition(rounds[1]!.pool)}\n`);
        } finally {
          await store.close();
        }
      },
    );

  cmd
    .command('rounds')
    .description(
      "evolution over rounds: tasks and each subject's functional and literal success per stored run, the runs taken as rounds in order",
    )
    .argument('<runs...>', 'run ids, round 0 first')
    .option('--db <path>', 'store (SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--chart <file>', 'write the functional-success-over-rounds figure as SVG')
    .option('--json', 'print JSON')
    .action(async (runs: string[], f: { db: string; chart?: string; json?: boolean }) => {
      const store = await openStore(f.db);
      try {
        for (const id of runs) await resolveRunId(store, id);
        const rounds = await evolutionRounds(store, runs);
        if (f.chart) writeFileSync(f.chart, await renderSvg(evolutionRoundsSpec(rounds)));
        const pct = (x: number) => (Number.isNaN(x) ? '-' : (x * 100).toFixed(1));
        printResult(
          f.json,
          rounds,
          formatTextTable(
            ['round', 'run', 'tasks', 'subject', 'runs', 'func Avg', 'lit Avg'],
            rounds.flatMap((r) =>
              r.subjects.map((s) => [
                String(r.round),
                r.runId,
                String(r.tasks),
                s.subject,
                String(s.runs),
                pct(s.functional),
                pct(s.literal),
              ]),
            ),
          ) + (f.chart ? `\nwrote ${f.chart}` : ''),
        );
      } finally {
        await store.close();
      }
    });
}
