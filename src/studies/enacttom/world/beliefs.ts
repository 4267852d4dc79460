// What each agent of an episode thinks the household is like: for every piece of furniture
// whether it is open, for every object where it is, for every agent which room it is in, or
// nothing where the agent has neither seen nor been told. Unlike knowledge (knowledge.ts), a
// belief outlives a change the agent did not see: it goes stale and false, as in a false-belief
// test. Beliefs come from the agent's secrets (where an object starts), from what it sees in its
// room (including that something it expected there is gone), and from messages: the recipient
// takes the sender's belief about each thing a message names together with where, or in what
// state, the sender thinks it is, unless what the recipient has is more recent (every belief
// keeps the time of the sighting it goes back to). A message can pass on a false belief, but
// cannot overwrite what the recipient saw since.

import type { Formula } from './goal.js';
import type { EmbodiedTask } from './task.js';
import { ON, type World, type WorldState } from './world.js';

/** No belief about where an object is. */
export const NO_PLACE = 0x7fff;

/** A three-valued truth: 1 believed true, 0 believed false, -1 no belief either way. */
export type Belief3 = 1 | 0 | -1;

/** The words of a message, split on anything but letters: `is_open fridge_3` gives is, open, fridge. */
function wordsOf(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z]+/)
      .filter(Boolean),
  );
}

