// Solvability by search over joint physical and knowledge states. Agents act in turn order
// (one ply per agent, a round per pass), so a plan of plies is a plan of rounds. An agent may
// only take actions its knowledge justifies: it picks, places, opens or closes a thing only
// when it knows a goal atom that names the thing (or names an object it knows to be inside
// it, or a mechanic that moves a named thing); it messages only atoms it knows, to agents the
// graph lets it reach, within its budget and the ToM level (knowledge.ts). Search is
// best-first on unsatisfied goal parts with duplicate detection; it is exhaustive within the
// turn limit unless the node cap is reached, in which case the answer is "undecided".
//
// verifyTask answers: solvable within the turn limit; the smallest ToM level at which it is;
// whether the physical part is solvable with every secret revealed to everyone (calibration);
// whether it needs communication at all; trivial K goals; and why, when it is not solvable.

import { epistemicNodes, evaluateFormula, formatFormula, kDepth, predicates, stripEpistemic, type Formula } from './goal.js';
import { holds, KnowledgeState, KnowledgeUniverse } from './knowledge.js';
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
  /** Start from this state (at the start of a round) instead of the task's initial state. */
  from?: { ws: WorldState; ks: KnowledgeState; round: number };
}

interface Node {
  ws: WorldState;
  ks: KnowledgeState;
  ply: number;
  parent: Node | null;
  action: Action | null;
  score: number;
  h: number;
}

/** Top-level conjuncts of a goal. */
function conjuncts(f: Formula): Formula[] {
  return f.op === 'and' ? f.args.flatMap(conjuncts) : [f];
}

function copyInto(to: WorldState, from: WorldState): void {
  to.agentRoom.set(from.agentRoom);
  to.holding.set(from.holding);
  to.objLoc.set(from.objLoc);
  to.open.set(from.open);
  to.messagesLeft.set(from.messagesLeft);
}

class MinHeap {
  #items: Node[] = [];
  get size(): number {
    return this.#items.length;
  }
  push(n: Node): void {
    const a = this.#items;
    a.push(n);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p].score <= n.score) break;
      a[i] = a[p];
      i = p;
    }
    a[i] = n;
  }
  pop(): Node | undefined {
    const a = this.#items;
    const top = a[0];
    const last = a.pop();
    if (a.length && last) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l].score < (m === i ? last.score : a[m].score)) m = l;
        if (r < a.length && a[r].score < (m === i ? last.score : a[m].score)) m = r;
        if (m === i) break;
        a[i] = a[m];
        i = m;
      }
      a[i] = last;
    }
    return top;
  }
}

export class TaskSearch {
  readonly world: World;
  readonly universe: KnowledgeUniverse;
  readonly agents: number;

  /** useful[a][b][i]: a message from a to b about atom i can serve the goal (see #usefulMessages). */
  readonly useful: Uint8Array[][];
  /** needs[b][i]: agent b needs atom i to act or to satisfy a K goal. */
  readonly needs: Uint8Array[];

  constructor(readonly task: EmbodiedTask) {
    this.world = new World(task);
    this.universe = new KnowledgeUniverse(task, this.world);
    this.agents = this.world.agents.length;
    this.needs = this.#needs();
    this.useful = this.#usefulMessages();
  }

