import type { Command } from 'commander';
import { readFileSync, writeFileSync } from 'node:fs';
import { authorEmbodiedTasks, ConfigError, InputError, openStore, resolveRunId } from '../../../index.js';
import { checkJsonDepth } from '../../../core/index.js';
import {
  evolveTasks,
  formatPoolComposition,
  generateTasks,
  poolComposition,
  evolutionPool,
  evolutionRounds,
  readEnactTomTasks,
  evolutionRoundsSpec,
} from '../index.js';
import { formatTextTable, renderSvg } from '../../../report/index.js';
import { DEFAULT_DB, intOption, numberOption, printResult } from '../../../cli/toolkit.js';

/**
 * `embodied author --json` prints `{ drafts, revisions, accepted, acceptanceRate, acceptedFirstTry, firstTryRate, acceptedUnsolvable, ablations,
 * seeds, attempts: [{ draft, acceptedAt, versions: [{ revision, accepted, reasons }] }], rejected: [{ draft, revision, reasons }], out, rejectedFile }`
 * (`rejected` and the rejected file hold every failed version, also of drafts accepted after a revision);
 * `embodied evolve --json` prints `{ runId, rho, judged, fromFailed, ratios: [{ taskId, ratio, subjects }], rounds: [{ round, pool, failed? }] }`;
 * `embodied rounds --json` prints `[{ round, runId, tasks, subjects: [{ subject, functional, literal, runs }] }]`.
 */
