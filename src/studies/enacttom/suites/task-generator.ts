// Procedural EnactToM-style tasks. A draft (task-draft.ts) is composed of a family's core
// (task-families.ts), extra goal parts (goal-parts.ts: more placements, switches, disjunctive
// and conditional goals, holding), decoy objects up to 1-6 objects, and an epistemic layer of
// the requested depth (epistemic-layer.ts: a chain, a fan of two chains, chains over several
// atoms, or a chain over a conjunction); then the communication graph (complete, chain or star),
// limited bandwidth for some agents, for mixed-motive tasks a private side objective, and
// per-agent action sets (agent-capabilities.ts), every constraint stated in the agent's secrets.
// Each candidate is written as EnactToM task JSON, read back through the same reader as released
// tasks, and verified with generous limits; its turn and message budgets are then set to twice
// the calibrated baseline plan's (as the paper does) and the task is verified again. It is kept
// only when the verifier solves it at exactly the requested ToM level, it calibrates, it needs
// communication, and none of its K goals is trivial.

import { createRng, type Rng } from '../../../core/index.js';
import { kDepth, readEnactTomTask, verifyTask, type EmbodiedTask, type VerifyResult } from '../world/index.js';
import { assignActions, type CapabilityMode } from './agent-capabilities.js';
import { addKnowledge, KNOWLEDGE_SHAPES, type KnowledgeShape } from './epistemic-layer.js';
import { addPart, partObjects, type GoalPart } from './goal-parts.js';
import { TaskDraft } from './task-draft.js';
import { draftFamily, familyAllowsInto, familyObjects, TASK_FAMILIES, type TaskFamily } from './task-families.js';

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
  /** Objects in the scene, 1 to 6 (default: drawn; joint placement needs 2). */
  objects?: number;
  /** Extra goal parts beyond the family's (default: 0 to 3 drawn). */
  parts?: GoalPart[];
  /** The epistemic layer's shape (default: drawn). */
  knowledge?: KnowledgeShape;
  /** Per-agent action sets: everyone all actions, or varied (default: drawn, mostly varied). */
  capabilities?: CapabilityMode;
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
const BUDGET_SECRET = /^You can send at most \d+ messages? in the whole task\.$/;
const budgetSecret = (n: number) => `You can send at most ${n} message${n === 1 ? '' : 's'} in the whole task.`;

/** Objects the goal may have to move, the family's included. */
const MAX_MOVES = 3;

const PART_WEIGHTS: Array<[GoalPart, number]> = [
  ['place', 2.5],
  ['switch', 1.5],
  ['either', 1.5],
  ['conditional', 2],
  ['hold', 0.7],
];

function weighted<T>(rng: Rng, items: Array<[T, number]>): T {
  let x = rng.next() * items.reduce((s, [, w]) => s + w, 0);
  for (const [item, w] of items) if ((x -= w) < 0) return item;
  return items[items.length - 1]![0];
}

