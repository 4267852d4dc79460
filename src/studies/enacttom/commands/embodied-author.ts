// `mindscope embodied author`: a model authors tasks through tools (inspect the scene, test the
// task in the verifier, have the council judge it, submit), seeded with pool tasks of which a
// share rho the target models failed (paper, Sections 4.2 and 4.4).

import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { readJsonFile } from './read-json-file.js';
import { authorEmbodiedTasks, ConfigError, openStore, resolveRunId } from '../../../index.js';
import { generateTasks, planSeeds, readEnactTomTasks, rotateSeeds, seedPool, type Seed } from '../index.js';
import { DEFAULT_DB, intOption, numberOption } from '../../../cli/toolkit.js';

interface AuthorFlags {
  model: string;
  judges: string;
  n: number;
  depth?: number;
  category?: string;
  steps: number;
  seeds?: string;
  seedsFromRun?: string;
  rho: number;
  split?: string;
  failedAt: number;
  targets?: string;
  seedsPerDraft: number;
  seed: number;
  calibrationTeam?: string;
  out: string;
  rejected: string;
  transcripts: string;
  calibration: boolean;
  iclSeeds: boolean;
  relaxedSecrets?: boolean;
  db: string;
  json?: boolean;
}

const list = (s: string | undefined) =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** A step's verdict: its result's first line up to the second colon ("test_task: FAIL", "Scene 2"), or "no tool call". */
const verdict = (s: { tool: string | null; result: string }) =>
  s.tool ? s.result.split('\n')[0]!.split(':').slice(0, 2).join(':') : 'no tool call';

/** The seeds of every draft, and where they came from. */
async function draftSeeds(f: AuthorFlags, rho: number): Promise<{ perDraft: Seed[][]; info: Record<string, unknown> }> {
  if (f.seeds) {
    const json = readJsonFile(f.seeds);
    readEnactTomTasks(json, f.seeds); // validates every seed
    const seeds = ((Array.isArray(json) ? json : [json]) as Record<string, unknown>[]).map((j) => ({ json: j }));
    return { perDraft: rotateSeeds(seeds, f.n, f.seedsPerDraft), info: { source: 'file', file: f.seeds } };
  }
  if (f.seedsFromRun) {
    const store = await openStore(f.db);
    try {
      const runId = await resolveRunId(store, f.seedsFromRun);
      const pool = await seedPool(store, runId, { targets: list(f.targets), failedAt: f.failedAt });
      if (pool.failed.length + pool.passed.length === 0) throw new ConfigError(`run ${runId} has no embodied episodes to draw seeds from`);
      const plan = planSeeds(pool, f.n, f.seedsPerDraft, rho, f.seed);
      return {
        perDraft: plan.perDraft,
        info: {
          source: 'run',
          runId,
          rho,
          failedShare: plan.failedShare,
          failedAt: pool.failedAt,
          targets: pool.targets,
          pool: { failed: pool.failed.map((t) => t.taskId), passed: pool.passed.map((t) => t.taskId) },
        },
      };
    } finally {
      await store.close();
    }
  }
  const seeds = generateTasks({ n: 6, seed: f.seed }).map((t) => ({ json: t.json }));
  return { perDraft: rotateSeeds(seeds, f.n, f.seedsPerDraft), info: { source: 'generated', seed: f.seed } };
}

/**
 * `embodied author --json` prints `{ drafts, maxSteps, accepted, acceptanceRate, acceptedUnsolvable, ablations,
 * seeds: { source, runId?, rho?, failedShare?, failedAt?, targets?, pool?: { failed, passed }, perDraft: [[{ taskId, failed? }]] },
 * attempts: [{ draft, category, depth, accepted, toolCalls, tools: ["tool RESULT"], reasons }], out, rejectedFile, transcriptsFile }`.
 */
