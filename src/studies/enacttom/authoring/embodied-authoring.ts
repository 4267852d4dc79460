// Model-authored EnactToM tasks (`mindscope embodied author`): a model drafts tasks in the
// EnactToM JSON format, shown seed tasks in context; a draft is accepted only when it reads as a
// task, its goal's K-depth is the depth it claims, the verifier solves it within its turn limit,
// it calibrates (solvable with every secret revealed), its secrets are needed (strict secret
// check) and the judge council approves it (task-council.ts). A failed draft goes back to
// the author with the gates' feedback for up to `revisions` revisions (authoring-revision.ts);
// every version is kept with its reasons. Three switches ablate the pipeline as the paper's Table 9 does. Calls go
// through the runner's recording model (cached, retried, stored).

import { ConfigError, DEFAULT_SETTINGS, type ChatMessage } from '../../../core/index.js';
import { councilPrompt, councilVerdict, parseCouncilReply, type CouncilVerdict, type TaskCriterion } from './task-council.js';
import type { ChatModel } from '../../../models/index.js';
import { CallerFactory } from '../../../runner/index.js';
import type { Store } from '../../../store/index.js';
import { kDepth, readEnactTomTask, verifyTask } from '../world/index.js';
import { revisionMessages, type DraftAttempt } from './authoring-revision.js';
import { createRegistry, type Registry } from '../../../app/index.js';

export interface AuthoringAblations {
  /** Skip the verifier's solvability and calibration checks (the paper's "no baseline calibration"). */
  noCalibration?: boolean;
  /** Show the author no seed tasks. */
  noSeeds?: boolean;
  /** Drop the secret checks: secrets needed, no trivial K goal, and the council's secret_quality. */
  relaxedSecrets?: boolean;
}

export interface AuthoredDraft {
  index: number;
  requestedDepth: number;
  accepted: boolean;
  /** The revision that was accepted (0: at the first try); null when none was. */
  acceptedAt: number | null;
  /** Every version in order; the fields below repeat the last one's. */
  attempts: DraftAttempt[];
  reasons: string[];
  /** The draft's JSON, when the reply held one. */
  task: Record<string, unknown> | null;
  reply: string;
  verify?: DraftAttempt['verify'];
  council?: CouncilVerdict;
}

export interface AuthoringResult {
  drafts: AuthoredDraft[];
  /** Drafts accepted in the end (at the first try or after revisions). */
  accepted: number;
  acceptanceRate: number;
  /** Drafts accepted at the first try (as with no revisions). */
  acceptedFirstTry: number;
  firstTryRate: number;
  /** Revisions allowed per draft. */
  revisions: number;
  /** Accepted drafts the verifier could not solve (non-zero only with noCalibration). */
  acceptedUnsolvable: number;
  ablations: AuthoringAblations;
}

const FORMAT = `EnactToM task JSON fields: task_id, title, category ("cooperative" or "mixed"), task (public text), num_agents,
agent_secrets {agent_id: [text]}, agent_actions {agent_id: [Navigate, Open, Close, Pick, Place, Communicate, Wait, Done]},
message_targets {agent_id: [agent_id]}, mechanic_bindings [{mechanic_type, trigger_object, target_object, target_state, count, agent, rooms}],
problem_pddl (a PDDL problem: typed :objects with room, furniture and object types; :init facts is_in_room, is_on_top, is_inside,
is_open, is_closed, is_locked, agent_in_room; :goal with (K agent_id phi) for what an agent must know), turn_limit,
private_goals {agent_id: goal} for mixed tasks, and tom_level (the K-depth of the goal).`;

/** The author's prompt for one draft. */
export function authoringPrompt(seeds: Record<string, unknown>[], depth: number, index: number, n: number): string {
  return [
    'Write one new task for an embodied multi-agent theory-of-mind benchmark.',
    'Agents see only the room they are in; information must flow between them through messages, and the goal checks',
    'both the physical outcome and what agents know (K operators nested to the requested depth).',
    FORMAT,
    `Requested ToM depth: ${depth} (tom_level ${depth}).`,
    ...(seeds.length
      ? ['', 'Seed tasks from the pool:', ...seeds.map((s, i) => `Seed task ${i + 1}:\n${JSON.stringify(s, null, 2)}`)]
      : []),
    '',
    'Reply with the task as one JSON object and nothing else.',
    // The index keeps each request distinct (and each cached answer its own).
    `(Draft ${index + 1} of ${n}.)`,
  ].join('\n');
}

