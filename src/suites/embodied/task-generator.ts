// Procedural EnactToM-style tasks: a household of rooms, furniture and objects; an object
// that must go onto a surface whose identity only one agent knows, while that agent cannot do
// it (barred from the room or without hands); an epistemic chain of the requested depth over
// the placement, ending at agents who cannot see the target room; message budgets, a
// communication graph for three or more agents, and now and then a mechanic; for mixed-motive
// tasks a private side objective. Each candidate is written as EnactToM task JSON, read back
// through the same reader as released tasks, and kept only when the verifier solves it at the
// requested depth within its turn limit, it calibrates, it needs communication, and none of
// its K goals is trivial.

import { createRng, type Rng } from '../../core/index.js';
import { formatFormula, kDepth, readEnactTomTask, verifyTask, type EmbodiedTask, type VerifyResult } from '../../worlds/index.js';

export interface GenerateTaskOptions {
  depth: 1 | 2 | 3;
  category: 'cooperative' | 'mixed';
  agents: 2 | 3 | 4;
  /** Optional biases (difficulty evolution): message budget per agent, graph shape, mechanic. */
  budget?: number;
  graph?: 'complete' | 'chain';
  mechanic?: 'none' | 'inverse_state' | 'remote_control';
}

export interface GeneratedTask {
  json: Record<string, unknown>;
  task: EmbodiedTask;
  verify: VerifyResult;
  attempts: number;
}

const ROOMS = ['kitchen', 'bedroom', 'living_room', 'bathroom', 'office', 'hallway'];
const CONTAINERS = ['cabinet', 'fridge', 'wardrobe', 'chest', 'drawer'];
const SURFACES = ['table', 'counter', 'shelf', 'stand', 'desk'];
const THINGS = ['cup', 'bowl', 'laptop', 'book', 'vase', 'plate', 'toy_truck', 'spectacles'];

/** One candidate task as EnactToM JSON (not yet verified). */
export function draftTask(opts: GenerateTaskOptions, rng: Rng, id: string): Record<string, unknown> {
  const n = opts.agents;
  let serial = 10 + rng.int(20);
  const next = (kind: string) => `${kind}_${serial++}`;
  const rooms = rng
    .shuffle(ROOMS)
    .slice(0, Math.max(3, n))
    .map((r) => `${r}_1`);
  const furniture: Array<{ id: string; room: string; container: boolean }> = [];
  for (const room of rooms) {
    furniture.push({ id: next(rng.pick(CONTAINERS)), room, container: true });
    furniture.push({ id: next(rng.pick(SURFACES)), room, container: false });
  }
  const agents = Array.from({ length: n }, (_, i) => `agent_${i}`);
  // Roles: the informer knows the target surface but cannot place; the actor can, but does not know it.
  const [informer, actor] = [agents[0]!, agents[1]!];
  const [roomA, roomB] = [rooms[0]!, rooms[1]!];
  const source = furniture.find((f) => f.room === roomA && f.container)!;
  const target = furniture.find((f) => f.room === roomB && !f.container)!;
  const decoy = furniture.find((f) => f.room === rooms[2] && !f.container)!;
  const thing = next(rng.pick(THINGS));
  const other = next(rng.pick(THINGS));
  const spawn: Record<string, string> = Object.fromEntries(agents.map((a) => [a, rooms[rng.int(rooms.length)]!]));
  const barred: Record<string, string[]> = Object.fromEntries(agents.map((a) => [a, [] as string[]]));
  barred[informer]!.push(roomB);
  if (spawn[informer] === roomB) spawn[informer] = roomA;
  // The epistemic chain: (K w_d ... (K w_1 phi)), phi the placement; w_1 cannot see roomB.
  const phi = `(is_on_top ${thing} ${target.id})`;
  const witnesses: string[] = [];
  for (let k = 0; k < opts.depth; k++) {
    // The innermost witness cannot see the placement; outer ones know about a partner's knowledge.
    const pool = agents.filter((a) => a !== witnesses[k - 1]);
    witnesses.push(k === 0 ? informer : pool[rng.int(pool.length)]!);
  }
  let goal = phi;
  for (const w of witnesses) goal = `(K ${w} ${goal})`;
  const shared = `(and ${phi} ${goal})`;
  const secrets: Record<string, string[]> = Object.fromEntries(agents.map((a) => [a, [] as string[]]));
  secrets[informer]!.push(`The ${thing.replace(/_\d+$/, '')} (${thing}) must end up on ${target.id} in ${roomB}.`);
  secrets[actor]!.push(`You know ${thing} is stored inside ${source.id} in ${roomA}.`);
  for (const a of agents) if (barred[a]!.length) secrets[a]!.push(`You may not enter ${barred[a]!.join(', ')}.`);
  // Communication: budgets enough for a relay along the chain, a chain graph for 3+ agents now and then.
  const graph = opts.graph ?? (n >= 3 && rng.next() < 0.5 ? 'chain' : 'complete');
  const order = graph === 'chain' ? [informer, actor, ...agents.slice(2)] : agents;
  const messageTargets: Record<string, string[]> = {};
  if (graph === 'chain') order.forEach((a, i) => (messageTargets[a] = [order[i - 1], order[i + 1]].filter((x): x is string => !!x)));
  const budget = opts.budget ?? 2 + opts.depth + (graph === 'chain' ? n : 0);
  const mechanic = opts.mechanic ?? (['none', 'none', 'inverse_state', 'remote_control'] as const)[rng.int(4)];
  const bindings: Array<Record<string, unknown>> = [{ mechanic_type: 'limited_bandwidth', count: budget }];
  for (const a of agents) if (barred[a]!.length) bindings.push({ mechanic_type: 'room_restriction', agent: a, rooms: barred[a] });
  if (mechanic === 'inverse_state') {
    bindings.push({ mechanic_type: 'inverse_state', trigger_object: source.id, target_object: null, target_state: null, count: null });
    secrets[actor]!.push(`${source.id} is wired in reverse: Open closes it and Close opens it.`);
  }
  if (mechanic === 'remote_control') {
    const lever = furniture.find((f) => f.room === rooms[rooms.length - 1] && f.container)!;
    bindings.push({
      mechanic_type: 'remote_control',
      trigger_object: lever.id,
      target_object: source.id,
      target_state: 'open',
      count: null,
    });
    secrets[actor]!.push(`${source.id} is locked shut from inside; opening ${lever.id} in ${lever.room} remotely opens ${source.id}.`);
  }
  const privateGoals: Record<string, string> = {};
  if (opts.category === 'mixed') {
    const side = furniture.find((f) => f.container && f.id !== source.id && !bindings.some((b) => b.trigger_object === f.id))!;
    const who = agents[n - 1]!;
    privateGoals[who] = `(is_open ${side.id})`;
    secrets[who]!.push(`Privately, you want ${side.id} in ${side.room} to end open; the others need not know.`);
  }
  const init = [
    ...agents.map((a) => `(agent_in_room ${a} ${spawn[a]})`),
    ...furniture.map((f) => `(is_in_room ${f.id} ${f.room})`),
    ...furniture.filter((f) => f.container).map((f) => `(is_closed ${f.id})`),
    `(is_inside ${thing} ${source.id})`,
    `(is_on_top ${other} ${decoy.id})`,
  ];
  if (mechanic === 'remote_control') init.push(`(is_locked ${source.id})`);
  const problem = [
    `(define (problem ${id})`,
    '  (:domain enacttom)',
    `  (:objects ${agents.join(' ')} - agent ${rooms.join(' ')} - room ${thing} ${other} - object ${furniture.map((f) => f.id).join(' ')} - furniture)`,
    `  (:init ${init.join(' ')})`,
    `  (:goal ${shared})`,
    ')',
  ].join('\n');
  const actions = Object.fromEntries(agents.map((a) => [a, ['Navigate', 'Open', 'Close', 'Pick', 'Place', 'Communicate', 'Wait']]));
  return {
    task_id: id,
    title: `Relay the ${thing.replace(/_\d+$/, '')} (depth ${opts.depth})`,
    category: opts.category,
    task: `The ${thing.replace(/_\d+$/, '')} (${thing}) has to be placed on the right surface in ${roomB}; only one of you knows which. ${witnesses.length ? `When it is done, the team must make sure of what each of you knows: ${formatFormula({ op: 'pred', name: 'is_on_top', args: [thing, 'TARGET'] }).replace('TARGET', 'the target')} must be known along the chain ${witnesses.join(' -> ')}.` : ''}`,
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
    turn_limit: 12 + 4 * opts.depth + 2 * n,
    generator: { ...opts, budget, graph, mechanic },
  };
}

