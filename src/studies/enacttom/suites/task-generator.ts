// Procedural EnactToM-style tasks. A family (task-families.ts) sets the scene, the secrets,
// the mechanics and the physical goal; this file adds an epistemic chain of the requested
// depth (1-4) over the family's first goal atom, ending at an agent who cannot see it, the
// communication graph (complete, chain or star: restricted communication), limited bandwidth
// for some agents, and for mixed-motive tasks a private side objective. Each candidate is
// written as EnactToM task JSON, read back through the same reader as released tasks, and
// verified with generous limits; its turn and message budgets are then set to twice the
// calibrated baseline plan's (as the paper does) and the task is verified again. It is kept
// only when the verifier solves it at the requested depth, it calibrates, it needs
// communication, and none of its K goals is trivial.

import { createRng, type Rng } from '../../../core/index.js';
import { kDepth, readEnactTomTask, verifyTask, type EmbodiedTask, type VerifyResult } from '../world/index.js';
import { draftFamily, TASK_FAMILIES, type TaskFamily } from './task-families.js';

export type TaskDepth = 1 | 2 | 3 | 4;
export type TaskAgents = 2 | 3 | 4 | 5 | 6;

export interface GenerateTaskOptions {
  depth: TaskDepth;
  category: 'cooperative' | 'mixed';
  agents: TaskAgents;
  /** The task family (default: relay). */
  family?: TaskFamily;
  /** Optional biases (difficulty evolution): a fixed message budget, graph shape, an extra mechanic on relay tasks. */
  budget?: number;
  graph?: 'complete' | 'chain' | 'star';
  mechanic?: 'none' | 'inverse_state' | 'remote_control';
}

export interface GeneratedTask {
  json: Record<string, unknown>;
  task: EmbodiedTask;
  verify: VerifyResult;
  attempts: number;
}

/** Generous limits for the calibration pass, before budgets are set from its plan. */
const OPEN_TURNS = 40;
const OPEN_BUDGET = 12;

