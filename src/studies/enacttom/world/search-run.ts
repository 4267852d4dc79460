// One best-first search of a task at a ToM level (task-search.ts): its heuristic, its visited
// states (state-store.ts), its open list and its nodes. A run stopped at a node cap can be
// continued with a larger cap, and then answers exactly as a fresh search with that cap would
// (same nodes expanded in the same order, same plan, same node count), without redoing the
// nodes it has already expanded.

import { stripEpistemic, type Formula } from './goal.js';
import { KnowledgeState, type KnowledgeUniverse } from './knowledge.js';
import { compilePredicate } from './atom-tables.js';
import { MinHeap } from './min-heap.js';
import { StateStore } from './state-store.js';
import type { ActionName, EmbodiedTask } from './task.js';
import { World, type Action, type WorldState } from './world.js';

export interface PlanStep {
  round: number;
  agent: string;
  action: Action;
}

export interface SearchResult {
  status: 'solved' | 'unsolvable' | 'undecided';
  plan: PlanStep[] | null;
  rounds: number | null;
  nodes: number;
}

export interface SearchOptions {
  level: number;
  /** Check only the physical part of the goal. */
  physicalOnly?: boolean;
  /** Every agent starts knowing every task, location and mechanic atom. */
  revealAll?: boolean;
  maxNodes?: number;
  /** Best-effort: when the goal is unreachable, return the plan to the state that satisfies most of it. */
  bestEffort?: boolean;
  /**
   * Greedy: expand the deepest of the states with the fewest unmet goal parts first. Finds a plan
   * (not the shortest) far faster where many agents make wide plateaus; its "unsolvable" is as
   * exhaustive as the weighted search's, within the turn limit.
   */
  greedy?: boolean;
  /** Start from this state (at the start of a round) instead of the task's initial state. */
  from?: { ws: WorldState; ks: KnowledgeState; round: number };
}

/** What a run reads of the search over its task (task-search.ts's TaskSearch, which starts the runs). */
export interface SearchSpace {
  readonly task: EmbodiedTask;
  readonly world: World;
  readonly universe: KnowledgeUniverse;
  readonly agents: number;
  /** needs[b][i]: agent b needs atom i to act or to satisfy a K goal. */
  readonly needs: Uint8Array[];
  /** Every (agent, atom) need, as agent * atoms + atom. */
  readonly needed: number[];
  initial(level: number, revealAll?: boolean): { ws: WorldState; ks: KnowledgeState };
  step(ws: WorldState, ks: KnowledgeState, agent: number, action: Action, told?: number[]): boolean;
  compile(f: Formula): (ws: WorldState, ks: KnowledgeState) => boolean;
  candidates(ws: WorldState, ks: KnowledgeState, agent: number, level: number): Array<{ action: Action; told?: number }>;
}

/** Top-level conjuncts of a goal. */
function conjuncts(f: Formula): Formula[] {
  return f.op === 'and' ? f.args.flatMap(conjuncts) : [f];
}

/** A copy of a world and a knowledge state whose arrays are views of one buffer each: copied with two `set` calls. */
interface Flat {
  ws: WorldState;
  ks: KnowledgeState;
  world: Uint8Array;
  flags: Uint8Array;
}

function flat(ws: WorldState, ks: KnowledgeState): Flat {
  const A = ws.agentRoom.length;
  const O = ws.objLoc.length;
  const F = ws.open.length;
  const buffer = new ArrayBuffer(2 * (3 * A + O) + F);
  const int16 = (at: number, n: number, from: Int16Array) => {
    const v = new Int16Array(buffer, 2 * at, n);
    v.set(from);
    return v;
  };
  const copy: WorldState = {
    agentRoom: int16(0, A, ws.agentRoom),
    holding: int16(A, A, ws.holding),
    objLoc: int16(2 * A, O, ws.objLoc),
    messagesLeft: int16(2 * A + O, A, ws.messagesLeft),
    open: new Uint8Array(buffer, 2 * (3 * A + O), F),
  };
  copy.open.set(ws.open);
  const U = ks.u.size;
  const flags = new Uint8Array(A * U);
  const views = ks.flags.map((f, a) => {
    const v = flags.subarray(a * U, (a + 1) * U);
    v.set(f);
    return v;
  });
  return { ws: copy, ks: new KnowledgeState(ks.u, views, ks.level), world: new Uint8Array(buffer), flags };
}