/** One candidate task as EnactToM JSON (not yet verified), with open budgets. */
export function draftTask(opts: GenerateTaskOptions, rng: Rng, id: string): Record<string, unknown> {
  const n = opts.agents;
  const family = opts.family ?? 'relay';
  const agents = Array.from({ length: n }, (_, i) => `agent_${i}`);
  const d = new TaskDraft(rng, agents, Math.max(4, n) + rng.int(2));
  const into = familyAllowsInto(family) && rng.next() < 0.35;
  const splitHands = family === 'relay' && !into && rng.next() < 0.4;
  draftFamily(family, d, { into, splitHands });
  const [informer, actor] = [agents[0]!, agents[1]!];
  const objects = Math.max(familyObjects(family), Math.min(6, opts.objects ?? familyObjects(family) + rng.int(7 - familyObjects(family))));
  // An extra mechanic on relay tasks: the source wired in reverse, or locked behind a lever.
  let mechanic: 'none' | 'inverse_state' | 'remote_control' =
    family === 'relay' ? (opts.mechanic ?? (['none', 'none', 'inverse_state', 'remote_control'] as const)[rng.int(4)]!) : 'none';
  const source = d.box(d.rooms[0]!).id;
  const opener = splitHands ? informer : actor;
  const lever = mechanic === 'remote_control' ? d.free({ container: true, not: [d.rooms[0]!, ...d.barred[opener]!] }) : undefined;
  if (mechanic === 'remote_control' && !lever) mechanic = 'none';
  if (mechanic === 'inverse_state') {
    d.bindings.push({ mechanic_type: 'inverse_state', trigger_object: source, target_object: null, target_state: null, count: null });
    d.secrets[opener]!.push(`${source} is wired in reverse: Open closes it and Close opens it.`);
  }
  if (lever) {
    d.bindings.push({
      mechanic_type: 'remote_control',
      trigger_object: lever.id,
      target_object: source,
      target_state: 'open',
      count: null,
    });
    d.secrets[opener]!.push(`${source} is locked shut from inside; opening ${lever.id} in ${lever.room} remotely opens ${source}.`);
    d.init.push(`(is_locked ${source})`);
    d.act(opener, [lever.room], ['Open']);
  }
  // Extra goal parts, as many as the objects allow; objects to move at most MAX_MOVES in all
  // (fewer in large teams), as longer plans outgrow the verifier's search.
  const wanted = opts.parts ?? Array.from({ length: rng.pick([0, 1, 1, 2, 2, 3]) }, () => weighted(rng, PART_WEIGHTS));
  const parts: GoalPart[] = [];
  let moves = familyObjects(family) + (splitHands ? 1 : 0);
  for (const p of wanted) {
    const fits = partObjects(p) <= objects - d.objects.length && moves + partObjects(p) <= (n >= 5 ? MAX_MOVES - 1 : MAX_MOVES);
    // A part that does not fit becomes a switch, or (half the time) is left out.
    const kind = fits ? p : rng.next() < 0.5 ? 'switch' : null;
    if (kind && addPart(d, kind)) {
      parts.push(kind);
      moves += partObjects(kind);
    }
  }
  // Decoys up to the object count.
  while (d.objects.length < objects) {
    const f = rng.pick(d.furniture);
    d.init.push(`(${f.container ? 'is_inside' : 'is_on_top'} ${d.thing()} ${f.id})`);
  }
  const shape =
    opts.knowledge ??
    weighted(
      rng,
      KNOWLEDGE_SHAPES.map((s): [KnowledgeShape, number] => [s, s === 'chain' ? 1.4 : 1]),
    );
  const layer = addKnowledge(d, opts.depth, shape);
  // Communication: a chain or star restricts who may message whom (3+ agents).
  // (A chain through five or six agents is drawn less often: its plans outgrow the search.)
  const graph =
    opts.graph ??
    (n >= 3
      ? weighted(rng, [
          ['complete', 1],
          ['chain', n >= 5 ? 0.4 : 1],
          ['star', 1],
        ] as Array<['complete' | 'chain' | 'star', number]>)
      : 'complete');
  const messageTargets: Record<string, string[]> = {};
  const relays = new Set<string>();
  if (graph === 'chain') {
    // The informer's word has to travel through the others to the actor.
    const order = [informer, ...agents.filter((a) => a !== informer && a !== actor), actor];
    order.forEach((a, i) => (messageTargets[a] = [order[i - 1], order[i + 1]].filter((x): x is string => !!x)));
    for (const a of order.slice(1, -1)) relays.add(a);
  }
  if (graph === 'star') {
    const hub = agents[n - 1]!;
    for (const a of agents) messageTargets[a] = a === hub ? agents.filter((b) => b !== hub) : [hub];
    relays.add(hub);
  }
  const privateGoals = { ...d.privateGoals };
  if (opts.category === 'mixed' && Object.keys(privateGoals).length === 0) {
    const who = agents[n - 1]!;
    const side = d.free({ container: true, not: d.barred[who] });
    if (side) {
      privateGoals[who] = `(is_open ${side.id})`;
      d.secrets[who]!.push(`Privately, you want ${side.id} in ${side.room} to end open; the others need not know.`);
      d.act(who, [side.room], ['Open']);
    } else {
      // Every container is spoken for: the side objective is where to end up.
      const room = d.rooms.filter((r) => !d.barred[who]!.includes(r)).at(-1)!;
      privateGoals[who] = `(agent_in_room ${who} ${room})`;
      d.secrets[who]!.push(`Privately, you want to end the task in ${room}; the others need not know.`);
      d.act(who, [room], []);
    }
  }
  for (const a of agents) if (d.barred[a]!.length) d.secrets[a]!.push(`You may not enter ${d.barred[a]!.join(', ')}.`);
  const spawn: Record<string, string> = {};
  for (const a of agents) {
    const free = d.rooms.filter((r) => !d.barred[a]!.includes(r));
    spawn[a] = free[rng.int(free.length)]!;
  }
  const capabilities = opts.capabilities ?? (rng.next() < 0.8 ? 'varied' : 'full');
  const talkers = new Set([informer, ...relays, ...layer.chains.flat()]);
  const actions = assignActions(d, capabilities, talkers, spawn);
  const talks = (a: string) => actions[a]!.includes('Communicate');
  const bindings: Array<Record<string, unknown>> = [];
  // Limited bandwidth for every agent or, now and then, for only some.
  const limited = (rng.next() < 0.75 ? agents : agents.filter(() => rng.next() < 0.5)).filter(talks);
  for (const a of limited) {
    bindings.push({ mechanic_type: 'limited_bandwidth', agent: a, count: opts.budget ?? OPEN_BUDGET });
    d.secrets[a]!.push(budgetSecret(opts.budget ?? OPEN_BUDGET));
  }
  if (graph !== 'complete') {
    bindings.push({ mechanic_type: 'restricted_communication' });
    for (const a of agents) if (talks(a)) d.secrets[a]!.push(`You can send messages only to ${messageTargets[a]!.join(', ')}.`);
  }
  for (const a of agents) if (d.barred[a]!.length) bindings.push({ mechanic_type: 'room_restriction', agent: a, rooms: d.barred[a] });
  bindings.push(...d.bindings);
  const physical = [...d.atoms.map((x) => x.text), ...d.clauses];
  const goal = `(and ${[...physical, ...layer.parts].join(' ')})`;
  const problem = [
    `(define (problem ${id})`,
    '  (:domain enacttom)',
    `  (:objects ${agents.join(' ')} - agent ${d.rooms.join(' ')} - room ${d.objects.join(' ')} - object ${d.furniture.map((f) => f.id).join(' ')} - furniture)`,
    `  (:init ${[...agents.map((a) => `(agent_in_room ${a} ${spawn[a]})`), ...d.furniture.map((f) => `(is_in_room ${f.id} ${f.room})`), ...d.containerStates(), ...d.init].join(' ')})`,
    `  (:goal ${goal})`,
    ')',
  ].join('\n');
  const category = family === 'mixed-motive' ? 'mixed' : opts.category;
  const along = layer.chains.map((ws) => ws.join(' -> '));
  return {
    task_id: id,
    title: `${d.title} (depth ${opts.depth})`,
    category,
    task: `${d.text.join(' ')} When it is done, the team must make sure of what each of you knows, along the chain${along.length > 1 ? 's' : ''} ${along.join('; ')}.`,
    scene_id: '',
    episode_id: id,
    active_mechanics: [...new Set(bindings.map((b) => b.mechanic_type))],
    mechanic_bindings: bindings,
    agent_secrets: d.secrets,
    agent_actions: actions,
    message_targets: messageTargets,
    private_goals: privateGoals,
    pddl_domain: 'enacttom',
    problem_pddl: problem,
    num_agents: n,
    turn_limit: OPEN_TURNS,
    generator: {
      ...opts,
      family,
      category,
      graph,
      mechanic,
      budget: opts.budget ?? null,
      objects: d.objects.length,
      parts,
      knowledge: layer.shape,
      capabilities,
      into,
      splitHands,
    },
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
 * what the baseline plan used (a fixed `budget` option, from evolution, is kept as given); the
 * agent's secret stating its budget says the new number.
 */
export function calibrateBudgets(json: Record<string, unknown>, baseline: VerifyResult, fixedBudget?: number): Record<string, unknown> {
  const sent = messagesPerAgent(baseline);
  const budgets = new Map<string, number>();
  const bindings = (json.mechanic_bindings as Array<Record<string, unknown>>).map((b) => {
    if (b.mechanic_type !== 'limited_bandwidth') return b;
    const count = fixedBudget ?? 2 * Math.max(1, sent.get(String(b.agent)) ?? 0);
    budgets.set(String(b.agent), count);
    return { ...b, count };
  });
  const secrets = Object.fromEntries(
    Object.entries(json.agent_secrets as Record<string, string[]>).map(([a, xs]) => [
      a,
      xs.map((x) => (BUDGET_SECRET.test(x) && budgets.has(a) ? budgetSecret(budgets.get(a)!) : x)),
    ]),
  );
  return { ...json, mechanic_bindings: bindings, agent_secrets: secrets, turn_limit: 2 * (baseline.rounds ?? OPEN_TURNS / 2) };
}

function acceptable(v: VerifyResult, task: EmbodiedTask, depth: number): boolean {
  return (
    v.solvable === true &&
    kDepth(task.goal) === depth &&
    v.minToMLevel === depth &&
    v.calibrates === true &&
    v.needsCommunication === true &&
    v.trivialK.length === 0
  );
}

/**
 * Search nodes a candidate gets per ToM level. A draft the search cannot decide within them is
 * dropped for the next one, so this bounds the time a candidate takes; levels above the
 * requested depth are not searched (a task must be solvable at exactly its depth).
 */
const CANDIDATE_NODES = 12_000;

/** Draft until one passes every check (or `maxAttempts` is reached). */
export function generateTask(opts: GenerateTaskOptions, rng: Rng, id: string, maxAttempts = 20): GeneratedTask {
  let last = '';
  const limits = { maxNodes: CANDIDATE_NODES, maxLevel: opts.depth };
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const open = draftTask(opts, rng, id);
    const baseline = verifyTask(readEnactTomTask(open, id), limits);
    if (acceptable(baseline, readEnactTomTask(open, id), opts.depth)) {
      const json = calibrateBudgets(open, baseline, opts.budget);
      const task = readEnactTomTask(json, id);
      const verify = verifyTask(task, limits);
      if (acceptable(verify, task, opts.depth)) return { json, task, verify, attempts: attempt };
      last = `after budgets: ${JSON.stringify({ solvable: verify.solvable, explanations: verify.explanations })}`;
      continue;
    }
    last = JSON.stringify({
      solvable: baseline.solvable,
      minToMLevel: baseline.minToMLevel,
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
