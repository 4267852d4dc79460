// The deterministic gates of an authored task (paper, Section 4.3): structural validation (the
// task reads as EnactToM JSON, every entity it names exists, mechanic bindings are well formed),
// the requested category, the K-depth check, then the verifier (solvable within the turn
// limit, calibrates: the physical goal solvable with every secret revealed), the secret checks
// (every agent has a secret, messages are needed, no K goal is trivial) and the budgets: the
// turn limit and each limited agent's message budget set to twice what the verifier's baseline
// plan uses (calibrateBudgets, as for generated tasks), verified again.

import { calibrateBudgets } from '../suites/task-generator.js';
import { formatAction, kDepth, readEnactTomTask, verifyTask, type EmbodiedTask, type VerifyResult } from '../world/index.js';

export interface AuthoringAblations {
  /** Skip the verifier's solvability and calibration checks (the paper's "no baseline calibration"). */
  noCalibration?: boolean;
  /** Show the author no seed tasks. */
  noSeeds?: boolean;
  /** Drop the secret checks: secrets needed, no trivial K goal, and the council's secret_quality. */
  relaxedSecrets?: boolean;
}

/** What the author was asked for: the paper's only human inputs. */
export interface DraftRequest {
  depth: number;
  category: 'cooperative' | 'mixed';
}

export type VerifySummary = Pick<
  VerifyResult,
  'kDepth' | 'solvable' | 'minToMLevel' | 'calibrates' | 'needsCommunication' | 'trivialK' | 'explanations' | 'rounds'
>;

const summary = (v: VerifyResult): VerifySummary => ({
  kDepth: v.kDepth,
  solvable: v.solvable,
  minToMLevel: v.minToMLevel,
  calibrates: v.calibrates,
  needsCommunication: v.needsCommunication,
  trivialK: v.trivialK,
  explanations: v.explanations,
  rounds: v.rounds,
});

/** Structure, category and K-depth: the cheap checks test_task and judge both run first. */
export function structuralChecks(
  raw: Record<string, unknown>,
  req: DraftRequest,
  where: string,
): { task: EmbodiedTask | null; reasons: string[] } {
  let task: EmbodiedTask;
  try {
    task = readEnactTomTask(raw, where);
  } catch (err) {
    return { task: null, reasons: [`structure: ${(err as Error).message}`] };
  }
  const reasons: string[] = [];
  if (task.category !== req.category) reasons.push(`category: the task is ${task.category} but ${req.category} was requested`);
  if (req.category === 'mixed' && !task.agents.some((a) => a.privateGoal))
    reasons.push('category: a mixed task needs a private goal (private_goals) for at least one agent');
  const claimed = Number(raw.tom_level ?? raw.k_depth ?? req.depth);
  const depth = kDepth(task.goal);
  if (depth !== claimed) reasons.push(`K-depth: the goal nests K to depth ${depth} but the task claims ${claimed}`);
  if (claimed !== req.depth) reasons.push(`K-depth: the task claims ${claimed} but depth ${req.depth} was requested`);
  return { task, reasons };
}

export interface DraftTest {
  reasons: string[];
  verify?: VerifySummary;
  /** The baseline plan, one line per step. */
  plan: string[];
  /** The task as it would enter the pool (budgets from calibration); null when a check failed before the verifier. */
  final: Record<string, unknown> | null;
  /** The budgets set on acceptance, in words. */
  budgets?: string;
}

/** Every deterministic gate on one version of a task; `reasons` is empty when it passes. */
export function testDraft(raw: Record<string, unknown>, req: DraftRequest, ablations: AuthoringAblations, where: string): DraftTest {
  const s = structuralChecks(raw, req, where);
  if (!s.task) return { reasons: s.reasons, plan: [], final: null };
  const reasons = [...s.reasons];
  const task = s.task;
  const v = verifyTask(task, { maxNodes: 60_000 });
  const plan = (v.plan ?? []).map((p) => `round ${p.round} ${p.agent}: ${formatAction(p.action)}`);
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
  // Budgets from the baseline plan (none to take them from when the verifier found no plan).
  let final: Record<string, unknown> = raw;
  let budgets: string | undefined;
  if (v.solvable === true && v.rounds !== null) {
    final = calibrateBudgets(raw, v);
    const limited = (final.mechanic_bindings as Array<Record<string, unknown>>).filter((b) => b.mechanic_type === 'limited_bandwidth');
    budgets = `turn_limit ${String(final.turn_limit)} (twice the baseline plan's ${v.rounds} rounds)${limited.length ? `; message budgets ${limited.map((b) => `${String(b.agent ?? 'every agent')} ${String(b.count)}`).join(', ')} (twice what each sends in the plan, at least 2)` : ''}`;
    const again = verifyTask(readEnactTomTask(final, where), { maxNodes: 60_000 });
    if (again.solvable !== true && !ablations.noCalibration)
      reasons.push(`budgets: with ${budgets} the verifier no longer solves the task`);
  }
  return { reasons, verify: summary(v), plan, final, ...(budgets ? { budgets } : {}) };
}
