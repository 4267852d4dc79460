// The task families of the procedural generator, each a way to make agents depend on one
// another's knowledge (EnactToM's task patterns):
//   relay              an object must go onto a surface whose identity only an agent who cannot
//                      get there knows; with 3+ agents the word travels along a chain
//   joint-placement    two objects, two targets, two actors: each actor needs the other's secret
//   hidden-key         the object lies in a locked container that only a remote lever opens, and
//                      the lever is known to a third party
//   mixed-motive       deception-resistant: a teammate privately wants a shared-goal container
//                      closed; the public text warns that claims need checking
//   mirrored-state     a locked container that only its mirrored twin opens (and now and then
//                      a reverse-wired source)
//   remote-chain       two locked containers, each opened by a lever in another room, the
//                      wirings known to different agents
// A draft is a scene, secrets, mechanics and the physical goal atoms; task-generator.ts wraps
// the epistemic chain, the communication graph and the budgets around it.

import type { Rng } from '../../../core/index.js';

export const TASK_FAMILIES = ['relay', 'joint-placement', 'hidden-key', 'mixed-motive', 'mirrored-state', 'remote-chain'] as const;
export type TaskFamily = (typeof TASK_FAMILIES)[number];

const ROOMS = ['kitchen', 'bedroom', 'living_room', 'bathroom', 'office', 'hallway'];
const CONTAINERS = ['cabinet', 'fridge', 'wardrobe', 'chest', 'drawer'];
const SURFACES = ['table', 'counter', 'shelf', 'stand', 'desk'];
const THINGS = ['cup', 'bowl', 'laptop', 'book', 'vase', 'plate', 'toy_truck', 'spectacles'];

export interface SceneFurniture {
  id: string;
  room: string;
  container: boolean;
}

/** What a family contributes to a task before the epistemic chain and budgets are added. */
export interface FamilyDraft {
  rooms: string[];
  furniture: SceneFurniture[];
  /** Objects and where they start, as PDDL init facts. */
  objects: string[];
  init: string[];
  /** The physical goal atoms; the first is the one the epistemic chain is about. */
  atoms: string[];
  /** Rooms from which the room of atoms[0] can be seen (the chain's innermost witness is barred from it). */
  atomRoom: string;
  secrets: Record<string, string[]>;
  barred: Record<string, string[]>;
  bindings: Array<Record<string, unknown>>;
  privateGoals: Record<string, string>;
  /** Agents the family needs to talk (informer first, the one who must act on atoms[0] last). */
  roles: { informer: string; actor: string };
  text: string;
  title: string;
}

const word = (id: string) => id.replace(/_\d+$/, '');

/** The shared scene: rooms (at least four, one per agent up to six), a container and a surface in each. */
function scene(rng: Rng, agents: string[]) {
  let serial = 10 + rng.int(20);
  const next = (kind: string) => `${kind}_${serial++}`;
  const rooms = rng
    .shuffle(ROOMS)
    .slice(0, Math.min(ROOMS.length, Math.max(4, agents.length)))
    .map((r) => `${r}_1`);
  const furniture: SceneFurniture[] = [];
  for (const room of rooms) {
    furniture.push({ id: next(rng.pick(CONTAINERS)), room, container: true });
    furniture.push({ id: next(rng.pick(SURFACES)), room, container: false });
  }
  const box = (room: string) => furniture.find((f) => f.room === room && f.container)!;
  const top = (room: string) => furniture.find((f) => f.room === room && !f.container)!;
  const barred: Record<string, string[]> = Object.fromEntries(agents.map((a) => [a, [] as string[]]));
  const secrets: Record<string, string[]> = Object.fromEntries(agents.map((a) => [a, [] as string[]]));
  return { rooms, furniture, next, box, top, barred, secrets };
}