export function registerEmbodiedAuthor(cmd: Command): void {
  cmd
    .command('author')
    .description(
      'a model authors tasks through tools (inspect_scene, new_scene, test_task, judge, submit_task), seeded with pool tasks; a task is kept when test_task (verifier, calibration, secrets) and the judge council both passed on the version submitted',
    )
    .requiredOption('--model <spec>', 'the author model')
    .requiredOption('--judges <specs>', 'the council: comma-separated model specs (the paper uses two)')
    .option('--n <n>', 'drafts to ask for', intOption('--n', 1), 10)
    .option('--depth <d>', 'ToM depth 1 to 4 (default: cycle 1, 2, 3)', intOption('--depth', 1))
    .option('--category <c>', 'cooperative or mixed (default: alternate)')
    .option('--steps <n>', 'tool calls per draft', intOption('--steps', 1), 30)
    .option('--seeds <file>', 'seed tasks (EnactToM JSON list; default: 6 generated ones)')
    .option('--seeds-from-run <id>', 'seed tasks: the tasks of this run, a share --rho of them failed by the target models')
    .option('--rho <r>', 'with --seeds-from-run: the share of seeds the target models failed', numberOption('--rho', 0, 1), 0.8)
    .option('--split <s>', 'with --seeds-from-run: standard (rho 0.8) or hard (rho 0.9), as the paper')
    .option(
      '--failed-at <r>',
      "with --seeds-from-run: a task counts as failed when its failure ratio (the target models' mean share of failed episodes) is at least this",
      numberOption('--failed-at', 0, 1),
      0.5,
    )
    .option('--targets <specs>', 'with --seeds-from-run: the target models (default: every subject of the run but reference agents)')
    .option('--seeds-per-draft <n>', 'seed tasks shown per draft', intOption('--seeds-per-draft', 0), 3)
    .option('--seed <s>', 'seed of the scenes, the seed order and the generated seed tasks', intOption('--seed', 0), 0)
    .option('--calibration-team <spec>', 'test_task also has this team play the task with every secret revealed; it must reach the goal')
    .option('--out <file>', 'accepted tasks (JSON list)', 'authored-tasks.json')
    .option('--rejected <file>', 'drafts not accepted, with their reasons and last version (JSON list)', 'authored-rejected.json')
    .option('--transcripts <file>', "every draft's conversation and tool calls (JSON list)", 'authored-transcripts.json')
    .option('--no-calibration', 'ablation: skip the verifier solvability and calibration checks')
    .option('--no-icl-seeds', 'ablation: show the author no seed tasks')
    .option('--relaxed-secrets', 'ablation: skip the secret checks (and the council secret_quality criterion)')
    .option('--db <path>', 'store for the recorded calls (SQLite file or postgres:// URL)', DEFAULT_DB)
    .option('--json', 'print the summary as JSON')
    .action(async (f: AuthorFlags) => {
      if (f.depth !== undefined && ![1, 2, 3, 4].includes(f.depth)) throw new ConfigError('--depth must be 1, 2, 3 or 4');
      if (f.category !== undefined && f.category !== 'cooperative' && f.category !== 'mixed')
        throw new ConfigError('--category must be cooperative or mixed');
      if (f.split !== undefined && f.split !== 'standard' && f.split !== 'hard') throw new ConfigError('--split must be standard or hard');
      if (f.failedAt === 0) throw new ConfigError('--failed-at must be above 0');
      const judges = list(f.judges);
      if (judges.length === 0) throw new ConfigError('--judges needs at least one model spec');
      const rho = f.split ? (f.split === 'hard' ? 0.9 : 0.8) : f.rho;
      const seeds = await draftSeeds(f, rho);
      const ablations = { noCalibration: !f.calibration, noSeeds: !f.iclSeeds, relaxedSecrets: Boolean(f.relaxedSecrets) };
      const store = await openStore(f.db);
      try {
        const r = await authorEmbodiedTasks({
          store,
          model: f.model,
          judges,
          n: f.n,
          seeds: seeds.perDraft,
          depth: f.depth,
          category: f.category as 'cooperative' | 'mixed' | undefined,
          maxSteps: f.steps,
          calibrationTeam: f.calibrationTeam,
          seed: f.seed,
          ablations,
          onDraft: f.json
            ? undefined
            : (d) =>
                process.stdout.write(
                  `draft ${d.index + 1} (${d.category}, depth ${d.requestedDepth}): ${d.accepted ? 'accepted' : 'rejected'} after ${d.steps.length} tool call(s): ${d.steps.map(verdict).join('; ')}\n${d.reasons.map((x) => `  ${x}\n`).join('')}`,
                ),
        });
        const attempts = r.drafts.map((d) => ({
          draft: d.index + 1,
          category: d.category,
          depth: d.requestedDepth,
          accepted: d.accepted,
          toolCalls: d.steps.length,
          tools: d.steps.map(verdict),
          reasons: d.reasons,
        }));
        writeFileSync(
          f.out,
          `${JSON.stringify(
            r.drafts.filter((d) => d.accepted).map((d) => d.task),
            null,
            2,
          )}\n`,
        );
        writeFileSync(
          f.rejected,
          `${JSON.stringify(
            r.drafts.filter((d) => !d.accepted).map((d) => ({ draft: d.index + 1, reasons: d.reasons, task: d.task })),
            null,
            2,
          )}\n`,
        );
        writeFileSync(
          f.transcripts,
          `${JSON.stringify(
            r.drafts.map((d) => ({ draft: d.index + 1, accepted: d.accepted, seeds: d.seeds, steps: d.steps, messages: d.messages })),
            null,
            2,
          )}\n`,
        );
        const summary = {
          drafts: r.drafts.length,
          maxSteps: r.maxSteps,
          accepted: r.accepted,
          acceptanceRate: r.acceptanceRate,
          acceptedUnsolvable: r.acceptedUnsolvable,
          ablations: r.ablations,
          seeds: { ...seeds.info, perDraft: r.drafts.map((d) => d.seeds) },
          attempts,
          out: f.out,
          rejectedFile: f.rejected,
          transcriptsFile: f.transcripts,
        };
        if (f.json) process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
        else {
          const on = Object.entries(ablations)
            .filter(([, v]) => v)
            .map(([k]) => k);
          const share =
            typeof seeds.info.failedShare === 'number'
              ? `; seeds failed by the target models: ${(seeds.info.failedShare * 100).toFixed(1)}% (rho ${rho})`
              : '';
          process.stdout.write(
            `accepted ${r.accepted} of ${r.drafts.length} draft(s) (${(r.acceptanceRate * 100).toFixed(1)}%) within ${r.maxSteps} tool call(s) each${share}${on.length ? `; ablations: ${on.join(', ')}` : ''}${r.acceptedUnsolvable ? `; ${r.acceptedUnsolvable} accepted draft(s) the verifier cannot solve` : ''}\nwrote ${f.out}, ${f.rejected} and ${f.transcripts}\n`,
          );
        }
      } finally {
        await store.close();
      }
    });
}