/** One candidate task as EnactToM JSON (not yet verified), with open budgets. */
export function draftTask(opts: GenerateTaskOptions, rng: Rng, id: string): Record<string, unknown> {
  const n = opts.agents;
  const family = opts.family ?? 'relay';
  const agents = Array.from({ length: n }, (_, i) => `agent_${i}`);
  const d = draftFamily(family, agents, rng);
  const { informer, actor } = d.roles;
  const spawn: Record<string, string> = {};
  for (const a of agents) {
    const free = d.rooms.filter((r) => !d.barred[a]!.includes(r));
    spawn[a] = free[rng.int(free.length)]!;
  }
  // The epistemic chain (K w_d ... (K w_1 phi)): w_1 cannot see phi; consecutive witnesses differ.
  const phi = d.atoms[0]!;
  const witnesses: string[] = [informer];
  for (let k = 1; k < opts.depth; k++) {
    const pool = agents.filter((a) => a !== witnesses[k - 1]);
    witnesses.push(pool[rng.int(pool.length)]!);
  }
  let chain = phi;
  for (const w of witnesses) chain = `(K ${w} ${chain})`;
  const goal = `(and ${d.atoms.join(' ')} ${chain})`;
  for (const a of agents) if (d.barred[a]!.length) d.secrets[a]!.push(`You may not enter ${d.barred[a]!.join(', ')}.`);
  // Communication: a chain or star restricts who may message whom (3+ agents).
  const graph = opts.graph ?? (n >= 3 ? rng.pick(['complete', 'chain', 'star'] as const) : 'complete');
  const messageTargets: Record<string, string[]> = {};
  if (graph === 'chain') {
    // The informer's word has to travel through the others to the actor.
    const order = [informer, ...agents.filter((a) => a !== informer && a !== actor), actor];
    order.forEach((a, i) => (messageTargets[a] = [order[i - 1], order[i + 1]].filter((x): x is string => !!x)));
  }
  if (graph === 'star') {
    const hub = agents[n - 1]!;
    for (const a of agents) messageTargets[a] = a === hub ? agents.filter((b) => b !== hub) : [hub];
  }
  const bindings: Array<Record<string, unknown>> = [];
  // Limited bandwidth for every agent or, now and then, for only some.
  const limited = rng.next() < 0.75 ? agents : agents.filter(() => rng.next() < 0.5);
  for (const a of limited) bindings.push({ mechanic_type: 'limited_bandwidth', agent: a, count: opts.budget ?? OPEN_BUDGET });
  if (graph !== 'complete') bindings.push({ mechanic_type: 'restricted_communication' });
  for (const a of agents) if (d.barred[a]!.length) bindings.push({ mechanic_type: 'room_restriction', agent: a, rooms: d.barred[a] });
  bindings.push(...d.bindings);
  const secrets = d.secrets;
  const mechanic =
    family === 'relay' ? (opts.mechanic ?? (['none', 'none', 'inverse_state', 'remote_control'] as const)[rng.int(4)]) : 'none';
  const source = (d.init.find((x) => x.startsWith('(is_inside ')) ?? '').slice(1, -1).split(' ')[2] ?? '';
  const init = [...d.init];
  if (mechanic === 'inverse_state') {
    bindings.push({ mechanic_type: 'inverse_state', trigger_object: source, target_object: null, target_state: null, count: null });
    secrets[actor]!.push(`${source} is wired in reverse: Open closes it and Close opens it.`);
  }
  if (mechanic === 'remote_control') {
    const lever = d.furniture.find((f) => f.room === d.rooms[d.rooms.length - 1] && f.container)!;
    bindings.push({ mechanic_type: 'remote_control', trigger_object: lever.id, target_object: source, target_state: 'open', count: null });
    secrets[actor]!.push(`${source} is locked shut from inside; opening ${lever.id} in ${lever.room} remotely opens ${source}.`);
    init.push(`(is_locked ${source})`);
  }
  const privateGoals = { ...d.privateGoals };
  if (opts.category === 'mixed' && Object.keys(privateGoals).length === 0) {
    const used = new Set(bindings.flatMap((b) => [b.trigger_object, b.target_object]));
    const side = d.furniture.find((f) => f.container && f.id !== source && !used.has(f.id) && !d.atoms.some((x) => x.includes(f.id)));
    const who = agents[n - 1]!;
    if (side) {
      privateGoals[who] = `(is_open ${side.id})`;
      secrets[who]!.push(`Privately, you want ${side.id} in ${side.room} to end open; the others need not know.`);
    } else {
      // Every container is spoken for: the side objective is where to end up.
      const room = d.rooms.filter((r) => !d.barred[who]!.includes(r)).at(-1)!;
      privateGoals[who] = `(agent_in_room ${who} ${room})`;
      secrets[who]!.push(`Privately, you want to end the task in ${room}; the others need not know.`);
    }
  }
  const objects = d.furniture.map((f) => f.id);
  const problem = [
    `(define (problem ${id})`,
    '  (:domain enacttom)',
    `  (:objects ${agents.join(' ')} - agent ${d.rooms.join(' ')} - room ${d.objects.join(' ')} - object ${objects.join(' ')} - furniture)`,
    `  (:init ${[...agents.map((a) => `(agent_in_room ${a} ${spawn[a]})`), ...d.furniture.map((f) => `(is_in_room ${f.id} ${f.room})`), ...init].join(' ')})`,
    `  (:goal ${goal})`,
    ')',
  ].join('\n');
  const actions = Object.fromEntries(agents.map((a) => [a, ['Navigate', 'Open', 'Close', 'Pick', 'Place', 'Communicate', 'Wait']]));
  const category = family === 'mixed-motive' ? 'mixed' : opts.category;
  return {
    task_id: id,
    title: `${d.title} (depth ${opts.depth})`,
    category,
    task: `${d.text} When it is done, the team must make sure of what each of you knows, along the chain ${witnesses.join(' -> ')}.`,
    scene_id: '',
    episode_id: id,
    active_mechanics: [...new Set(bindings.map((b) => b.mechanic_type))],
    mechanic_bindings: bindings,
    agent_secrets: secrets,
    agent_actions: actions,
    message_targets: messageTargets,
    private_goals: privateGoals,
    pddl_domain: 'enacttom',
    problem_pddl: problem,
    num_agents: n,
    turn_limit: OPEN_TURNS,
    generator: { ...opts, family, category, graph, mechanic, budget: opts.budget ?? null },
  };
}

