// Reading EnactToM's task JSON (one task object or a list) into an EmbodiedTask. The scene
// comes from the task's PDDL problem (typed objects; init facts is_in_room, is_on_top,
// is_inside, is_open, is_closed, is_locked, agent_in_room) and its goal from the problem's
// :goal. A task without a problem (EnactToM's released sample names a 3D scene id instead) is
// derived from its subtasks, secrets and golden trajectory when they name every entity the
// goal needs, in one room, and each derivation is noted; otherwise it is rejected with that
// reason. Mechanic bindings use EnactToM's fields (trigger_object, target_object,
// target_state, count), plus `agent` and `rooms` for room restrictions; `message_targets`
// gives the communication graph; `turn_limit`, `category`, `private_goals` are read when present.
// Structured knowledge is read from the public text and each agent's secrets: a text that
// names an object and the furniture it is in or on conveys its location; one that names every
// entity of a goal atom conveys that atom; one that names a mechanic's objects with a word for
// how it behaves (inverse, remote, mirror, linked...) conveys that mechanic.

import { InputError } from '../../../core/errors.js';
import { formulaFromSexp, parseGoal, parseSexps, type Formula } from './goal.js';
import { FIND_TOOLS } from './actions.js';
import {
  ACTIONS,
  goalAtoms,
  MECHANICS,
  validateTask,
  type ActionName,
  type EmbodiedAgent,
  type EmbodiedTask,
  type Furniture,
  type KnowledgeFact,
  type MechanicBinding,
  type MechanicType,
  type SceneObject,
} from './task.js';

type Json = Record<string, unknown>;

