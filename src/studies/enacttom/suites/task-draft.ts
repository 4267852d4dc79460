// A task being drafted by the procedural generator: the scene (rooms, furniture, objects and
// their starting places), the physical goal (asserted atoms, and clauses such as disjunctions
// and conditionals), the secrets, the room bars, the mechanics, the private goals, and the roles:
// which agent has to act in which room with which actions. The families (task-families.ts) and
// the extra goal parts (goal-parts.ts) write into it; the epistemic layer, the capabilities and
// the communication graph are added from what it records.

import type { Rng } from '../../../core/index.js';
import type { ActionName } from '../world/index.js';

const ROOMS = ['kitchen', 'bedroom', 'living_room', 'bathroom', 'office', 'hallway'];
const CONTAINERS = ['cabinet', 'fridge', 'wardrobe', 'chest', 'drawer', 'cupboard', 'safe'];
const SURFACES = ['table', 'counter', 'shelf', 'stand', 'desk', 'bench', 'stool'];
const THINGS = ['cup', 'bowl', 'laptop', 'book', 'vase', 'plate', 'toy_truck', 'spectacles', 'kettle', 'lamp', 'candle', 'remote'];

export interface SceneFurniture {
  id: string;
  room: string;
  container: boolean;
}

/** A physical goal atom the goal asserts, with the room where it comes true (its furniture's room). */
export interface DraftAtom {
  text: string;
  room: string;
  /** The furniture it names (for nested knowledge: atoms of one room can be known together). */
  furniture: string;
  /** Whether a knowledge chain may be about it (not when its things move with an agent). */
  chain: boolean;
}

/** The readable name of an id: "toy_truck_12" -> "toy truck". */
export const word = (id: string): string => id.replace(/_\d+$/, '').replace(/_/g, ' ');

/** A task under construction; every list is filled in the order the generator decides things. */
export class TaskDraft {
  readonly rooms: string[];
  readonly furniture: SceneFurniture[] = [];
  readonly objects: string[] = [];
  readonly init: string[] = [];
  /** Asserted physical atoms: the first is the family's main atom. */
  readonly atoms: DraftAtom[] = [];
  /** Further physical goal clauses (disjunctions, conditionals), as PDDL text. */
  readonly clauses: string[] = [];
  readonly secrets: Record<string, string[]>;
  readonly barred: Record<string, string[]>;
  readonly bindings: Array<Record<string, unknown>> = [];
  readonly privateGoals: Record<string, string> = {};
  /** Per agent: the rooms it must be able to enter and the actions it must have for the plan the draft intends. */
  readonly roles: Record<string, { rooms: Set<string>; actions: Set<ActionName> }>;
  /** Furniture a family or part already uses (a new part picks another). */
  readonly used = new Set<string>();
  /** Containers that start open (every other container starts closed). */
  readonly startOpen = new Set<string>();
  /** Per agent: actions it must not have (a family that splits the work between hands). */
  readonly forbidden: Record<string, Set<ActionName>>;
  /** Sentences of the public text. */
  readonly text: string[] = [];
  title = '';
  #serial: number;

  constructor(
    readonly rng: Rng,
    readonly agents: string[],
    roomCount: number,
  ) {
    this.#serial = 10 + rng.int(20);
    this.rooms = rng
      .shuffle(ROOMS)
      .slice(0, Math.min(ROOMS.length, Math.max(4, roomCount)))
      .map((r) => `${r}_1`);
    // A container and a surface in every room, and now and then a third piece.
    for (const room of this.rooms) {
      this.furniture.push({ id: this.next(rng.pick(CONTAINERS)), room, container: true });
      this.furniture.push({ id: this.next(rng.pick(SURFACES)), room, container: false });
      if (rng.next() < 0.35) {
        const container = rng.next() < 0.5;
        this.furniture.push({ id: this.next(rng.pick(container ? CONTAINERS : SURFACES)), room, container });
      }
    }
    this.secrets = Object.fromEntries(agents.map((a) => [a, [] as string[]]));
    this.barred = Object.fromEntries(agents.map((a) => [a, [] as string[]]));
    this.roles = Object.fromEntries(agents.map((a) => [a, { rooms: new Set<string>(), actions: new Set<ActionName>() }]));
    this.forbidden = Object.fromEntries(agents.map((a) => [a, new Set<ActionName>()]));
  }

  next(kind: string): string {
    return `${kind}_${this.#serial++}`;
  }

  /** A new object id. */
  thing(): string {
    const id = this.next(this.rng.pick(THINGS));
    this.objects.push(id);
    return id;
  }

  /** The first container (or surface) of a room. */
  box(room: string): SceneFurniture {
    return this.furniture.find((f) => f.room === room && f.container)!;
  }

  top(room: string): SceneFurniture {
    return this.furniture.find((f) => f.room === room && !f.container)!;
  }

  /** An unused piece of furniture (of the kind asked, in the rooms allowed), marked used; undefined when none is left. */
  free(opts: { container?: boolean; rooms?: string[]; not?: string[] } = {}): SceneFurniture | undefined {
    const fits = this.furniture.filter(
      (f) =>
        !this.used.has(f.id) &&
        (opts.container === undefined || f.container === opts.container) &&
        (!opts.rooms || opts.rooms.includes(f.room)) &&
        !(opts.not ?? []).includes(f.room),
    );
    if (fits.length === 0) return undefined;
    const f = this.rng.pick(fits);
    this.used.add(f.id);
    return f;
  }

  roomOf(furniture: string): string {
    return this.furniture.find((f) => f.id === furniture)!.room;
  }

  /** Record that `agent` must act in `rooms` with `actions`. */
  act(agent: string, rooms: string[], actions: ActionName[]): void {
    for (const r of rooms) this.roles[agent]!.rooms.add(r);
    for (const x of ['Navigate', ...actions] as ActionName[]) this.roles[agent]!.actions.add(x);
  }

  /** Agents that may act in every one of `rooms` (not barred from any). */
  canEnter(rooms: string[]): string[] {
    return this.agents.filter((a) => rooms.every((r) => !this.barred[a]!.includes(r)));
  }

  /** Bar an agent from a room, unless the draft needs it there. */
  bar(agent: string, room: string): boolean {
    if (this.roles[agent]!.rooms.has(room)) return false;
    if (!this.barred[agent]!.includes(room)) this.barred[agent]!.push(room);
    return true;
  }

  /** The open or closed state of every container, as PDDL init facts. */
  containerStates(): string[] {
    return this.furniture.filter((f) => f.container).map((f) => `(${this.startOpen.has(f.id) ? 'is_open' : 'is_closed'} ${f.id})`);
  }
}