/** The first JSON object in a reply (a fenced block or bare braces), or why there is none. */
export function draftJson(reply: string): Record<string, unknown> | string {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/.exec(reply)?.[1];
  const text = fenced ?? reply;
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) return 'invalid JSON: the reply holds no JSON object';
  try {
    const v = JSON.parse(text.slice(start, end + 1)) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) return 'invalid JSON: not an object';
    return v as Record<string, unknown>;
  } catch (err) {
    return `invalid JSON: ${(err as Error).message}`;
  }
}

/** The deterministic gates (format, K-depth, verifier, calibration, secrets); reasons empty when all pass. */
export function checkDraft(
  raw: Record<string, unknown>,
  requestedDepth: number,
  ablations: AuthoringAblations,
  where: string,
): { reasons: string[]; verify?: DraftAttempt['verify']; category: 'cooperative' | 'mixed' } {
  let task: ReturnType<typeof readEnactTomTask>;
  try {
    task = readEnactTomTask(raw, where);
  } catch (err) {
    return { reasons: [`not a valid EnactToM task: ${(err as Error).message}`], category: 'cooperative' };
  }
  const reasons: string[] = [];
  const claimed = Number(raw.tom_level ?? raw.k_depth ?? requestedDepth);
  const depth = kDepth(task.goal);
  if (depth !== claimed) reasons.push(`K-depth: the goal nests K to depth ${depth} but the task claims ${claimed}`);
  if (claimed !== requestedDepth) reasons.push(`K-depth: the task claims ${claimed} but depth ${requestedDepth} was requested`);
  const v = verifyTask(task);
  const verify = {
    kDepth: v.kDepth,
    solvable: v.solvable,
    minToMLevel: v.minToMLevel,
    calibrates: v.calibrates,
    needsCommunication: v.needsCommunication,
    trivialK: v.trivialK,
    explanations: v.explanations,
  };
  if (!ablations.noCalibration) {
    if (v.solvable !== true)
      reasons.push(
        `verifier: ${v.solvable === false ? 'not solvable' : 'undecided'} within ${task.turnLimit} turns${v.explanations.length ? ` (${v.explanations.join('; ')})` : ''}`,
      );
    if (v.calibrates !== true) reasons.push('calibration: the physical goal is not solvable even with every secret revealed');
  }
  if (!ablations.relaxedSecrets) {
    const bare = task.agents.filter((a) => a.secrets.length === 0).map((a) => a.id);
    if (bare.length) reasons.push(`secrets: ${bare.join(', ')} ha${bare.length > 1 ? 've' : 's'} no secret`);
    if (v.needsCommunication === false) reasons.push('secrets: the task is solvable without any message');
    if (v.trivialK.length) reasons.push(`secrets: trivial K goal(s) ${v.trivialK.join(', ')}`);
  }
  return { reasons, verify, category: task.category };
}

