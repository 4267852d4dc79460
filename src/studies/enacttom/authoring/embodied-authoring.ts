// Model-authored EnactToM tasks (`mindscope embodied author`), as the paper's task generation
// agent (Section 4.2): per draft, a model works through tools (author-tools.ts) in a multi-turn
// loop: it inspects a scene, writes a task of the requested category and ToM depth, tests it in
// the verifier, has the judge council score it, revises on their feedback, and submits; a task
// is accepted only when test_task and judge have both passed on the version submitted, and it
// enters the pool with the budgets calibration sets (twice the baseline plan's). Seed tasks
// from the pool are shown in context (seed-pool.ts). Three switches ablate the pipeline as the
// paper's Table 9 does. Calls go through the runner's recording model (cached, retried).

import { ConfigError, DEFAULT_SETTINGS, type ChatMessage } from '../../../core/index.js';
import type { ChatModel } from '../../../models/index.js';
import { CallerFactory } from '../../../runner/index.js';
import type { Store } from '../../../store/index.js';
import { createRegistry, type Registry } from '../../../app/index.js';
import { runEpisode } from '../protocol/episode-protocol.js';
import { revealSecrets } from '../protocol/secrets-revealed.js';
import { authorRequest, authorSystemPrompt } from './author-prompt.js';
import { AuthorWorkspace, readToolCall, type AuthorTool, type TeamCalibrationFn, type ToolResult } from './author-tools.js';
import type { AuthoringAblations, DraftRequest, VerifySummary } from './draft-checks.js';
import type { Seed } from './seed-pool.js';
import { councilPrompt, councilVerdict, parseCouncilReply, type CouncilVerdict, type TaskCriterion } from './task-council.js';

type AcceptedVersion = NonNullable<ToolResult['accepted']>;

/** One turn of the author agent: its reply, the tool it called and what the tool answered. */
export interface AgentStep {
  step: number;
  reply: string;
  /** null: the reply held no readable tool call. */
  tool: AuthorTool | null;
  ok: boolean;
  result: string;
}

export interface AuthoredDraft {
  index: number;
  category: 'cooperative' | 'mixed';
  requestedDepth: number;
  accepted: boolean;
  steps: AgentStep[];
  /** Why the draft was not accepted (empty when it was). */
  reasons: string[];
  /** Accepted: the task as it enters the pool; otherwise the last version the author tried (null: none). */
  task: Record<string, unknown> | null;
  verify?: VerifySummary;
  council?: CouncilVerdict;
  /** The seeds shown: task id and, for pool seeds, whether the target models failed it. */
  seeds: Array<{ taskId: string; failed?: boolean }>;
  /** The whole conversation: system prompt, request, each reply and each tool result. */
  messages: ChatMessage[];
}

export interface AuthoringResult {
  drafts: AuthoredDraft[];
  accepted: number;
  acceptanceRate: number;
  /** Tool calls allowed per draft. */
  maxSteps: number;
  /** Accepted drafts the verifier could not solve (non-zero only with noCalibration). */
  acceptedUnsolvable: number;
  ablations: AuthoringAblations;
}

/** Three seeds per draft from a flat list, rotating so drafts see different examples. */
export function rotateSeeds(seeds: Seed[], n: number, perDraft = 3): Seed[][] {
  if (seeds.length === 0) return Array.from({ length: n }, () => []);
  return Array.from({ length: n }, (_, i) =>
    Array.from({ length: Math.min(perDraft, seeds.length) }, (__, k) => seeds[(i * perDraft + k) % seeds.length]!),
  );
}