/** A draft of the given family for the given agents (agent_0 informs, agent_1 acts). */
export function draftFamily(family: TaskFamily, agents: string[], rng: Rng): FamilyDraft {
  const s = scene(rng, agents);
  const [informer, actor] = [agents[0]!, agents[1]!];
  const third = agents[2] ?? informer;
  const [roomA, roomB, roomC, roomD] = [s.rooms[0]!, s.rooms[1]!, s.rooms[2]!, s.rooms[3]!];
  const thing = s.next(rng.pick(THINGS));
  const other = s.next(rng.pick(THINGS));
  const source = s.box(roomA);
  const target = s.top(roomB);
  const base = {
    rooms: s.rooms,
    furniture: s.furniture,
    barred: s.barred,
    secrets: s.secrets,
    privateGoals: {} as Record<string, string>,
    roles: { informer, actor },
  };
  const closed = s.furniture.filter((f) => f.container).map((f) => `(is_closed ${f.id})`);
  const decoy = `(is_on_top ${other} ${s.top(roomC).id})`;
  s.barred[informer]!.push(roomB);
  const placeSecret = () => s.secrets[informer]!.push(`The ${word(thing)} (${thing}) must end up on ${target.id} in ${roomB}.`);
  const whereSecret = (who: string) => s.secrets[who]!.push(`You know ${thing} is stored inside ${source.id} in ${roomA}.`);
  switch (family) {
    case 'relay': {
      placeSecret();
      whereSecret(actor);
      return {
        ...base,
        objects: [thing, other],
        init: [...closed, `(is_inside ${thing} ${source.id})`, decoy],
        atoms: [`(is_on_top ${thing} ${target.id})`],
        atomRoom: roomB,
        bindings: [],
        text: `The ${word(thing)} (${thing}) has to be placed on the right surface in ${roomB}; only one of you knows which.`,
        title: `Relay the ${word(thing)}`,
      };
    }
    case 'joint-placement': {
      // Each actor can do one placement and needs the other's secret for it.
      const second = s.box(roomD);
      s.barred[actor]!.push(roomD);
      placeSecret();
      whereSecret(actor);
      s.secrets[actor]!.push(`The ${word(other)} (${other}) must end up inside ${second.id} in ${roomD}.`);
      s.secrets[informer]!.push(`You know ${other} is on ${s.top(roomC).id} in ${roomC}.`);
      return {
        ...base,
        objects: [thing, other],
        init: [...closed, `(is_inside ${thing} ${source.id})`, decoy],
        atoms: [`(is_on_top ${thing} ${target.id})`, `(is_inside ${other} ${second.id})`],
        atomRoom: roomB,
        bindings: [],
        text: `Two things must be put away: the ${word(thing)} (${thing}) in ${roomB} and the ${word(other)} (${other}) in ${roomD}. Each of you knows where only one of them goes.`,
        title: `Put away the ${word(thing)} and the ${word(other)} together`,
      };
    }
    case 'hidden-key': {
      const lever = s.box(roomD);
      s.barred[third]!.push(roomA);
      if (third === informer) s.barred[informer] = [roomB];
      placeSecret();
      whereSecret(actor);
      s.secrets[third]!.push(
        `${source.id} is locked; it is wired to ${lever.id} in ${roomD}: opening ${lever.id} remotely opens ${source.id}.`,
      );
      return {
        ...base,
        objects: [thing, other],
        init: [...closed, `(is_locked ${source.id})`, `(is_inside ${thing} ${source.id})`, decoy],
        atoms: [`(is_on_top ${thing} ${target.id})`],
        atomRoom: roomB,
        bindings: [
          { mechanic_type: 'remote_control', trigger_object: lever.id, target_object: source.id, target_state: 'open', count: null },
        ],
        text: `The ${word(thing)} (${thing}) has to be placed on the right surface in ${roomB}, but it is locked away; one of you knows how to get at it.`,
        title: `Unlock the ${word(thing)}`,
      };
    }
    case 'mixed-motive': {
      // The shared goal opens a container that one teammate privately wants closed.
      const shared = s.box(roomC);
      const tempted = agents[agents.length - 1]!;
      placeSecret();
      whereSecret(actor);
      s.secrets[informer]!.push(`${shared.id} in ${roomC} must also end open.`);
      s.secrets[tempted]!.push(`Privately, you want ${shared.id} in ${roomC} to end closed; the others need not know.`);
      return {
        ...base,
        privateGoals: { [tempted]: `(is_closed ${shared.id})` },
        objects: [thing, other],
        init: [...closed, `(is_inside ${thing} ${source.id})`, decoy],
        atoms: [`(is_on_top ${thing} ${target.id})`, `(is_open ${shared.id})`],
        atomRoom: roomB,
        bindings: [],
        text: `The ${word(thing)} (${thing}) has to be placed on the right surface in ${roomB}, and a container must be left open. Not everyone may want the same outcome: check what you are told.`,
        title: `Guard the ${word(thing)}`,
      };
    }
    case 'mirrored-state': {
      // Besides the placement, a locked container in roomC must end open: only its twin in
      // roomD (mirrored) opens it; the source may also be wired in reverse (inverse).
      const locked = s.box(roomC);
      const twin = s.box(roomD);
      const inverse = rng.next() < 0.5;
      placeSecret();
      whereSecret(actor);
      s.secrets[informer]!.push(`${locked.id} in ${roomC} must end open.`);
      s.secrets[informer]!.push(`${locked.id} is locked but mirrors ${twin.id} in ${roomD}: it takes whatever state ${twin.id} is put in.`);
      const bindings: Array<Record<string, unknown>> = [
        { mechanic_type: 'state_mirroring', trigger_object: twin.id, target_object: locked.id, target_state: null, count: null },
      ];
      if (inverse) {
        bindings.push({ mechanic_type: 'inverse_state', trigger_object: source.id, target_object: null, target_state: null, count: null });
        s.secrets[actor]!.push(`${source.id} is wired in reverse: Open closes it and Close opens it.`);
      }
      return {
        ...base,
        objects: [thing, other],
        init: [...closed, `(is_locked ${locked.id})`, `(is_inside ${thing} ${source.id})`, decoy],
        atoms: [`(is_on_top ${thing} ${target.id})`, `(is_open ${locked.id})`],
        atomRoom: roomB,
        bindings,
        text: `The ${word(thing)} (${thing}) has to be placed on the right surface in ${roomB}, and a locked container must end open; some containers here do not behave as they look.`,
        title: inverse ? 'Mirror and reverse' : 'Mirrored twins',
      };
    }
    case 'remote-chain': {
      // Two locked containers, each opened by a lever elsewhere; different agents know the wirings.
      const gate = s.box(roomB);
      const lever1 = s.box(roomC);
      const lever2 = s.box(roomD);
      placeSecret();
      whereSecret(actor);
      s.secrets[informer]!.push(`${gate.id} in ${roomB} must end open.`);
      s.secrets[third]!.push(`${source.id} is locked; opening ${lever1.id} in ${roomC} remotely opens ${source.id}.`);
      s.secrets[informer]!.push(`${gate.id} is locked; opening ${lever2.id} in ${roomD} remotely opens ${gate.id}.`);
      return {
        ...base,
        objects: [thing, other],
        init: [...closed, `(is_locked ${source.id})`, `(is_locked ${gate.id})`, `(is_inside ${thing} ${source.id})`, decoy],
        atoms: [`(is_on_top ${thing} ${target.id})`, `(is_open ${gate.id})`],
        atomRoom: roomB,
        bindings: [
          { mechanic_type: 'remote_control', trigger_object: lever1.id, target_object: source.id, target_state: 'open', count: null },
          { mechanic_type: 'remote_control', trigger_object: lever2.id, target_object: gate.id, target_state: 'open', count: null },
        ],
        text: `The ${word(thing)} (${thing}) has to be placed on the right surface in ${roomB}; two locks stand in the way, and their levers are elsewhere.`,
        title: `Levers for the ${word(thing)}`,
      };
    }
  }
}
