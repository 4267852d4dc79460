// An embodied task as mindscope holds it: the scene (rooms, furniture, objects and their
// states), agents with spawns, allowed actions, room restrictions, message budgets and
// communication graph, public text and per-agent secrets, mechanics, the goal formula, private
// goals (mixed-motive), the turn limit, and the structured knowledge the secrets and the public
// text convey (what the verifier and the reference agents reason over). `validateTask` checks
// every reference; the EnactToM reader (enacttom-format.ts) produces this shape.

import { InputError } from '../../../core/errors.js';
import { formatFormula, PREDICATES, predicates, type Formula } from './goal.js';

export const ACTIONS = ['Navigate', 'Open', 'Close', 'Pick', 'Place', 'Communicate', 'Wait', 'Done'] as const;
export type ActionName = (typeof ACTIONS)[number];

export const MECHANICS = [
  'room_restriction',
  'limited_bandwidth',
  'restricted_communication',
  'remote_control',
  'state_mirroring',
  'inverse_state',
] as const;
export type MechanicType = (typeof MECHANICS)[number];

export interface Furniture {
  id: string;
  room: string;
  openable: boolean;
  open: boolean;
  locked: boolean;
}

export interface SceneObject {
  id: string;
  /** Where it starts: on or inside a piece of furniture, or held by an agent. */
  at: { rel: 'on' | 'in'; furniture: string } | { rel: 'held'; agent: string };
}

export interface EmbodiedAgent {
  id: string;
  room: string;
  actions: ActionName[];
  barredRooms: string[];
  /** Messages it may send in the episode; null: unlimited. */
  messageBudget: number | null;
  /** Agents it may message; null: everyone. */
  messageTargets: string[] | null;
  secrets: string[];
  /** Mixed-motive side objective, private to this agent. */
  privateGoal?: Formula;
}

export interface MechanicBinding {
  type: MechanicType;
  /** remote_control, state_mirroring, inverse_state: the furniture acted on. */
  trigger?: string;
  /** remote_control, state_mirroring: the furniture that changes with it, unseen. */
  target?: string;
  /** remote_control: the state the target takes. */
  targetState?: 'open' | 'closed';
}

/**
 * A piece of knowledge in structured form: `task` (goal atom `atom` is required: the target
 * identities), `loc` (where `object` is), `mechanic` (how binding `index` behaves).
 */
export type KnowledgeFact = { kind: 'task'; atom: number } | { kind: 'loc'; object: string } | { kind: 'mechanic'; index: number };

export interface EmbodiedTask {
  id: string;
  title: string;
  category: 'cooperative' | 'mixed';
  /** Public task text every agent reads. */
  text: string;
  rooms: string[];
  furniture: Furniture[];
  objects: SceneObject[];
  agents: EmbodiedAgent[];
  mechanics: MechanicBinding[];
  goal: Formula;
  turnLimit: number;
  /** What everyone knows from the public text, and what each agent knows from its secrets. */
  knowledge: { public: KnowledgeFact[]; private: Record<string, KnowledgeFact[]> };
  /** Where it came from and anything derived on loading. */
  source: { format: 'enacttom' | 'mindscope'; notes: string[]; generator?: Record<string, unknown> };
}

/**
 * Whether a value read back from a store has the shape of an EmbodiedTask (the task an episode
 * item carries). The store wrote it from a validated task, so the top-level fields suffice.
 */
export function isEmbodiedTask(x: unknown): x is EmbodiedTask {
  if (typeof x !== 'object' || x === null) return false;
  const t = x as Record<string, unknown>;
  return (
    typeof t.id === 'string' &&
    Array.isArray(t.rooms) &&
    Array.isArray(t.furniture) &&
    Array.isArray(t.objects) &&
    Array.isArray(t.agents) &&
    Array.isArray(t.mechanics) &&
    typeof t.goal === 'object' &&
    typeof t.turnLimit === 'number' &&
    typeof t.knowledge === 'object' &&
    typeof t.source === 'object'
  );
}