const IDS = /[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+/g;

function namesIn(text: string): Set<string> {
  return new Set(text.match(IDS) ?? []);
}

interface Scene {
  rooms: string[];
  furniture: Furniture[];
  objects: SceneObject[];
  agentRooms: Record<string, string>;
  goal: Formula;
  notes: string[];
}

function sceneFromPddl(problem: string, where: string): Scene {
  const [define] = parseSexps(problem, `${where}: problem_pddl`);
  if (!Array.isArray(define)) throw new InputError('problem_pddl is not a (define ...) expression', where);
  const section = (name: string) => define.find((x) => Array.isArray(x) && x[0] === name) as unknown[] | undefined;
  const objectsSec = section(':objects');
  const init = section(':init');
  const goalSec = section(':goal');
  if (!objectsSec || !init || !goalSec) throw new InputError('problem_pddl needs :objects, :init and :goal', where);
  const typed: Record<string, string> = {};
  let pending: string[] = [];
  for (let i = 1; i < objectsSec.length; i++) {
    const tok = objectsSec[i];
    if (typeof tok !== 'string') continue;
    if (tok === '-') {
      const type = objectsSec[++i] as string;
      for (const n of pending) typed[n] = type;
      pending = [];
    } else pending.push(tok);
  }
  for (const n of pending) typed[n] = 'object';
  const of = (type: string) => Object.keys(typed).filter((n) => typed[n] === type);
  const rooms = of('room');
  const notes: string[] = [];
  const furnitureRoom: Record<string, string> = {};
  const objectAt: Record<string, SceneObject['at']> = {};
  const objectRoom: Record<string, string> = {};
  const openState: Record<string, boolean> = {};
  const locked = new Set<string>();
  const agentRooms: Record<string, string> = {};
  for (const fact of init.slice(1)) {
    if (!Array.isArray(fact)) continue;
    // (pred a) or (pred a b): unary facts leave b unused.
    const [pred, a, b] = fact as [string, string, string];
    if (pred === 'is_in_room') (typed[a] === 'furniture' ? furnitureRoom : objectRoom)[a] = b;
    else if (pred === 'agent_in_room') agentRooms[a] = b;
    else if (pred === 'is_on_top') objectAt[a] = { rel: 'on', furniture: b };
    else if (pred === 'is_inside') objectAt[a] = { rel: 'in', furniture: b };
    else if (pred === 'is_held_by') objectAt[a] = { rel: 'held', agent: b };
    else if (pred === 'is_open') openState[a] = true;
    else if (pred === 'is_closed') openState[a] = false;
    else if (pred === 'is_locked') locked.add(a);
  }
  const goalSexp = goalSec[1];
  const goal = formulaFromSexp(goalSexp as never, `${where}: :goal`);
  const goalText = JSON.stringify(goalSexp);
  const furniture: Furniture[] = of('furniture').map((id) => {
    const room = furnitureRoom[id];
    if (!room) throw new InputError(`furniture ${id} has no (is_in_room ${id} ROOM) in :init`, where);
    const openable =
      id in openState ||
      Object.values(objectAt).some((at) => at.rel === 'in' && at.furniture === id) ||
      new RegExp(`"is_(open|closed|inside)".*"${id}"`).test(goalText);
    return { id, room, openable, open: openState[id] ?? false, locked: locked.has(id) };
  });
  const objects: SceneObject[] = of('object').map((id) => {
    if (objectAt[id]) return { id, at: objectAt[id] };
    const room = objectRoom[id];
    if (!room) throw new InputError(`object ${id} has no place in :init (is_on_top, is_inside, is_held_by or is_in_room)`, where);
    // An object only "in the room" lies on the room's floor, a piece of furniture made for it.
    let floor = furniture.find((f) => f.id === `floor_${room}`);
    if (!floor) {
      floor = { id: `floor_${room}`, room, openable: false, open: false, locked: false };
      furniture.push(floor);
      notes.push(`objects placed only by is_in_room lie on floor_${room}`);
    }
    return { id, at: { rel: 'on', furniture: floor.id } };
  });
  return { rooms, furniture, objects, agentRooms, goal, notes };
}

/** EnactToM's released sample has no problem: derive a one-room scene from what it names. */
function sceneFromSubtasks(raw: Json, where: string): Scene {
  const subtasks = raw.subtasks as
    | Array<{ id: string; required?: boolean; success_condition?: { entity: string; property: string; value?: unknown; target?: string } }>
    | undefined;
  if (!Array.isArray(subtasks) || subtasks.length === 0)
    throw new InputError(
      `the task names scene ${String(raw.scene_id)}, which is not available here, and carries neither rooms, furniture and objects (a problem_pddl) nor subtasks to derive them from`,
      where,
    );
  const conds = subtasks.map((s) => {
    const c = s.success_condition;
    if (!c?.entity || !c.property) throw new InputError(`subtask ${s.id} has no success_condition with entity and property`, where);
    return { ...c, required: s.required !== false };
  });
  const required = conds.filter((c) => c.required);
  const toPred = (c: (typeof conds)[number]): string => {
    if (c.property === 'is_open' || c.property === 'is_closed')
      return c.value === false ? `(${c.property === 'is_open' ? 'is_closed' : 'is_open'} ${c.entity})` : `(${c.property} ${c.entity})`;
    if (!c.target) throw new InputError(`subtask condition ${c.property} on ${c.entity} has no target`, where);
    return `(${c.property} ${c.entity} ${c.target})`;
  };
  const goalText = `(and ${(required.length ? required : conds).map(toPred).join(' ')})`;
  const goal = parseGoal(goalText, `${where}: subtasks`);
  const agents = Object.keys((raw.agent_secrets as Json) ?? {});
  const names = new Set<string>();
  const furnitureIds = new Set<string>();
  const objectIds = new Set<string>();
  for (const c of conds) {
    if (c.property === 'is_open' || c.property === 'is_closed') furnitureIds.add(c.entity);
    else if (c.property === 'is_on_top' || c.property === 'is_inside') {
      objectIds.add(c.entity);
      furnitureIds.add(c.target!);
    } else if (c.property === 'is_held_by') objectIds.add(c.entity);
  }
  const texts = [...Object.values((raw.agent_secrets as Record<string, string[]>) ?? {}).flat(), String(raw.task ?? '')];
  const at: Record<string, SceneObject['at']> = {};
  // "X ... in/inside/on Y" within a sentence places X, unless it states the goal ("needs to be on").
  for (const sentence of texts.flatMap((t) => t.split(/(?<=[.;!?])\s+/))) {
    for (const m of sentence.matchAll(/([A-Za-z][A-Za-z0-9]*_\d+)/g)) {
      const o = m[1]!;
      if (furnitureIds.has(o) && !objectIds.has(o)) continue;
      const rest = sentence.slice(m.index! + o.length);
      for (const p of rest.matchAll(/\b(inside|in|on)\s+([A-Za-z][A-Za-z0-9]*_\d+)/g)) {
        const before = rest.slice(Math.max(0, p.index! - 24), p.index!);
        if (/(need|needs|must|should|has|have)\s+to\s+(be|go)|\bto be\s*$|\bgoes\s*$|\bplace\w*\s*(it\s*)?$/i.test(before)) continue;
        if (objectIds.has(p[2]!)) continue;
        objectIds.add(o);
        furnitureIds.add(p[2]!);
        at[o] ??= { rel: p[1] === 'on' ? 'on' : 'in', furniture: p[2]! };
        break;
      }
    }
  }
  for (const n of [...objectIds, ...furnitureIds]) names.add(n);
  const missing = [...objectIds].filter((o) => !at[o]);
  if (missing.length)
    throw new InputError(
      `cannot derive where ${missing.join(', ')} start(s): the task names scene ${String(raw.scene_id)}, which is not available here, and no text places them`,
      where,
    );
  const room = 'room_1';
  const furniture: Furniture[] = [...furnitureIds].map((id) => ({
    id,
    room,
    openable:
      Object.values(at).some((a) => a.rel === 'in' && a.furniture === id) ||
      conds.some((c) => c.entity === id && (c.property === 'is_open' || c.property === 'is_closed')),
    open: false,
    locked: false,
  }));
  // Every object has a place here: `missing` above threw otherwise.
  const objects: SceneObject[] = [...objectIds].map((id) => ({ id, at: at[id]! }));
  return {
    rooms: [room],
    furniture,
    objects,
    agentRooms: Object.fromEntries(agents.map((a) => [a, room])),
    goal,
    notes: [
      `scene ${String(raw.scene_id)} is not available: derived one room (room_1) holding ${[...names].join(', ')} from the subtasks and texts; furniture that holds something starts closed`,
      `goal from the required subtasks: ${goalText}`,
    ],
  };
}

function knowledgeIn(text: string, task: Pick<EmbodiedTask, 'goal' | 'objects' | 'mechanics'>): KnowledgeFact[] {
  const names = namesIn(text);
  const facts: KnowledgeFact[] = [];
  goalAtoms(task).forEach((p, atom) => {
    const entities = p.args.filter((a) => !/^agent_\d+$/.test(a));
    if (entities.length && entities.every((e) => names.has(e))) facts.push({ kind: 'task', atom });
  });
  for (const o of task.objects) {
    if (!names.has(o.id)) continue;
    if ((o.at.rel === 'held' && names.has(o.at.agent)) || (o.at.rel !== 'held' && names.has(o.at.furniture)))
      facts.push({ kind: 'loc', object: o.id });
  }
  // A mechanic is known from a hint: its objects named with a word for how it behaves.
  const hint = /invers|revers|opposite|backward|remote|control|mirror|linked|trigger|wired/i.test(text);
  task.mechanics.forEach((m, index) => {
    if (hint && m.trigger && names.has(m.trigger) && (!m.target || names.has(m.target))) facts.push({ kind: 'mechanic', index });
  });
  return facts;
}

function readMechanics(raw: Json, agents: EmbodiedAgent[], where: string): MechanicBinding[] {
  const out: MechanicBinding[] = [];
  const bindings = (raw.mechanic_bindings ?? []) as Json[];
  if (!Array.isArray(bindings)) throw new InputError('mechanic_bindings must be a list', where);
  bindings.forEach((b, i) => {
    const type = String(b.mechanic_type ?? '') as MechanicType;
    if (!(MECHANICS as readonly string[]).includes(type))
      throw new InputError(`mechanic_bindings[${i}]: unknown mechanic_type "${type}"; known: ${MECHANICS.join(', ')}`, where);
    if (type === 'room_restriction') {
      const agent = agents.find((a) => a.id === (b.agent ?? b.target_object));
      if (!agent)
        throw new InputError(
          `mechanic_bindings[${i}] (room_restriction) names the undefined agent "${String(b.agent ?? b.target_object)}"`,
          where,
        );
      const rooms = (Array.isArray(b.rooms) ? b.rooms : String(b.target_state ?? '').split(','))
        .map(String)
        .map((r) => r.trim())
        .filter(Boolean);
      agent.barredRooms.push(...rooms);
      return;
    }
    if (type === 'limited_bandwidth') {
      const count = Number(b.count);
      if (!Number.isInteger(count) || count < 0)
        throw new InputError(`mechanic_bindings[${i}] (limited_bandwidth) needs a whole-number count`, where);
      for (const a of agents) if (b.agent === undefined || b.agent === null || a.id === b.agent) a.messageBudget = count;
      return;
    }
    if (type === 'restricted_communication') return; // the graph comes from message_targets
    const state = b.target_state;
    out.push({
      type,
      trigger: b.trigger_object ? String(b.trigger_object) : undefined,
      target: b.target_object ? String(b.target_object) : undefined,
      targetState:
        state === undefined || state === null ? undefined : state === true || state === 'open' || state === 'is_open' ? 'open' : 'closed',
    });
  });
  return out;
}

/** One task in the EnactToM JSON format, read and validated into mindscope's task shape. */
export function readEnactTomTask(raw: Json, where: string): EmbodiedTask {
  const id = String(raw.task_id ?? '');
  if (!id) throw new InputError('task_id is missing', where);
  const at = `${where} (${id})`;
  const notes: string[] = [];
  const secrets = raw.agent_secrets as Record<string, string[]> | undefined;
  if (!secrets || typeof secrets !== 'object') throw new InputError('agent_secrets is missing', at);
  const scene =
    typeof raw.problem_pddl === 'string' && raw.problem_pddl.trim() ? sceneFromPddl(raw.problem_pddl, at) : sceneFromSubtasks(raw, at);
  notes.push(...scene.notes);
  const agentIds = [
    ...new Set([...Object.keys(secrets), ...Object.keys((raw.agent_actions as Json) ?? {}), ...Object.keys(scene.agentRooms)]),
  ].sort();
  const declared = Number(raw.num_agents ?? agentIds.length);
  if (declared !== agentIds.length)
    throw new InputError(`num_agents is ${declared} but ${agentIds.length} agents are named (${agentIds.join(', ')})`, at);
  const actionsOf = (a: string): ActionName[] => {
    const listed = (raw.agent_actions as Record<string, string[]> | undefined)?.[a];
    if (!listed) return ACTIONS.slice();
    const kept = listed.filter((x): x is ActionName => (ACTIONS as readonly string[]).includes(x));
    // The perception tools (FindObjectTool ...) every agent has in the text world: no note.
    const dropped = listed.filter((x) => !(ACTIONS as readonly string[]).includes(x) && !FIND_TOOLS.some((t) => t.name === x));
    if (dropped.length)
      notes.push(
        `${a}: ${dropped.join(', ')} ha${dropped.length > 1 ? 've' : 's'} no counterpart in the text world (it describes each room to the agent in it)`,
      );
    return [...kept, 'Wait', 'Done'].filter((x, i, xs) => xs.indexOf(x) === i) as ActionName[];
  };
  const targets = (raw.message_targets ?? {}) as Record<string, string[]>;
  const agents: EmbodiedAgent[] = agentIds.map((a) => ({
    id: a,
    // A task without rooms fails validation.
    room: scene.agentRooms[a] ?? scene.rooms[0]!,
    actions: actionsOf(a),
    barredRooms: [],
    messageBudget: null,
    messageTargets: Array.isArray(targets[a]) ? targets[a] : null,
    secrets: (secrets[a] ?? []).map(String),
  }));
  for (const a of agents) if (!scene.agentRooms[a.id]) notes.push(`${a.id} has no agent_in_room fact: it starts in ${a.room}`);
  const mechanics = readMechanics(raw, agents, at);
  const privateGoals = (raw.private_goals ?? raw.agent_private_goals ?? {}) as Record<string, string>;
  for (const [a, g] of Object.entries(privateGoals)) {
    const agent = agents.find((x) => x.id === a);
    if (!agent) throw new InputError(`private_goals names the undefined agent "${a}"`, at);
    agent.privateGoal = parseGoal(String(g), `${at}: private_goals.${a}`);
  }
  const rawCategory = String(raw.category ?? 'cooperative');
  const category = rawCategory.startsWith('mixed') ? 'mixed' : 'cooperative';
  if (rawCategory !== category) notes.push(`category "${rawCategory}" read as ${category}`);
  const turnLimit = raw.turn_limit === undefined ? 20 : Number(raw.turn_limit);
  if (raw.turn_limit === undefined) notes.push('no turn_limit: 20 turns');
  const task: EmbodiedTask = {
    id,
    title: String(raw.title ?? id),
    category,
    text: String(raw.task ?? ''),
    rooms: scene.rooms,
    furniture: scene.furniture,
    objects: scene.objects,
    agents,
    mechanics,
    goal: scene.goal,
    turnLimit,
    knowledge: { public: [], private: {} },
    source: { format: 'enacttom', notes, ...(raw.generator ? { generator: raw.generator as Record<string, unknown> } : {}) },
  };
  task.knowledge.public = knowledgeIn(task.text, task);
  for (const a of agents) task.knowledge.private[a.id] = knowledgeIn(a.secrets.join('\n'), task);
  validateTask(task, at);
  return task;
}

/** A task file: one task object or a list of them. */
export function readEnactTomTasks(json: unknown, where: string): EmbodiedTask[] {
  const list = Array.isArray(json) ? json : [json];
  return list.map((raw, i) => {
    if (!raw || typeof raw !== 'object') throw new InputError(`task ${i} is not an object`, where);
    return readEnactTomTask(raw as Json, Array.isArray(json) ? `${where}[${i}]` : where);
  });
}