/** Entity names a message mentions (names with an underscore, as the world's ids are). */
function namesIn(text: string): Set<string> {
  return new Set(text.match(/[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+/g) ?? []);
}

/** Per agent: what it thinks of every furniture's state, every object's place and every agent's room. */
export class EpisodeBeliefs {
  /** Per agent, per furniture: 1 open, 0 closed, -1 no belief. */
  readonly open: Int8Array[];
  /** Per agent, per object: a location code as in WorldState.objLoc, or NO_PLACE. */
  readonly place: Int16Array[];
  /** Per agent, per agent: the room it is thought to be in, or -1. */
  readonly room: Int16Array[];
  /** When each belief above was seen first-hand (by whoever saw it); -1: never. */
  readonly openAt: Int32Array[];
  readonly placeAt: Int32Array[];
  readonly roomAt: Int32Array[];
  /** The time of the sightings `observe` makes now; `observeAll` moves it on. */
  #clock = 0;

  private constructor(readonly world: World) {
    const n = world.agents.length;
    const times = (size: number) => Array.from({ length: n }, () => new Int32Array(size).fill(-1));
    this.open = Array.from({ length: n }, () => new Int8Array(world.furniture.length).fill(-1));
    this.place = Array.from({ length: n }, () => new Int16Array(world.objects.length).fill(NO_PLACE));
    this.room = Array.from({ length: n }, () => new Int16Array(n).fill(-1));
    this.openAt = times(world.furniture.length);
    this.placeAt = times(world.objects.length);
    this.roomAt = times(n);
  }

  /** Beliefs at the start: the places the public text and each agent's secrets give, then what each agent sees. */
  static initial(world: World, s: WorldState): EpisodeBeliefs {
    const b = new EpisodeBeliefs(world);
    const task: EmbodiedTask = world.task;
    world.agents.forEach((name, a) => {
      for (const f of [...task.knowledge.public, ...(task.knowledge.private[name] ?? [])]) {
        const o = f.kind === 'loc' ? world.objects.indexOf(f.object) : -1;
        if (o >= 0) {
          b.place[a]![o] = s.objLoc[o]!;
          b.placeAt[a]![o] = 0;
        }
      }
      b.observe(s, a);
    });
    return b;
  }

  /** What agent `a` sees in its room now, and what it sees is no longer where it thought. */
  observe(s: WorldState, a: number): void {
    const w = this.world;
    const now = this.#clock;
    const here = s.agentRoom[a]!;
    const [open, openAt] = [this.open[a]!, this.openAt[a]!];
    const [place, placeAt] = [this.place[a]!, this.placeAt[a]!];
    const [room, roomAt] = [this.room[a]!, this.roomAt[a]!];
    for (let f = 0; f < w.furniture.length; f++) {
      if (w.furnitureRoom[f] !== here) continue;
      open[f] = s.open[f]!;
      openAt[f] = now;
    }
    for (let o = 0; o < w.objects.length; o++) {
      if (w.objectRoom(s, o) === here && w.visible(s, o)) {
        place[o] = s.objLoc[o]!;
        placeAt[o] = now;
        continue;
      }
      const p = place[o]!;
      if (p === NO_PLACE) continue;
      // Where the agent would see the object if it were still there, it sees that it is not.
      const gone = p >= 0 ? w.furnitureRoom[p >> 1] === here && ((p & 1) === ON || s.open[p >> 1] === 1) : s.agentRoom[-1 - p] === here;
      // It keeps the time of the sighting it had: a report of a later one is still news.
      if (gone) place[o] = NO_PLACE;
    }
    for (let b = 0; b < w.agents.length; b++) {
      if (s.agentRoom[b] === here) {
        room[b] = here;
        roomAt[b] = now;
      } else if (room[b] === here) room[b] = -1;
    }
  }

  /** `observe` for every agent, after the world changed (a later time than the sightings before). */
  observeAll(s: WorldState): void {
    this.#clock++;
    for (let a = 0; a < this.world.agents.length; a++) this.observe(s, a);
  }

  /**
   * A message from `from` reaches `to`: for each object it names together with the place the
   * sender thinks it is, each furniture it names with the state the sender thinks it is in
   * (the word open, or closed), and each agent it names with the room the sender thinks it is
   * in, the recipients take the sender's belief, true or not, where it goes back to a later
   * sighting than their own.
   */
  tell(from: number, to: readonly number[], text: string): void {
    const w = this.world;
    const names = namesIn(text);
    const words = wordsOf(text);
    const saysOpen = words.has('open') || words.has('opened');
    const saysClosed = words.has('closed') || words.has('close') || words.has('shut');
    const pass = (values: Array<Int8Array | Int16Array>, times: Int32Array[], i: number) => {
      const t = times[from]![i]!;
      for (const r of to) {
        if (times[r]![i]! >= t) continue;
        values[r]![i] = values[from]![i]!;
        times[r]![i] = t;
      }
    };
    for (let o = 0; o < w.objects.length; o++) {
      const p = this.place[from]![o]!;
      if (p === NO_PLACE || !names.has(w.objects[o]!)) continue;
      if (names.has(p >= 0 ? w.furniture[p >> 1]! : w.agents[-1 - p]!)) pass(this.place, this.placeAt, o);
    }
    for (let f = 0; f < w.furniture.length; f++) {
      const v = this.open[from]![f]!;
      if (v !== -1 && names.has(w.furniture[f]!) && (v === 1 ? saysOpen : saysClosed)) pass(this.open, this.openAt, f);
    }
    for (let b = 0; b < w.agents.length; b++) {
      const v = this.room[from]![b]!;
      if (v !== -1 && names.has(w.agents[b]!) && names.has(w.rooms[v]!)) pass(this.room, this.roomAt, b);
    }
  }

  /** The room agent `a` thinks `entity` (an object, an agent, furniture or a room) is in, or -1. */
  #roomOf(a: number, entity: string): number {
    const e = this.world.index.get(entity);
    if (!e) return -1;
    if (e.kind === 'room') return e.i;
    // The layout does not change: where furniture stands is not a matter of belief.
    if (e.kind === 'furniture') return this.world.furnitureRoom[e.i]!;
    if (e.kind === 'agent') return this.room[a]![e.i]!;
    const p = this.place[a]![e.i]!;
    if (p === NO_PLACE) return -1;
    return p >= 0 ? this.world.furnitureRoom[p >> 1]! : this.room[a]![-1 - p]!;
  }

  /**
   * Whether agent `a` thinks a physical formula holds (three-valued: and, or and not combine
   * as Kleene's logic does). Locks do not change: they read as the world has them. An
   * epistemic part is no belief either way (-1).
   */
  value(a: number, f: Formula): Belief3 {
    const w = this.world;
    switch (f.op) {
      case 'and': {
        const vs = f.args.map((x) => this.value(a, x));
        return vs.includes(0) ? 0 : vs.includes(-1) ? -1 : 1;
      }
      case 'or': {
        const vs = f.args.map((x) => this.value(a, x));
        return vs.includes(1) ? 1 : vs.includes(-1) ? -1 : 0;
      }
      case 'not': {
        const v = this.value(a, f.arg);
        return v === -1 ? -1 : v === 1 ? 0 : 1;
      }
      case 'K':
      case 'B':
        return -1;
      case 'pred': {
        const idx = (name: string) => w.index.get(name)?.i ?? -1;
        const [x, y] = [f.args[0]!, f.args[1] ?? ''];
        const is = (known: boolean, yes: boolean): Belief3 => (!known ? -1 : yes ? 1 : 0);
        const p = w.index.get(x)?.kind === 'object' ? this.place[a]![idx(x)]! : NO_PLACE;
        switch (f.name) {
          case 'is_on_top':
            return is(p !== NO_PLACE, p === idx(y) * 2);
          case 'is_inside':
            return is(p !== NO_PLACE, p === idx(y) * 2 + 1);
          case 'is_held_by':
            return is(p !== NO_PLACE, p === -1 - idx(y));
          case 'is_in_room':
          case 'agent_in_room': {
            const r = this.#roomOf(a, x);
            return is(r !== -1, r === idx(y));
          }
          case 'is_open':
          case 'is_closed': {
            const v = this.open[a]![idx(x)]!;
            return v === -1 ? -1 : (v === 1) === (f.name === 'is_open') ? 1 : 0;
          }
          case 'is_locked':
            return w.locked[idx(x)] === 1 ? 1 : 0;
          case 'is_unlocked':
            return w.locked[idx(x)] === 0 ? 1 : 0;
        }
      }
    }
  }

  /** Where agent `a` thinks an object is, as the name of its furniture or holder; null: no belief. */
  placeName(a: number, object: number): string | null {
    const p = this.place[a]![object]!;
    if (p === NO_PLACE) return null;
    return p >= 0 ? this.world.furniture[p >> 1]! : this.world.agents[-1 - p]!;
  }
}