  /**
   * What each agent needs to know: the goal atoms it could achieve itself (it has the action and
   * the room), where their objects are, the mechanics that move their things, and psi for every
   * (K agent psi) in the goal; and, for (K b psi) that someone needs, psi for b.
   */
  #needs(): Uint8Array[] {
    const w = this.world;
    const u = this.universe;
    const s0 = w.initialState();
    const needs = w.agents.map(() => new Uint8Array(u.size));
    const access = (a: number, name: string) => {
      const r = w.entityRoom(s0, name);
      return r < 0 || !w.barred[a][r] || w.index.get(name)?.kind === 'object';
    };
    u.atoms.forEach((atom, i) => {
      if (atom.kind !== 'task') return;
      const p = atom.pred;
      const acts: ActionName[] = p.name === 'is_open' || p.name === 'is_closed' ? ['Open', 'Close'] : ['Pick', 'Place'];
      for (let a = 0; a < this.agents; a++) {
        if (!acts.some((x) => w.allowed[a].has(x)) || !p.args.every((n) => access(a, n))) continue;
        needs[a][i] = 1;
        u.atoms.forEach((x, j) => {
          if (x.kind === 'loc' && p.args.includes(w.objects[x.object])) needs[a][j] = 1;
          if (x.kind === 'mechanic') {
            const m = this.task.mechanics[x.index];
            if ((m.target && p.args.includes(m.target)) || (m.trigger && p.args.includes(m.trigger))) needs[a][j] = 1;
          }
        });
      }
    });
    for (const node of epistemicNodes(this.task.goal)) needs[w.agents.indexOf(node.agent)][u.formulaAtom(node.arg)] = 1;
    for (const a of this.task.agents) if (a.privateGoal) for (const node of epistemicNodes(a.privateGoal)) needs[w.agents.indexOf(node.agent)][u.formulaAtom(node.arg)] = 1;
    // Someone needs (K b psi): b needs psi.
    for (let changed = true; changed; ) {
      changed = false;
      for (let a = 0; a < this.agents; a++) {
        u.atoms.forEach((x, i) => {
          if (x.kind === 'knows' && needs[a][i] && !needs[x.agent][x.inner]) {
            needs[x.agent][x.inner] = 1;
            changed = true;
          }
        });
      }
    }
    return needs;
  }

  /**
   * A message a -> b about atom i is useful when b needs i or can pass it on towards someone
   * who does (along the graph), when b needs to learn that a knows i, or when a needs to learn
   * that b knows i. Other messages are never candidates: they cannot serve the goal.
   */
  #usefulMessages(): Uint8Array[][] {
    const w = this.world;
    const u = this.universe;
    const A = this.agents;
    const relay = this.needs.map((n) => n.slice());
    for (let changed = true; changed; ) {
      changed = false;
      for (let c = 0; c < A; c++) {
        for (let d = 0; d < A; d++) {
          if (!w.canMessage[c][d] || !w.allowed[c].has('Communicate')) continue;
          for (let i = 0; i < u.size; i++) {
            if (relay[d][i] && !relay[c][i]) {
              relay[c][i] = 1;
              changed = true;
            }
          }
        }
      }
    }
    const knowsAtom = (agent: number, inner: number) => u.atoms.findIndex((x) => x.kind === 'knows' && x.agent === agent && x.inner === inner);
    return w.agents.map((_, a) =>
      w.agents.map((__, b) =>
        Uint8Array.from({ length: u.size }, (___, i) => {
          if (a === b || !w.canMessage[a][b]) return 0;
          const kb = knowsAtom(a, i);
          const ka = knowsAtom(b, i);
          return relay[b][i] || (kb >= 0 && relay[b][kb]) || (ka >= 0 && this.needs[a][ka]) ? 1 : 0;
        }),
      ),
    );
  }

  initial(level: number, revealAll = false): { ws: WorldState; ks: KnowledgeState } {
    const ws = this.world.initialState();
    const ks = KnowledgeState.initial(this.universe, level);
    if (revealAll) {
      for (const f of ks.flags) this.universe.atoms.forEach((a, i) => (f[i] = a.kind === 'task' || a.kind === 'loc' || a.kind === 'mechanic' ? 1 : f[i]));
    }
    for (let a = 0; a < this.agents; a++) ks.observe(ws, a);
    return { ws, ks };
  }

  /** Apply one action with its knowledge effects; returns whether the world accepted it. */
  step(ws: WorldState, ks: KnowledgeState, agent: number, action: Action, told: number[] = []): boolean {
    const out = this.world.apply(ws, agent, action);
    if (!out.ok) return false;
    ks.invalidate(ws, out.changedFurniture, out.movedObjects);
    if (out.deliveredTo) ks.tell(agent, out.deliveredTo, told);
    for (let a = 0; a < this.agents; a++) ks.observe(ws, a);
    return true;
  }

  /** A goal as a function of the state, with its predicates and epistemic atoms resolved once. */
  compile(f: Formula): (ws: WorldState, ks: KnowledgeState) => boolean {
    switch (f.op) {
      case 'and': {
        const parts = f.args.map((a) => this.compile(a));
        return (ws, ks) => parts.every((p) => p(ws, ks));
      }
      case 'or': {
        const parts = f.args.map((a) => this.compile(a));
        return (ws, ks) => parts.some((p) => p(ws, ks));
      }
      case 'not': {
        const inner = this.compile(f.arg);
        return (ws, ks) => !inner(ws, ks);
      }
      case 'K':
      case 'B': {
        const inner = this.compile(f.arg);
        const agent = this.world.agents.indexOf(f.agent);
        const atom = this.universe.byFormula.get(formatFormula(f.arg)) ?? -1;
        return (ws, ks) => atom >= 0 && ks.flags[agent][atom] === 1 && inner(ws, ks);
      }
      case 'pred':
        return (ws) => holds(this.world, ws, f);
    }
  }

  goalHolds(goal: Formula, ws: WorldState, ks: KnowledgeState): boolean {
    return evaluateFormula(
      goal,
      (p) => holds(this.world, ws, p),
      (agent, phi) => ks.knowsFormula(this.world.agents.indexOf(agent), phi),
    );
  }

  /** Knowledge-justified candidate actions of one agent (with, for messages, the atom told). */
  candidates(ws: WorldState, ks: KnowledgeState, agent: number, level: number): Array<{ action: Action; told?: number }> {
    const w = this.world;
    const u = this.universe;
    const out: Array<{ action: Action; told?: number }> = [{ action: { type: 'Wait' } }];
    const allowed = w.allowed[agent];
    const known = ks.flags[agent];
    // Names the agent has a purpose for: entities of goal atoms it knows, and mechanics' triggers whose target it has a purpose for.
    const purpose = new Set<string>();
    u.atoms.forEach((a, i) => {
      if (a.kind === 'task' && known[i]) a.pred.args.forEach((n) => purpose.add(n));
    });
    // Furniture that holds an object the agent knows about and has a purpose for.
    u.atoms.forEach((a, i) => {
      if (a.kind === 'loc' && known[i] && purpose.has(w.objects[a.object])) {
        const loc = ws.objLoc[a.object];
        if (loc >= 0 && (loc & 1) === 1) purpose.add(w.furniture[loc >> 1]);
      }
    });
    // Then the triggers of mechanics that move those things.
    u.atoms.forEach((a, i) => {
      if (a.kind === 'mechanic' && known[i]) {
        const m = this.task.mechanics[a.index];
        if (m.target && purpose.has(m.target) && m.trigger) purpose.add(m.trigger);
        if (m.type === 'inverse_state' && m.trigger) purpose.add(m.trigger);
      }
    });
    const here = ws.agentRoom[agent];
    if (allowed.has('Navigate')) {
      // Only towards rooms where the agent has something to do: a thing it has a purpose for
      // (and knows where it is, for objects), or a fact it needs to see.
      const wanted = new Uint8Array(w.rooms.length);
      for (const name of purpose) {
        const e = w.index.get(name);
        if (!e || e.kind === 'room' || e.kind === 'agent') continue;
        if (e.kind === 'object') {
          const li = u.atoms.findIndex((x) => x.kind === 'loc' && x.object === e.i);
          if (li >= 0 && !known[li]) {
            // Not knowing where it is: look around (things inside closed furniture stay hidden).
            for (let r = 0; r < w.rooms.length; r++) wanted[r] = 1;
            continue;
          }
        }
        const r = w.entityRoom(ws, name);
        if (r >= 0) wanted[r] = 1;
      }
      for (let i = 0; i < u.size; i++) {
        if (!this.needs[agent][i] || known[i] || u.atoms[i].kind !== 'fact') continue;
        for (const name of u.entities[i]) {
          const r = w.entityRoom(ws, name);
          if (r >= 0) wanted[r] = 1;
        }
      }
      for (let r = 0; r < w.rooms.length; r++) if (r !== here && wanted[r] && !w.barred[agent][r]) out.push({ action: { type: 'Navigate', target: w.rooms[r] } });
    }
    for (let f = 0; f < w.furniture.length; f++) {
      if (w.furnitureRoom[f] !== here || !w.openable[f] || !purpose.has(w.furniture[f])) continue;
      if (allowed.has('Open') && !ws.open[f]) out.push({ action: { type: 'Open', furniture: w.furniture[f] } });
      if (allowed.has('Close') && ws.open[f]) out.push({ action: { type: 'Close', furniture: w.furniture[f] } });
      if (w.inverse[f]) {
        if (allowed.has('Open') && ws.open[f]) out.push({ action: { type: 'Open', furniture: w.furniture[f] } });
        if (allowed.has('Close') && !ws.open[f]) out.push({ action: { type: 'Close', furniture: w.furniture[f] } });
      }
    }
    const held = ws.holding[agent];
    if (held < 0 && allowed.has('Pick')) {
      for (let o = 0; o < w.objects.length; o++) {
        const loc = ws.objLoc[o];
        if (loc < 0 || w.furnitureRoom[loc >> 1] !== here || !w.visible(ws, o) || !purpose.has(w.objects[o])) continue;
        out.push({ action: { type: 'Pick', object: w.objects[o] } });
      }
    }
    if (held >= 0 && allowed.has('Place')) {
      for (let f = 0; f < w.furniture.length; f++) {
        if (w.furnitureRoom[f] !== here) continue;
        out.push({ action: { type: 'Place', object: w.objects[held], rel: 'on', furniture: w.furniture[f] } });
        if (w.openable[f] && ws.open[f]) out.push({ action: { type: 'Place', object: w.objects[held], rel: 'in', furniture: w.furniture[f] } });
      }
    }
    if (level >= 1 && allowed.has('Communicate') && ws.messagesLeft[agent] !== 0) {
      const reach: number[] = [];
      for (let b = 0; b < this.agents; b++) if (w.canMessage[agent][b]) reach.push(b);
      for (let i = 0; i < u.size; i++) {
        if (!known[i] || !ks.maySay(i)) continue;
        const lacking = reach.filter((b) => this.useful[agent][b][i] && !ks.flags[b][i] && ks.mayHold(i));
        if (lacking.length === 0) continue;
        const text = this.messageText(i, ws);
        for (const b of lacking) out.push({ action: { type: 'Communicate', to: [w.agents[b]], text }, told: i });
        if (reach.length > 1) out.push({ action: { type: 'Communicate', to: 'all', text }, told: i });
      }
    }
    return out;
  }

  /** A message stating atom i in words that name its entities (so that a reader of the text learns it). */
  messageText(i: number, ws: WorldState): string {
    const w = this.world;
    const atom = this.universe.atoms[i];
    switch (atom.kind) {
      case 'task':
        return `The goal needs ${formatFormula(atom.pred)}.`;
      case 'loc': {
        const loc = ws.objLoc[atom.object];
        return loc < 0 ? `${w.objects[atom.object]} is held by ${w.agents[-1 - loc]}.` : `${w.objects[atom.object]} is ${(loc & 1) === 1 ? 'inside' : 'on'} ${w.furniture[loc >> 1]}.`;
      }
      case 'mechanic': {
        const m = this.task.mechanics[atom.index];
        return m.target ? `${m.trigger} is linked to ${m.target} (${m.type}).` : `${m.trigger} works in reverse (${m.type}).`;
      }
      case 'fact':
        return `${formatFormula(atom.formula)} holds.`;
      case 'knows':
        return `${w.agents[atom.agent]} knows: ${this.messageText(atom.inner, ws)}`;
    }
  }

  #key(n: { ws: WorldState; ks: KnowledgeState; ply: number }): string {
    const s = n.ws;
    return `${n.ply % this.agents}|${s.agentRoom.join(',')}|${s.holding.join(',')}|${s.objLoc.join(',')}|${s.open.join('')}|${s.messagesLeft.join(',')}|${n.ks.key()}`;
  }

  search(opts: SearchOptions): SearchResult {
    const level = opts.level;
    const goal = opts.physicalOnly ? stripEpistemic(this.task.goal) : this.task.goal;
    const parts = conjuncts(goal);
    const maxNodes = opts.maxNodes ?? 200_000;
    const limit = this.task.turnLimit * this.agents;
    const start = opts.from ? { ws: World.clone(opts.from.ws), ks: new KnowledgeState(this.universe, opts.from.ks.flags.map((f) => f.slice()), level) } : this.initial(level, opts.revealAll);
    const firstPly = opts.from ? (opts.from.round - 1) * this.agents : 0;
    const checks = parts.map((p) => this.compile(p));
    // Unmet goal parts dominate; needed knowledge still missing breaks ties towards informing.
    const needed = this.needs.reduce((c, n) => c + n.reduce((x, v) => x + v, 0), 0);
    const w = this.world;
    const placements = this.universe.taskAtoms
      .filter((p) => p.name === 'is_on_top' || p.name === 'is_inside')
      .map((p) => ({ p, o: w.index.get(p.args[0])!.i, f: w.index.get(p.args[1])!.i }));
    const unmet = (ws: WorldState, ks: KnowledgeState) => {
      let c = 0;
      for (const check of checks) if (!check(ws, ks)) c++;
      if (c === 0) return 0;
      let missing = 0;
      for (let a = 0; a < this.agents; a++) for (let i = 0; i < this.universe.size; i++) if (this.needs[a][i] && !ks.flags[a][i]) missing++;
      // Steps still needed for each unmet placement: reach it (opening what hides it), pick, carry, place.
      let physical = 0;
      for (const { p, o, f } of placements) {
        if (holds(w, ws, p)) continue;
        const loc = ws.objLoc[o];
        if (loc >= 0) physical += 2 + ((loc & 1) === 1 && !ws.open[loc >> 1] ? 1 : 0);
        else if (ws.agentRoom[-1 - loc] !== w.furnitureRoom[f]) physical += 1;
      }
      return c * (needed + 8) + missing + physical;
    };
    const root: Node = { ...start, ply: firstPly, parent: null, action: null, score: 0, h: unmet(start.ws, start.ks) };
    const heap = new MinHeap();
    heap.push(root);
    const scratch = { ws: World.clone(start.ws), ks: start.ks.clone() };
    const seen = new Set<string>([this.#key(root)]);
    let nodes = 0;
    let best = root;
    let capped = false;
    while (heap.size) {
      const n = heap.pop()!;
      nodes++;
      if (n.h === 0) return { status: 'solved', ...this.#planOf(n), nodes };
      if (n.h < best.h || (n.h === best.h && n.ply < best.ply)) best = n;
      if (nodes > maxNodes) {
        capped = true;
        break;
      }
      if (n.ply >= limit) continue;
      const agent = n.ply % this.agents;
      for (const c of this.candidates(n.ws, n.ks, agent, level)) {
        // Try the action on scratch copies; keep copies only of states not seen before.
        copyInto(scratch.ws, n.ws);
        for (let a = 0; a < this.agents; a++) scratch.ks.flags[a].set(n.ks.flags[a]);
        if (!this.step(scratch.ws, scratch.ks, agent, c.action, c.told === undefined ? [] : [c.told])) continue;
        const key = this.#key({ ws: scratch.ws, ks: scratch.ks, ply: n.ply + 1 });
        if (seen.has(key)) continue;
        seen.add(key);
        const ws = World.clone(scratch.ws);
        const ks = scratch.ks.clone();
        const child = { ws, ks, ply: n.ply + 1 };
        const h = unmet(ws, ks);
        // Weighted best-first: unmet goal parts dominate, then rounds used.
        heap.push({ ...child, parent: n, action: c.action, h, score: h * 2 * this.agents + child.ply });
      }
    }
    if (opts.bestEffort) return { status: capped ? 'undecided' : 'unsolvable', ...this.#planOf(best), nodes };
    return { status: capped ? 'undecided' : 'unsolvable', plan: null, rounds: null, nodes };
  }

  #planOf(n: Node): { plan: PlanStep[]; rounds: number } {
    const steps: PlanStep[] = [];
    for (let x: Node | null = n; x && x.action; x = x.parent) steps.push({ round: Math.floor((x.ply - 1) / this.agents) + 1, agent: this.world.agents[(x.ply - 1) % this.agents], action: x.action });
    steps.reverse();
    return { plan: steps, rounds: Math.ceil(n.ply / this.agents) };
  }
}

/**
 * Relaxed reachability at a ToM level: what each agent could ever know and which goal atoms
 * could ever hold, ignoring turn limits, message budgets and every way knowledge is lost. It
 * over-approximates the real search, so "unreachable" here proves the task unsolvable at that
 * level without searching.
 */
export function relaxedReachable(search: TaskSearch, level: number, goal: Formula, revealAll = false): boolean {
  const w = search.world;
  const u = search.universe;
  const A = w.agents.length;
  const start = search.initial(level, revealAll).ks;
  const can = start.flags.map((f) => Uint8Array.from(f));
  const access = (a: number, room: number) => room >= 0 && !w.barred[a][room];
  const anyRoom = (a: number) => w.rooms.some((_, r) => access(a, r));
  const s0 = w.initialState();
  // Entities that never move (furniture, rooms) must be in an accessible room; objects may be carried anywhere.
  const canSee = (a: number, names: string[]) =>
    names.every((n) => {
      const e = w.index.get(n);
      if (!e || e.kind === 'room' || e.kind === 'agent') return true;
      return e.kind === 'object' ? anyRoom(a) : access(a, w.furnitureRoom[e.i]);
    });
  const mayHold = (i: number) => u.depth[i] === 0 || u.depth[i] + 1 <= level;
  const maySay = (i: number) => u.depth[i] + 1 <= level;
  const knowsAtom = (agent: number, inner: number) => u.atoms.findIndex((x) => x.kind === 'knows' && x.agent === agent && x.inner === inner);
  const talks = (a: number, b: number) => w.canMessage[a][b] === 1 && w.allowed[a].has('Communicate') && search.task.agents[a].messageBudget !== 0;
  for (let changed = true; changed; ) {
    changed = false;
    const set = (a: number, i: number) => {
      if (i >= 0 && !can[a][i] && mayHold(i)) {
        can[a][i] = 1;
        changed = true;
      }
    };
    for (let a = 0; a < A; a++) {
      for (let i = 0; i < u.size; i++) {
        const atom = u.atoms[i];
        if ((atom.kind === 'fact' || atom.kind === 'loc') && canSee(a, u.entities[i])) set(a, i);
        if (atom.kind === 'knows' && atom.agent !== a && canSee(a, u.entities[atom.inner]) && canSee(atom.agent, u.entities[atom.inner])) {
          const inner = u.atoms[atom.inner];
          if (inner.kind === 'fact' || inner.kind === 'loc') set(a, i);
        }
        if (!can[a][i] || !maySay(i)) continue;
        for (let b = 0; b < A; b++) {
          if (!talks(a, b)) continue;
          set(b, i);
          set(b, knowsAtom(a, i));
          set(a, knowsAtom(b, i));
        }
      }
    }
  }
  // Physical atoms: some agent with the action, the access and the purpose (a known task atom naming the thing).
  const purpose = (a: number, name: string) => u.atoms.some((x, i) => x.kind === 'task' && can[a][i] && x.pred.args.includes(name));
  const achievable = (p: Extract<Formula, { op: 'pred' }>): boolean => {
    if (holds(w, s0, p)) return true;
    const [x, y] = p.args;
    const agents = w.agents.map((_, a) => a);
    switch (p.name) {
      case 'is_on_top':
      case 'is_inside':
      case 'is_held_by': {
        const o = w.index.get(x)!.i;
        const pickers = agents.filter((a) => w.allowed[a].has('Pick') && purpose(a, x) && access(a, w.objectRoom(s0, o)));
        if (pickers.length === 0) return false;
        if (p.name === 'is_held_by') return pickers.includes(w.index.get(y)!.i);
        const f = w.index.get(y)!.i;
        return agents.some((a) => w.allowed[a].has('Place') && access(a, w.furnitureRoom[f]) && (purpose(a, y) || purpose(a, x)));
      }
      case 'is_open':
      case 'is_closed': {
        const f = w.index.get(x)!.i;
        if (w.locked[f] && !search.task.mechanics.some((m) => m.target === x)) return false;
        return agents.some((a) => (w.allowed[a].has('Open') || w.allowed[a].has('Close')) && (access(a, w.furnitureRoom[f]) || search.task.mechanics.some((m) => m.target === x && m.trigger && access(a, w.furnitureRoom[w.index.get(m.trigger)!.i]))) && purpose(a, x));
      }
      case 'agent_in_room':
        return access(w.index.get(x)!.i, w.index.get(y)!.i);
      default:
        return true;
    }
  };
  const reach = (f: Formula): boolean => {
    switch (f.op) {
      case 'and':
        return f.args.every(reach);
      case 'or':
        return f.args.some(reach);
      case 'not':
        return true;
      case 'K':
      case 'B': {
        const i = u.byFormula.get(formatFormula(f.arg));
        return reach(f.arg) && i !== undefined && can[w.agents.indexOf(f.agent)][i] === 1;
      }
      case 'pred':
        return achievable(f);
    }
  };
  return reach(goal);
}

export interface VerifyResult {
  task: string;
  kDepth: number;
  solvable: boolean | 'undecided';
  /** Smallest ToM level (0 = no communication) at which a plan exists within the turn limit. */
  minToMLevel: number | null;
  calibrates: boolean | 'undecided';
  needsCommunication: boolean | 'undecided';
  trivialK: string[];
  plan: PlanStep[] | null;
  rounds: number | null;
  explanations: string[];
  nodes: number;
  ms: number;
}

/** Epistemic nodes whose agent can observe every entity of the formula itself (no room barred). */
export function trivialKNodes(task: EmbodiedTask): string[] {
  const world = new World(task);
  const s = world.initialState();
  return epistemicNodes(task.goal)
    .filter((node) => {
      const a = world.agents.indexOf(node.agent);
      const names = predicates(node.arg).flatMap((p) => p.args);
      const remote = task.mechanics.some((m) => (m.type === 'remote_control' || m.type === 'state_mirroring') && names.includes(m.target ?? ''));
      return !remote && node.arg.op === 'pred' && names.every((n) => world.index.get(n)?.kind === 'agent' || (world.entityRoom(s, n) >= 0 && !world.barred[a][world.entityRoom(s, n)]));
    })
    .map((node) => formatFormula(node));
}

/** Why a task cannot be solved: facts some agent needs but can never receive. */
function explain(task: EmbodiedTask, search: TaskSearch): string[] {
  const w = search.world;
  const u = search.universe;
  const s = w.initialState();
  const out: string[] = [];
  // Reachability in the communication graph.
  const reaches = (from: number, to: number): boolean => {
    const seen = new Set([from]);
    const queue = [from];
    while (queue.length) {
      const x = queue.shift()!;
      if (x === to) return true;
      for (let y = 0; y < w.agents.length; y++) {
        if (w.canMessage[x][y] && task.agents[x].messageBudget !== 0 && w.allowed[x].has('Communicate') && !seen.has(y)) {
          seen.add(y);
          queue.push(y);
        }
      }
    }
    return false;
  };
  const canObserve = (a: number, names: string[]) => names.every((n) => {
    const r = w.entityRoom(s, n);
    return r < 0 || !w.barred[a][r];
  });
  for (const node of epistemicNodes(task.goal)) {
    const a = w.agents.indexOf(node.agent);
    const names = u.entities[u.formulaAtom(node.arg)];
    if (canObserve(a, names)) continue;
    const sources = w.agents.map((_, b) => b).filter((b) => b !== a && canObserve(b, names));
    if (sources.every((b) => !reaches(b, a))) out.push(`${node.agent} can never learn ${formatFormula(node.arg)}: no path in the communication graph from an agent who can observe it`);
  }
  const ks = KnowledgeState.initial(u);
  u.taskAtoms.forEach((pred, i) => {
    const atom = u.atoms.findIndex((x) => x.kind === 'task' && x.atom === i);
    const knowers = w.agents.map((_, b) => b).filter((b) => ks.flags[b][atom]);
    const actors = w.agents.map((_, b) => b).filter((b) => canObserve(b, pred.args.filter((n) => w.index.get(n)?.kind !== 'agent' && w.index.get(n)?.kind !== 'room')) && (w.allowed[b].has('Place') || w.allowed[b].has('Open') || w.allowed[b].has('Close')));
    if (knowers.length === 0) out.push(`no agent knows that the goal needs ${formatFormula(pred)} (it is in no secret and not in the public text)`);
    else if (actors.length === 0) out.push(`no agent can reach and act on ${formatFormula(pred)} (room restrictions or missing actions)`);
    else if (!actors.some((b) => knowers.some((k) => k === b || reaches(k, b)))) out.push(`the agents who could achieve ${formatFormula(pred)} (${actors.map((b) => w.agents[b]).join(', ')}) can never learn that it is needed: no path in the communication graph from ${knowers.map((b) => w.agents[b]).join(', ')}`);
  });
  return out;
}

export function verifyTask(task: EmbodiedTask, opts: { maxNodes?: number; maxLevel?: number } = {}): VerifyResult {
  const t0 = performance.now();
  const search = new TaskSearch(task);
  const depth = kDepth(task.goal);
  const maxLevel = opts.maxLevel ?? Math.max(3, depth + 1);
  let nodes = 0;
  let minLevel: number | null = null;
  let found: SearchResult | null = null;
  let undecided = false;
  let noMessages: SearchResult['status'] = 'undecided';
  for (let level = 0; level <= maxLevel; level++) {
    const r: SearchResult = relaxedReachable(search, level, task.goal) ? search.search({ level, maxNodes: opts.maxNodes }) : { status: 'unsolvable', plan: null, rounds: null, nodes: 0 };
    nodes += r.nodes;
    if (level === 0) noMessages = r.status;
    if (r.status === 'solved') {
      minLevel = level;
      found = r;
      break;
    }
    if (r.status === 'undecided') undecided = true;
  }
  const physical = stripEpistemic(task.goal);
  const calib: SearchResult = relaxedReachable(search, 0, physical, true) ? search.search({ level: 0, physicalOnly: true, revealAll: true, maxNodes: opts.maxNodes }) : { status: 'unsolvable', plan: null, rounds: null, nodes: 0 };
  nodes += calib.nodes;
  const solvable = found ? true : undecided ? 'undecided' : false;
  return {
    task: task.id,
    kDepth: depth,
    solvable,
    minToMLevel: minLevel,
    calibrates: calib.status === 'solved' ? true : calib.status === 'undecided' ? 'undecided' : false,
    needsCommunication: noMessages === 'solved' ? false : noMessages === 'unsolvable' ? true : 'undecided',
    trivialK: trivialKNodes(task),
    plan: found?.plan ?? null,
    rounds: found?.rounds ?? null,
    explanations: found ? [] : explain(task, search),
    nodes,
    ms: performance.now() - t0,
  };
}