/** Ask a model for `n` tasks, each authored through the tools; judges are the council (the paper uses two). */
export async function authorEmbodiedTasks(opts: {
  store: Store;
  model: string;
  judges: string[];
  n: number;
  /** Seeds per draft (a shorter list cycles). */
  seeds: Seed[][];
  /** Depth per draft (default: cycle 1, 2, 3). */
  depth?: number;
  /** Category per draft (default: cycle cooperative, mixed). */
  category?: 'cooperative' | 'mixed';
  ablations?: AuthoringAblations;
  /** Tool calls per draft (default 30). */
  maxSteps?: number;
  /** A model team test_task also runs on the task with every secret revealed: it must reach the goal (the paper's calibrator). */
  calibrationTeam?: string;
  /** Seed of the scenes. */
  seed?: number;
  apiKeyEnv?: string;
  registry?: Registry;
  onDraft?: (d: AuthoredDraft) => void;
}): Promise<AuthoringResult> {
  const ablations = opts.ablations ?? {};
  const maxSteps = opts.maxSteps ?? 30;
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new ConfigError('the tool calls per draft must be a whole number >= 1');
  const registry = opts.registry ?? createRegistry();
  const author = registry.createModel(opts.model, { apiKeyEnv: opts.apiKeyEnv });
  const judgeModels: ChatModel[] = opts.judges.map((s) => registry.createModel(s, { apiKeyEnv: opts.apiKeyEnv }));
  const team = opts.calibrationTeam ? registry.createModel(opts.calibrationTeam, { apiKeyEnv: opts.apiKeyEnv }) : undefined;
  const factory = new CallerFactory({ store: opts.store, concurrency: 4, timeoutMs: 180_000 });
  const authorCaller = factory.caller(author, `author:${author.spec}`, { ...DEFAULT_SETTINGS, maxTokens: 8192, temperature: 0.7 });
  const judgeCallers = judgeModels.map((m) => ({
    spec: m.spec,
    caller: factory.caller(m, `council:${m.spec}`, { ...DEFAULT_SETTINGS, temperature: 0 }),
  }));
  const ignore: TaskCriterion[] = ablations.relaxedSecrets ? ['secret_quality'] : [];
  const council = async (taskJson: string, category: 'cooperative' | 'mixed') => {
    const prompt = councilPrompt(taskJson, category);
    const judges = await Promise.all(
      judgeCallers.map(async (j) => parseCouncilReply(j.spec, (await j.caller.chat([{ role: 'user', content: prompt }])).text, category)),
    );
    return { judges, verdict: councilVerdict(judges, category, ignore) };
  };
  let calibrate: TeamCalibrationFn | undefined;
  if (team) {
    const teamCaller = factory.caller(team, `calibration:${team.spec}`, { ...DEFAULT_SETTINGS });
    calibrate = async (task) => {
      const d = await runEpisode(revealSecrets(task), teamCaller, { replicate: 0, seed: opts.seed ?? 0 });
      const trace = d.turns.slice(-8).map((t) => `  turn ${t.round} ${t.agent}: ${t.action ?? '(no valid action)'} -> ${t.observation}`);
      return {
        passed: d.functional,
        text: [
          `Calibration (team ${team.spec}, every secret revealed): ${d.functional ? 'PASS' : 'FAIL'} after ${d.rounds} round(s) of ${task.turnLimit}.`,
          ...(d.functional ? [] : ['Last turns:', ...trace]),
        ].join('\n'),
      };
    };
  }
  const drafts: AuthoredDraft[] = [];
  try {
    for (let i = 0; i < opts.n; i++) {
      const req: DraftRequest = {
        depth: opts.depth ?? (i % 3) + 1,
        category: opts.category ?? (i % 2 === 0 ? 'cooperative' : 'mixed'),
      };
      const seeds = ablations.noSeeds || opts.seeds.length === 0 ? [] : opts.seeds[i % opts.seeds.length]!;
      const ws = new AuthorWorkspace(req, ablations, `draft ${i + 1}`, { seed: opts.seed ?? 0, draft: i }, council, calibrate);
      const messages: ChatMessage[] = [
        { role: 'system', content: authorSystemPrompt() },
        { role: 'user', content: authorRequest(req, seeds, i, opts.n) },
      ];
      const steps: AgentStep[] = [];
      let accepted: AcceptedVersion | undefined;
      for (let step = 1; step <= maxSteps && !accepted; step++) {
        const reply = (await authorCaller.chat(messages)).text;
        messages.push({ role: 'assistant', content: reply });
        const r = await ws.call(readToolCall(reply));
        steps.push({ step, reply, tool: r.tool, ok: r.ok, result: r.text });
        accepted = r.accepted;
        if (!accepted) messages.push({ role: 'user', content: `${r.text}\n(${maxSteps - step} tool call(s) left.)` });
      }
      const last = ws.last;
      const reasons = accepted
        ? []
        : [
            `no task accepted within ${maxSteps} tool call(s)`,
            ...(last?.test?.reasons.map((r) => `last test_task: ${r}`) ?? []),
            ...(last?.council?.verdict.reasons.map((r) => `last judge: ${r}`) ?? []),
          ];
      const draft: AuthoredDraft = {
        index: i,
        category: req.category,
        requestedDepth: req.depth,
        accepted: Boolean(accepted),
        steps,
        reasons,
        task: accepted?.task ?? last?.task ?? null,
        ...((accepted?.test ?? last?.test)?.verify ? { verify: (accepted?.test ?? last?.test)!.verify } : {}),
        ...((accepted?.council ?? last?.council?.verdict) ? { council: accepted?.council ?? last?.council?.verdict } : {}),
        seeds: seeds.map((s) => ({ taskId: String(s.json.task_id), ...(s.failed === undefined ? {} : { failed: s.failed }) })),
        messages,
      };
      drafts.push(draft);
      opts.onDraft?.(draft);
    }
    await factory.settle();
  } finally {
    await author.close?.();
    for (const m of judgeModels) await m.close?.();
    await team?.close?.();
  }
  const accepted = drafts.filter((d) => d.accepted);
  return {
    drafts,
    accepted: accepted.length,
    acceptanceRate: drafts.length ? accepted.length / drafts.length : 0,
    maxSteps,
    acceptedUnsolvable: accepted.filter((d) => d.verify?.solvable !== true).length,
    ablations,
  };
}