/** The goal's physical atoms with every epistemic operator stripped, deduplicated: what `task` facts index. */
export function goalAtoms(task: Pick<EmbodiedTask, 'goal'>): Array<Extract<Formula, { op: 'pred' }>> {
  const seen = new Set<string>();
  return predicates(task.goal).filter((p) => {
    const key = formatFormula(p);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Every reference checked; the first problem found is thrown, naming the task and the field. */
export function validateTask(t: EmbodiedTask, where = t.id): void {
  const fail = (msg: string): never => {
    throw new InputError(msg, where);
  };
  if (t.rooms.length === 0) fail('no rooms');
  if (t.agents.length === 0) fail('no agents');
  const rooms = new Set(t.rooms);
  const furniture = new Map(t.furniture.map((f) => [f.id, f]));
  const objects = new Set(t.objects.map((o) => o.id));
  const agents = new Set(t.agents.map((a) => a.id));
  const ids = [...t.rooms, ...t.furniture.map((f) => f.id), ...t.objects.map((o) => o.id), ...t.agents.map((a) => a.id)];
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) fail(`the id "${dup}" is used twice`);
  for (const f of t.furniture) if (!rooms.has(f.room)) fail(`furniture ${f.id} is in the undefined room "${f.room}"`);
  const held = new Set<string>();
  for (const o of t.objects) {
    if (o.at.rel === 'held') {
      if (!agents.has(o.at.agent)) fail(`object ${o.id} is held by the undefined agent "${o.at.agent}"`);
      if (held.has(o.at.agent)) fail(`agent ${o.at.agent} holds two objects`);
      held.add(o.at.agent);
    } else {
      const f = furniture.get(o.at.furniture);
      if (!f) fail(`object ${o.id} is ${o.at.rel === 'on' ? 'on' : 'inside'} the unknown furniture "${o.at.furniture}"`);
      if (o.at.rel === 'in' && !f!.openable) fail(`object ${o.id} is inside ${f!.id}, which cannot be opened`);
    }
  }
  for (const a of t.agents) {
    if (!rooms.has(a.room)) fail(`agent ${a.id} spawns in the undefined room "${a.room}"`);
    for (const r of a.barredRooms) if (!rooms.has(r)) fail(`agent ${a.id} is barred from the undefined room "${r}"`);
    if (a.barredRooms.includes(a.room)) fail(`agent ${a.id} spawns in a room it is barred from (${a.room})`);
    for (const x of a.actions) if (!(ACTIONS as readonly string[]).includes(x)) fail(`agent ${a.id} has the unknown action "${x}"`);
    for (const m of a.messageTargets ?? []) if (!agents.has(m)) fail(`agent ${a.id} may message the undefined agent "${m}"`);
    if (a.messageBudget !== null && !(Number.isInteger(a.messageBudget) && a.messageBudget >= 0))
      fail(`agent ${a.id}: message budget must be a whole number`);
    if (a.privateGoal) checkFormula(a.privateGoal, `private goal of ${a.id}`);
  }
  t.mechanics.forEach((m, i) => {
    if (!(MECHANICS as readonly string[]).includes(m.type)) fail(`mechanic ${i}: unknown type "${m.type}"`);
    if (m.type === 'remote_control' || m.type === 'state_mirroring' || m.type === 'inverse_state') {
      if (!m.trigger) fail(`mechanic ${i} (${m.type}) has no trigger object`);
      const f = furniture.get(m.trigger!);
      if (!f) fail(`mechanic ${i} (${m.type}) is bound to the missing object "${m.trigger}"`);
      if (!f!.openable) fail(`mechanic ${i} (${m.type}): ${m.trigger} cannot be opened or closed`);
    }
    if (m.type === 'remote_control' || m.type === 'state_mirroring') {
      if (!m.target) fail(`mechanic ${i} (${m.type}) has no target object`);
      const f = furniture.get(m.target!);
      if (!f) fail(`mechanic ${i} (${m.type}) is bound to the missing object "${m.target}"`);
      if (!f!.openable) fail(`mechanic ${i} (${m.type}): ${m.target} cannot be opened or closed`);
    }
    if (m.type === 'remote_control' && m.targetState !== 'open' && m.targetState !== 'closed')
      fail(`mechanic ${i} (remote_control): target state must be open or closed`);
  });
  function checkFormula(f: Formula, what: string): void {
    const entity = (name: string, kind: string) => {
      const ok =
        kind === 'object'
          ? objects.has(name)
          : kind === 'furniture'
            ? furniture.has(name)
            : kind === 'room'
              ? rooms.has(name)
              : kind === 'agent'
                ? agents.has(name)
                : rooms.has(name) || furniture.has(name) || objects.has(name) || agents.has(name);
      if (!ok) fail(`${what} names the unknown ${kind === 'entity' ? 'entity' : kind} "${name}"`);
    };
    const walk = (g: Formula): void => {
      switch (g.op) {
        case 'and':
        case 'or':
          g.args.forEach(walk);
          return;
        case 'not':
          walk(g.arg);
          return;
        case 'K':
        case 'B':
          entity(g.agent, 'agent');
          walk(g.arg);
          return;
        case 'pred': {
          const kinds: readonly string[] = PREDICATES[g.name];
          g.args.forEach((a, i) => entity(a, kinds[i]!));
        }
      }
    };
    walk(f);
  }
  checkFormula(t.goal, 'the goal');
  if (!(Number.isInteger(t.turnLimit) && t.turnLimit > 0)) fail('turn limit must be a positive whole number');
  const atoms = goalAtoms(t).length;
  const facts = [...t.knowledge.public, ...Object.values(t.knowledge.private).flat()];
  for (const k of facts) {
    if (k.kind === 'task' && !(k.atom >= 0 && k.atom < atoms)) fail(`knowledge names goal atom ${k.atom}, the goal has ${atoms}`);
    if (k.kind === 'loc' && !objects.has(k.object)) fail(`knowledge names the unknown object "${k.object}"`);
    if (k.kind === 'mechanic' && !t.mechanics[k.index]) fail(`knowledge names mechanic ${k.index}, the task has ${t.mechanics.length}`);
  }
  for (const a of Object.keys(t.knowledge.private)) if (!agents.has(a)) fail(`secrets for the undefined agent "${a}"`);
}