/** A best-first search of a task that can be continued with a larger node cap. */
export class SearchRun {
  readonly #s: SearchSpace;
  readonly #opts: SearchOptions;
  readonly #unmet: (ws: WorldState, ks: KnowledgeState) => number;
  readonly #limit: number;
  // States live packed in a store; a node is a state's id, with its ply, parent, action and
  // heuristic in arrays, and is unpacked into `cur` when expanded.
  readonly #store: StateStore;
  readonly #cur: Flat;
  readonly #scratch: Flat;
  readonly #ply: number[] = [];
  readonly #parent: number[] = [];
  readonly #action: Array<Action | null> = [];
  readonly #h: number[] = [];
  readonly #heap = new MinHeap();
  #nodes = 0;
  #best = 0;
  /** The node popped when the cap stopped the run: counted and checked, not yet expanded. */
  #pending = -1;
  #done: SearchResult | null = null;

  constructor(search: SearchSpace, opts: SearchOptions) {
    this.#s = search;
    this.#opts = opts;
    const A = search.agents;
    const level = opts.level;
    const goal = opts.physicalOnly ? stripEpistemic(search.task.goal) : search.task.goal;
    this.#limit = search.task.turnLimit * A;
    const start = opts.from
      ? {
          ws: World.clone(opts.from.ws),
          ks: new KnowledgeState(
            search.universe,
            opts.from.ks.flags.map((f) => f.slice()),
            level,
          ),
        }
      : search.initial(level, opts.revealAll);
    const firstPly = opts.from ? (opts.from.round - 1) * A : 0;
    this.#unmet = heuristic(search, conjuncts(goal));
    this.#cur = flat(start.ws, start.ks);
    this.#scratch = flat(start.ws, start.ks);
    this.#store = new StateStore(this.#cur.world.length, this.#cur.flags.length);
    this.#store.encode(firstPly % A, this.#cur.world, this.#cur.flags);
    this.#store.insert();
    this.#add(firstPly, -1, null, this.#unmet(start.ws, start.ks));
    this.#heap.push(0, 0);
  }