/** Messages each agent sends in a plan. */
function messagesPerAgent(v: VerifyResult): Map<string, number> {
  const out = new Map<string, number>();
  for (const p of v.plan ?? []) if (p.action.type === 'Communicate') out.set(p.agent, (out.get(p.agent) ?? 0) + 1);
  return out;
}

/**
 * Budgets from calibration: the turn limit and each limited agent's message budget set to twice
 * what the baseline plan used (a fixed `budget` option, from evolution, is kept as given).
 */
export function calibrateBudgets(json: Record<string, unknown>, baseline: VerifyResult, fixedBudget?: number): Record<string, unknown> {
  const sent = messagesPerAgent(baseline);
  const bindings = (json.mechanic_bindings as Array<Record<string, unknown>>).map((b) =>
    b.mechanic_type === 'limited_bandwidth' ? { ...b, count: fixedBudget ?? 2 * Math.max(1, sent.get(String(b.agent)) ?? 0) } : b,
  );
  return { ...json, mechanic_bindings: bindings, turn_limit: 2 * (baseline.rounds ?? OPEN_TURNS / 2) };
}

function acceptable(v: VerifyResult, task: EmbodiedTask, depth: number): boolean {
  return (
    v.solvable === true && kDepth(task.goal) === depth && v.calibrates === true && v.needsCommunication === true && v.trivialK.length === 0
  );
}

/** Draft until one passes every check (or `maxAttempts` is reached). */
export function generateTask(opts: GenerateTaskOptions, rng: Rng, id: string, maxAttempts = 20): GeneratedTask {
  let last = '';
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const open = draftTask(opts, rng, id);
    const baseline = verifyTask(readEnactTomTask(open, id), { maxNodes: 60_000 });
    if (acceptable(baseline, readEnactTomTask(open, id), opts.depth)) {
      const json = calibrateBudgets(open, baseline, opts.budget);
      const task = readEnactTomTask(json, id);
      const verify = verifyTask(task, { maxNodes: 60_000 });
      if (acceptable(verify, task, opts.depth)) return { json, task, verify, attempts: attempt };
      last = `after budgets: ${JSON.stringify({ solvable: verify.solvable, explanations: verify.explanations })}`;
      continue;
    }
    last = JSON.stringify({
      solvable: baseline.solvable,
      calibrates: baseline.calibrates,
      needsCommunication: baseline.needsCommunication,
      trivialK: baseline.trivialK,
      explanations: baseline.explanations,
    });
  }
  throw new Error(`no task passed the checks in ${maxAttempts} attempts (${JSON.stringify(opts)}); last: ${last}`);
}

/** The settings of the i-th task of a mixed pool: families, depths 1-4, both categories, 2-6 agents in rotation. */
export function poolSettings(i: number): GenerateTaskOptions {
  return {
    family: TASK_FAMILIES[i % TASK_FAMILIES.length]!,
    depth: ((Math.floor(i / TASK_FAMILIES.length) % 4) + 1) as TaskDepth,
    category: Math.floor(i / 24) % 2 === 0 ? 'cooperative' : 'mixed',
    agents: ((Math.floor(i / 2) % 5) + 2) as TaskAgents,
  };
}

/** N tasks cycling through the families, depths 1-4, both categories and 2-6 agents (or fixed ones), seeded. */
export function generateTasks(opts: {
  n: number;
  seed: number;
  depth?: TaskDepth;
  category?: 'cooperative' | 'mixed';
  agents?: TaskAgents;
  family?: TaskFamily;
  pick?: (i: number, rng: Rng) => Partial<GenerateTaskOptions>;
}): GeneratedTask[] {
  const rng = createRng(`embodied-generate:${opts.seed}`);
  return Array.from({ length: opts.n }, (_, i) => {
    const biased = opts.pick?.(i, rng) ?? {};
    const dflt = poolSettings(i);
    const o: GenerateTaskOptions = {
      family: opts.family ?? dflt.family,
      depth: opts.depth ?? dflt.depth,
      category: opts.category ?? dflt.category,
      agents: opts.agents ?? dflt.agents,
      ...biased,
    };
    return generateTask(o, rng, `gen-${opts.seed}-${String(i).padStart(4, '0')}`);
  });
}