/** Draft until one passes every check (or `maxAttempts` is reached). */
export function generateTask(opts: GenerateTaskOptions, rng: Rng, id: string, maxAttempts = 20): GeneratedTask {
  let last = '';
  for (let attempt = 1; attempt <= maxAttempts; attempt++) {
    const json = draftTask(opts, rng, id);
    const task = readEnactTomTask(json, id);
    const verify = verifyTask(task, { maxNodes: 60_000 });
    const ok =
      verify.solvable === true &&
      kDepth(task.goal) === opts.depth &&
      verify.calibrates === true &&
      verify.needsCommunication === true &&
      verify.trivialK.length === 0;
    if (ok) return { json, task, verify, attempts: attempt };
    last = JSON.stringify({
      solvable: verify.solvable,
      calibrates: verify.calibrates,
      needsCommunication: verify.needsCommunication,
      trivialK: verify.trivialK,
      explanations: verify.explanations,
    });
  }
  throw new Error(`no task passed the checks in ${maxAttempts} attempts (${JSON.stringify(opts)}); last: ${last}`);
}

/** N tasks cycling through depths 1-3, both categories and 2-4 agents (or fixed ones), seeded. */
export function generateTasks(opts: {
  n: number;
  seed: number;
  depth?: 1 | 2 | 3;
  category?: 'cooperative' | 'mixed';
  agents?: 2 | 3 | 4;
  pick?: (i: number, rng: Rng) => Partial<GenerateTaskOptions>;
}): GeneratedTask[] {
  const rng = createRng(`embodied-generate:${opts.seed}`);
  return Array.from({ length: opts.n }, (_, i) => {
    const biased = opts.pick?.(i, rng) ?? {};
    const o: GenerateTaskOptions = {
      depth: opts.depth ?? (((i % 3) + 1) as 1 | 2 | 3),
      category: opts.category ?? (Math.floor(i / 3) % 2 === 0 ? 'cooperative' : 'mixed'),
      agents: opts.agents ?? (((Math.floor(i / 6) % 3) + 2) as 2 | 3 | 4),
      ...biased,
    };
    return generateTask(o, rng, `gen-${opts.seed}-${String(i).padStart(4, '0')}`);
  });
}