export function registerEmbodiedAuthoring(cmd: Command): void {
  cmd
    .command('author')
    .description(
      'a model drafts tasks with in-context seed tasks; a draft is kept when the verifier solves it at its claimed depth, it calibrates and a two-judge council approves it (mean >= 0.65, no criterion < 0.5); a failed draft is revised with the feedback up to --revisions times',
    )
    .requiredOption('--model <spec>', 'the author model')
    .requiredOption('--judges <specs>', 'the council: comma-separated model specs (the paper uses two)')
    .option('--n <n>', 'drafts to ask for', intOption('--n', 1), 10)
    .option('--depth <d>', 'ToM depth 1 to 4 (default: cycle 1, 2, 3)', intOption('--depth', 1))
    .option(
      '--revisions <n>',
      'revisions per failed draft, the author shown its draft and the feedback (0: one try)',
      intOption('--revisions', 0),
      2,
    )
    .option('--seeds <file>', 'seed tasks (EnactToM JSON list; default: 6 generated ones)')
    .option('--seeds-from-run <id>', 'seed tasks generated with the settings of tasks whose failure ratio in this run is >= --rho')
    .option('--rho <r>', 'with --seeds-from-run: failure-ratio threshold', numberOption('--rho', 0, 1), 0.8)
    .option('--seed <s>', 'seed of the generated seed tasks', intOption('--seed', 0), 0)
    .option('--out <file>', 'accepted tasks (JSON list)', 'authored-tasks.json')
    .option('--rejected <file>', 'rejected drafts with their reasons (JSON list)', 'authored-rejected.json')
    .option('--no-calibration', 'ablation: skip the verifier solvability and calibration checks')
    .option('--no-icl-seeds', 'ablation: show the author no seed tasks')
    .option('--relaxed-secrets', 'ablation: skip the secret checks (and the council secret_quality criterion)')
    .option('--db <path>', 'store for the recorded calls (SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--json', 'print the summary as JSON')
    .action(
      async (f: {
        model: string;
        judges: string;
        n: number;
        depth?: number;
        revisions: number;
        seeds?: string;
        seedsFromRun?: string;
        rho: number;
        seed: number;
        out: string;
        rejected: string;
        calibration: boolean;
        iclSeeds: boolean;
        relaxedSecrets?: boolean;
        db: string;
        json?: boolean;
      }) => {
        if (f.depth !== undefined && ![1, 2, 3, 4].includes(f.depth)) throw new ConfigError('--depth must be 1, 2, 3 or 4');
        const judges = f.judges
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        if (judges.length === 0) throw new ConfigError('--judges needs at least one model spec');
        let seeds: Record<string, unknown>[];
        if (f.seeds) {
          let json: unknown;
          let text = '';
          try {
            text = readFileSync(f.seeds, 'utf8');
            json = JSON.parse(text);
          } catch (err) {
            throw new InputError(`cannot read as JSON: ${(err as Error).message}`, f.seeds);
          }
          checkJsonDepth(text, f.seeds);
          readEnactTomTasks(json, f.seeds); // validates every seed
          seeds = (Array.isArray(json) ? json : [json]) as Record<string, unknown>[];
        } else if (f.seedsFromRun) {
          const store = await openStore(f.db);
          try {
            const pool = await evolutionPool(store, await resolveRunId(store, f.seedsFromRun), f.rho);
            if (pool.failed.length + pool.passed.length === 0)
              throw new ConfigError(`run ${f.seedsFromRun} has no episodes of generated tasks to draw seeds from`);
            seeds = evolveTasks(pool, 6, f.seed).tasks.map((t) => t.json);
          } finally {
            await store.close();
          }
        } else seeds = generateTasks({ n: 6, seed: f.seed }).map((t) => t.json);
        const ablations = { noCalibration: !f.calibration, noSeeds: !f.iclSeeds, relaxedSecrets: Boolean(f.relaxedSecrets) };
        const store = await openStore(f.db);
        try {
          const r = await authorEmbodiedTasks({
            store,
            model: f.model,
            judges,
            n: f.n,
            seeds,
            depth: f.depth,
            revisions: f.revisions,
            ablations,
            onDraft: f.json
              ? undefined
              : (d) =>
                  process.stdout.write(
                    d.attempts
                      .map(
                        (a) =>
                          `draft ${d.index + 1}${a.revision ? ` revision ${a.revision}` : ''} (depth ${d.requestedDepth}): ${a.accepted ? 'accepted' : `rejected\n${a.reasons.map((x) => `  ${x}`).join('\n')}`}\n`,
                      )
                      .join(''),
                  ),
          });
          const accepted = r.drafts.filter((d) => d.accepted).map((d) => d.task);
          // Every failed version, also of drafts a later revision fixed.
          const rejected = r.drafts.flatMap((d) =>
            d.attempts
              .filter((a) => !a.accepted)
              .map((a) => ({ draft: d.index + 1, revision: a.revision, reasons: a.reasons, task: a.task, reply: a.reply })),
          );
          writeFileSync(f.out, `${JSON.stringify(accepted, null, 2)}\n`);
          writeFileSync(f.rejected, `${JSON.stringify(rejected, null, 2)}\n`);
          const summary = {
            drafts: r.drafts.length,
            revisions: r.revisions,
            accepted: r.accepted,
            acceptanceRate: r.acceptanceRate,
            acceptedFirstTry: r.acceptedFirstTry,
            firstTryRate: r.firstTryRate,
            acceptedUnsolvable: r.acceptedUnsolvable,
            ablations: r.ablations,
            seeds: seeds.map((x) => ({ taskId: x.task_id, generator: x.generator ?? null })),
            attempts: r.drafts.map((d) => ({
              draft: d.index + 1,
              acceptedAt: d.acceptedAt,
              versions: d.attempts.map((a) => ({ revision: a.revision, accepted: a.accepted, reasons: a.reasons })),
            })),
            rejected: rejected.map((x) => ({ draft: x.draft, revision: x.revision, reasons: x.reasons })),
            out: f.out,
            rejectedFile: f.rejected,
          };
          if (f.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
          else {
            const on = Object.entries(ablations)
              .filter(([, v]) => v)
              .map(([k]) => k);
            process.stdout.write(
              `accepted ${r.accepted} of ${r.drafts.length} draft(s) (${(r.acceptanceRate * 100).toFixed(1)}%) after up to ${r.revisions} revision(s); ${r.acceptedFirstTry} (${(r.firstTryRate * 100).toFixed(1)}%) at the first try${on.length ? `; ablations: ${on.join(', ')}` : ''}${r.acceptedUnsolvable ? `; ${r.acceptedUnsolvable} accepted draft(s) the verifier cannot solve` : ''}\nwrote ${f.out} and ${f.rejected}\n`,
            );
          }
        } finally {
          await store.close();
        }
      },
    );

  cmd
    .command('evolve')
    .description(
      "the next round of an evolving pool: tasks whose failure ratio across a stored run's evaluated models is >= rho seed it; prints each round's pool statistics",
    )
    .requiredOption('--out <file>', 'the new round (EnactToM JSON list)')
    .option('--from-run <id>', 'the evaluated round (default: the newest run)')
    .option('--db <path>', 'store (SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--n <n>', 'tasks in the new round', intOption('--n', 1), 10)
    .option('--rho <r>', 'failure-ratio threshold', numberOption('--rho'), 0.8)
    .option('--split <s>', 'standard (rho 0.8) or hard (rho 0.9), as the paper')
    .option('--seed <s>', 'seed', intOption('--seed', 0), 0)
    .option('--json', 'print JSON')
    .action(
      async (f: { out: string; fromRun?: string; db: string; n: number; rho: number; split?: string; seed: number; json?: boolean }) => {
        if (f.split !== undefined && f.split !== 'standard' && f.split !== 'hard')
          throw new ConfigError('--split must be standard or hard');
        const rho = f.split ? (f.split === 'hard' ? 0.9 : 0.8) : f.rho;
        if (!(rho >= 0 && rho <= 1)) throw new ConfigError('--rho must lie in [0, 1]');
        const store = await openStore(f.db);
        try {
          const runId = await resolveRunId(store, f.fromRun);
          const pool = await evolutionPool(store, runId, rho);
          if (pool.failed.length + pool.passed.length === 0)
            throw new ConfigError(`run ${runId} has no episodes of generated tasks to evolve from`);
          const next = evolveTasks(pool, f.n, f.seed);
          writeFileSync(
            f.out,
            `${JSON.stringify(
              next.tasks.map((t) => t.json),
              null,
              2,
            )}\n`,
          );
          const evaluatedTasks = pool.ratios.flatMap((r) => (r.task ? [r.task] : []));
          const failedTasks = pool.ratios.flatMap((r) => (r.task && r.settings && r.ratio >= rho ? [r.task] : []));
          const rounds = [
            { round: 0, runId, pool: poolComposition(evaluatedTasks), failed: poolComposition(failedTasks) },
            { round: 1, file: f.out, pool: poolComposition(next.tasks.map((t) => t.task)) },
          ];
          const ratios = pool.ratios.map((r) => ({ taskId: r.taskId, ratio: r.ratio, subjects: r.subjects }));
          if (f.json) {
            process.stdout.write(
              `${JSON.stringify({ runId, rho, judged: pool.judged, fromFailed: next.fromFailed, ratios, rounds }, null, 2)}\n`,
            );
            return;
          }
          process.stdout.write(
            `run ${runId}: failure ratio over ${pool.judged.join(', ')}; ${failedTasks.length} of ${evaluatedTasks.length} task(s) at or above rho ${rho}${next.fromFailed ? '' : ' (none: every task seeds the round)'}\n\n`,
          );
          process.stdout.write(`round 0 (evaluated)\n${formatPoolComposition(rounds[0]!.pool)}\n\n`);
          process.stdout.write(`round 0, failure ratio >= ${rho}\n${formatPoolComposition(rounds[0]!.failed!)}\n\n`);
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