/** Ask a model for `n` tasks and gate each; judges are the council (the paper uses two). */
export async function authorEmbodiedTasks(opts: {
  store: Store;
  model: string;
  judges: string[];
  n: number;
  seeds: Record<string, unknown>[];
  /** Depth per draft (default: cycle 1, 2, 3). */
  depth?: number;
  ablations?: AuthoringAblations;
  /** Revisions per failed draft, each with the gates' feedback (default 2; 0: one try). */
  revisions?: number;
  apiKeyEnv?: string;
  registry?: Registry;
  onDraft?: (d: AuthoredDraft) => void;
}): Promise<AuthoringResult> {
  const ablations = opts.ablations ?? {};
  const revisions = opts.revisions ?? 2;
  if (!Number.isInteger(revisions) || revisions < 0) throw new ConfigError('revisions must be a whole number >= 0');
  const registry = opts.registry ?? createRegistry();
  const author = registry.createModel(opts.model, { apiKeyEnv: opts.apiKeyEnv });
  const judgeModels: ChatModel[] = opts.judges.map((s) => registry.createModel(s, { apiKeyEnv: opts.apiKeyEnv }));
  const factory = new CallerFactory({ store: opts.store, concurrency: 4, timeoutMs: 180_000 });
  const authorCaller = factory.caller(author, `author:${author.spec}`, { ...DEFAULT_SETTINGS, temperature: 0.7 });
  const judgeCallers = judgeModels.map((m) => ({
    spec: m.spec,
    caller: factory.caller(m, `council:${m.spec}`, { ...DEFAULT_SETTINGS, temperature: 0 }),
  }));
  const ignore: TaskCriterion[] = ablations.relaxedSecrets ? ['secret_quality'] : [];
  // One version through every gate; the council, the costly gate, runs only when the
  // deterministic checks pass.
  const gate = async (reply: string, revision: number, requestedDepth: number, i: number): Promise<DraftAttempt> => {
    const attempt: DraftAttempt = { revision, accepted: false, reasons: [], task: null, reply };
    const parsed = draftJson(reply);
    if (typeof parsed === 'string') attempt.reasons.push(parsed);
    else {
      attempt.task = parsed;
      const checked = checkDraft(parsed, requestedDepth, ablations, `draft ${i + 1}`);
      attempt.reasons.push(...checked.reasons);
      attempt.verify = checked.verify;
      if (checked.reasons.length === 0) {
        const prompt = councilPrompt(JSON.stringify(parsed, null, 2), checked.category);
        attempt.judges = await Promise.all(
          judgeCallers.map(async (j) =>
            parseCouncilReply(j.spec, (await j.caller.chat([{ role: 'user', content: prompt }])).text, checked.category),
          ),
        );
        attempt.council = councilVerdict(attempt.judges, checked.category, ignore);
        attempt.reasons.push(...attempt.council.reasons.map((r) => `council: ${r}`));
      }
    }
    attempt.accepted = attempt.reasons.length === 0;
    return attempt;
  };
  const drafts: AuthoredDraft[] = [];
  try {
    for (let i = 0; i < opts.n; i++) {
      const requestedDepth = opts.depth ?? (i % 3) + 1;
      // Three seeds per prompt, rotating through the pool so drafts see different examples.
      const seeds =
        ablations.noSeeds || opts.seeds.length === 0
          ? []
          : [0, 1, 2].map((k) => opts.seeds[(i + k) % opts.seeds.length]!).filter((s, k, xs) => xs.indexOf(s) === k);
      const firstPrompt = authoringPrompt(seeds, requestedDepth, i, opts.n);
      const attempts: DraftAttempt[] = [];
      let messages: ChatMessage[] = [{ role: 'user', content: firstPrompt }];
      for (let rev = 0; rev <= revisions; rev++) {
        const reply = (await authorCaller.chat(messages)).text;
        const attempt = await gate(reply, rev, requestedDepth, i);
        attempts.push(attempt);
        if (attempt.accepted || rev === revisions) break;
        messages = revisionMessages(firstPrompt, attempt, i, opts.n, rev + 1, revisions);
      }
      const last = attempts.at(-1)!;
      const draft: AuthoredDraft = {
        index: i,
        requestedDepth,
        accepted: last.accepted,
        acceptedAt: last.accepted ? last.revision : null,
        attempts,
        reasons: last.reasons,
        task: last.task,
        reply: last.reply,
        ...(last.verify ? { verify: last.verify } : {}),
        ...(last.council ? { council: last.council } : {}),
      };
      drafts.push(draft);
      opts.onDraft?.(draft);
    }
    await factory.settle();
  } finally {
    await author.close?.();
    for (const m of judgeModels) await m.close?.();
  }
  const accepted = drafts.filter((d) => d.accepted);
  const firstTry = drafts.filter((d) => d.acceptedAt === 0).length;
  return {
    drafts,
    accepted: accepted.length,
    acceptanceRate: drafts.length ? accepted.length / drafts.length : 0,
    acceptedFirstTry: firstTry,
    firstTryRate: drafts.length ? firstTry / drafts.length : 0,
    revisions,
    acceptedUnsolvable: accepted.filter((d) => d.verify?.solvable !== true).length,
    ablations,
  };
}