  #add(ply: number, parent: number, action: Action | null, h: number): void {
    this.#ply.push(ply);
    this.#parent.push(parent);
    this.#action.push(action);
    this.#h.push(h);
  }

  /** Search on until solved, exhausted, or `maxNodes` nodes popped in all (then "undecided"). */
  advance(maxNodes: number): SearchResult {
    if (this.#done) return this.#done;
    const s = this.#s;
    const A = s.agents;
    const level = this.#opts.level;
    const greedy = this.#opts.greedy === true;
    const store = this.#store;
    const heap = this.#heap;
    const { ws: curWs, ks: curKs, world: curWorld, flags: curFlags } = this.#cur;
    const { ws: scrWs, ks: scrKs, world: scrWorld, flags: scrFlags } = this.#scratch;
    const told: number[] = [];
    for (;;) {
      let n = this.#pending;
      if (n >= 0) this.#pending = -1;
      else {
        if (heap.size === 0) break;
        n = heap.pop();
        this.#nodes++;
        if (this.#h[n] === 0) return this.#finish({ status: 'solved', ...this.#planOf(n), nodes: this.#nodes });
        const nh = this.#h[n]!;
        const b = this.#best;
        if (nh < this.#h[b]! || (nh === this.#h[b]! && this.#ply[n]! < this.#ply[b]!)) this.#best = n;
      }
      if (this.#nodes > maxNodes) {
        this.#pending = n;
        return this.#stop('undecided');
      }
      const nply = this.#ply[n]!;
      if (nply >= this.#limit) continue;
      const agent = nply % A;
      const ply = nply + 1;
      store.decode(n, curWorld, curFlags);
      for (const c of s.candidates(curWs, curKs, agent, level)) {
        // Try the action on a scratch copy; keep only states not seen before.
        scrWorld.set(curWorld);
        scrFlags.set(curFlags);
        told.length = 0;
        if (c.told !== undefined) told.push(c.told);
        if (!s.step(scrWs, scrKs, agent, c.action, told)) continue;
        store.encode(ply % A, scrWorld, scrFlags);
        const id = store.insert();
        if (id < 0) continue;
        const h = this.#unmet(scrWs, scrKs);
        this.#add(ply, n, c.action, h);
        // Weighted best-first: unmet goal parts dominate, then rounds used.
        heap.push(id, greedy ? h * 1e6 - ply : h * 2 * A + ply);
      }
    }
    return this.#finish(this.#stop('unsolvable'));
  }

  #stop(status: 'undecided' | 'unsolvable'): SearchResult {
    if (this.#opts.bestEffort) return { status, ...this.#planOf(this.#best), nodes: this.#nodes };
    return { status, plan: null, rounds: null, nodes: this.#nodes };
  }

  #finish(r: SearchResult): SearchResult {
    this.#done = r;
    return r;
  }

  #planOf(n: number): { plan: PlanStep[]; rounds: number } {
    const A = this.#s.agents;
    const steps: PlanStep[] = [];
    for (let x = n; x >= 0 && this.#action[x]; x = this.#parent[x]!) {
      const ply = this.#ply[x]!;
      steps.push({ round: Math.floor((ply - 1) / A) + 1, agent: this.#s.world.agents[(ply - 1) % A]!, action: this.#action[x]! });
    }
    steps.reverse();
    return { plan: steps, rounds: Math.ceil(this.#ply[n]! / A) };
  }
}

/**
 * The heuristic: unmet goal parts dominate; needed knowledge still missing breaks ties towards
 * informing; then the physical steps still needed for each unmet placement or switch.
 */
function heuristic(s: SearchSpace, parts: Formula[]): (ws: WorldState, ks: KnowledgeState) => number {
  const checks = parts.map((p) => s.compile(p));
  const needed = s.needs.reduce((c, n) => c + n.reduce((x, v) => x + v, 0), 0);
  const w = s.world;
  const U = s.universe.size;
  const wants = s.needed;
  const placements = s.universe.taskAtoms
    .filter((p) => p.name === 'is_on_top' || p.name === 'is_inside')
    .map((p) => ({ p: compilePredicate(w, p), o: w.index.get(p.args[0]!)!.i, f: w.index.get(p.args[1]!)!.i }));
  // Open/close goal atoms, and for each furniture the rooms of the levers that move it.
  const switches = s.universe.taskAtoms
    .filter((p) => p.name === 'is_open' || p.name === 'is_closed')
    .map((p) => ({ p: compilePredicate(w, p), f: w.index.get(p.args[0]!)!.i }));
  const triggerRooms = w.furniture.map((_, f) =>
    w.effects.flatMap((effs, t) => (effs.some((e) => e.target === f) ? [w.furnitureRoom[t]!] : [])),
  );
  const someoneAt = (ws: WorldState, rooms: number[], act: ActionName) => {
    for (let a = 0; a < s.agents; a++) if (w.allowed[a]!.has(act) && rooms.includes(ws.agentRoom[a]!)) return true;
    return false;
  };
  return (ws, ks) => {
    let c = 0;
    for (const check of checks) if (!check(ws, ks)) c++;
    if (c === 0) return 0;
    let missing = 0;
    for (const x of wants) if (!ks.flags[(x / U) | 0]![x % U]) missing++;
    // Steps still needed for each unmet placement: reach it (opening what hides it), pick, carry, place.
    let physical = 0;
    for (const { p, o, f } of placements) {
      if (p(ws)) continue;
      const loc = ws.objLoc[o]!;
      if (loc >= 0) {
        const closed = (loc & 1) === 1 && !ws.open[loc >> 1];
        physical += 2 + (closed ? 1 : 0);
        // Someone has to get there: to the object, or to the lever of the lock that holds it.
        if (closed && w.locked[loc >> 1]) physical += 1 + (someoneAt(ws, triggerRooms[loc >> 1]!, 'Open') ? 0 : 1);
        else if (!someoneAt(ws, [w.furnitureRoom[loc >> 1]!], 'Pick')) physical += 1;
      } else if (ws.agentRoom[-1 - loc] !== w.furnitureRoom[f]) physical += 1;
    }
    for (const { p, f } of switches) {
      if (p(ws)) continue;
      physical += 1 + (someoneAt(ws, w.locked[f] ? triggerRooms[f]! : [w.furnitureRoom[f]!, ...triggerRooms[f]!], 'Open') ? 0 : 1);
    }
    return c * (needed + 8) + missing + physical;
  };
}
