// Search over joint physical and knowledge states. Agents act in turn order (one ply per
// agent, a round per pass), so a plan of plies is a plan of rounds. An agent may only take
// actions its knowledge justifies: it picks, places, opens or closes a thing only when it knows
// a goal atom that names the thing (or names an object it knows to be inside it, or a mechanic
// that moves a named thing); it navigates only towards such things or towards facts it needs to
// see (or anywhere, to look for an object whose place it does not know); it messages only
// atoms it knows that serve someone's need, to agents the graph lets it reach, within its
// budget and the ToM level (knowledge.ts). Search is best-first on unsatisfied goal parts, then
// needed knowledge still missing and placement steps left, with duplicate detection; it is
// exhaustive within the turn limit unless the node cap is reached ("undecided").

import { epistemicNodes, evaluateFormula, formatFormula, type Formula } from './goal.js';
import { holds, KnowledgeState, KnowledgeUniverse } from './knowledge.js';
import { compilePredicate } from './atom-tables.js';
import { SearchRun, type SearchOptions, type SearchResult, type SearchSpace } from './search-run.js';
import type { ActionName, EmbodiedTask } from './task.js';
import { World, type Action, type WorldState } from './world.js';

export type { PlanStep, SearchOptions, SearchResult } from './search-run.js';

/** What `candidates` and the heuristic read per node, resolved once per task. */
interface SearchTables {
  purposeFurniture: Uint8Array;
  purposeObjects: Uint8Array;
  wanted: Uint8Array;
  taskAtoms: number[];
  mechanicAtoms: Array<{ i: number; target: number; trigger: number; inverse: boolean }>;
  /** Per agent: the fact atoms it needs to see. */
  neededFacts: number[][];
  /** Every (agent, atom) need, as agent * atoms + atom. */
  needed: number[];
}

/** Best-first search over joint world and knowledge states of a task, at a ToM level. */
export class TaskSearch implements SearchSpace {
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

  #search: SearchTables | undefined;

  /** Tables and scratch arrays for `candidates` and the heuristic, built on first use (replaying a plan needs none). */
  get #tables(): SearchTables {
    if (this.#search) return this.#search;
    const u = this.universe;
    const w = this.world;
    const t: SearchTables = {
      purposeFurniture: new Uint8Array(w.furniture.length),
      purposeObjects: new Uint8Array(w.objects.length),
      wanted: new Uint8Array(w.rooms.length),
      taskAtoms: [],
      mechanicAtoms: [],
      neededFacts: this.needs.map((n) => u.atoms.flatMap((a, i) => (n[i] && a.kind === 'fact' ? [i] : []))),
      needed: this.needs.flatMap((n, a) => u.atoms.flatMap((_, i) => (n[i] ? [a * u.size + i] : []))),
    };
    u.atoms.forEach((a, i) => {
      if (a.kind === 'task') t.taskAtoms.push(i);
      if (a.kind === 'mechanic') {
        const m = this.task.mechanics[a.index]!;
        const furniture = (name: string | undefined) => (name ? w.furniture.indexOf(name) : -1);
        t.mechanicAtoms.push({ i, target: furniture(m.target), trigger: furniture(m.trigger), inverse: m.type === 'inverse_state' });
      }
    });
    this.#search = t;
    return t;
  }

  /** Every (agent, atom) need, as agent * atoms + atom (for the heuristic). */
  get needed(): number[] {
    return this.#tables.needed;
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
      return r < 0 || !w.barred[a]![r] || w.index.get(name)?.kind === 'object';
    };
    u.atoms.forEach((atom, i) => {
      if (atom.kind !== 'task') return;
      const p = atom.pred;
      const acts: ActionName[] = p.name === 'is_open' || p.name === 'is_closed' ? ['Open', 'Close'] : ['Pick', 'Place'];
      for (let a = 0; a < this.agents; a++) {
        if (!acts.some((x) => w.allowed[a]!.has(x)) || !p.args.every((n) => access(a, n))) continue;
        needs[a]![i] = 1;
        u.atoms.forEach((x, j) => {
          if (x.kind === 'loc' && p.args.includes(w.objects[x.object]!)) needs[a]![j] = 1;
          if (x.kind === 'mechanic') {
            const m = this.task.mechanics[x.index]!;
            if ((m.target && p.args.includes(m.target)) || (m.trigger && p.args.includes(m.trigger))) needs[a]![j] = 1;
          }
        });
      }
    });
    for (const node of epistemicNodes(this.task.goal)) needs[w.agents.indexOf(node.agent)]![u.formulaAtom(node.arg)] = 1;
    for (const a of this.task.agents)
      if (a.privateGoal)
        for (const node of epistemicNodes(a.privateGoal)) needs[w.agents.indexOf(node.agent)]![u.formulaAtom(node.arg)] = 1;
    // Someone needs (K b psi): b needs psi.
    for (let changed = true; changed; ) {
      changed = false;
      for (let a = 0; a < this.agents; a++) {
        u.atoms.forEach((x, i) => {
          if (x.kind === 'knows' && needs[a]![i] && !needs[x.agent]![x.inner]) {
            needs[x.agent]![x.inner] = 1;
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
          if (!w.canMessage[c]![d] || !w.allowed[c]!.has('Communicate')) continue;
          for (let i = 0; i < u.size; i++) {
            if (relay[d]![i] && !relay[c]![i]) {
              relay[c]![i] = 1;
              changed = true;
            }
          }
        }
      }
    }
    return w.agents.map((_, a) =>
      w.agents.map((__, b) =>
        Uint8Array.from({ length: u.size }, (___, i) => {
          if (a === b || !w.canMessage[a]![b]) return 0;
          const kb = u.knowsAtom(a, i);
          const ka = u.knowsAtom(b, i);
          return relay[b]![i] || (kb >= 0 && relay[b]![kb]) || (ka >= 0 && this.needs[a]![ka]) ? 1 : 0;
        }),
      ),
    );
  }

  initial(level: number, revealAll = false): { ws: WorldState; ks: KnowledgeState } {
    const ws = this.world.initialState();
    const ks = KnowledgeState.initial(this.universe, level);
    if (revealAll) {
      for (const f of ks.flags)
        this.universe.atoms.forEach((a, i) => (f[i] = a.kind === 'task' || a.kind === 'loc' || a.kind === 'mechanic' ? 1 : f[i]!));
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
    ks.observeAll(ws);
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
        return (ws, ks) => atom >= 0 && ks.flags[agent]![atom] === 1 && inner(ws, ks);
      }
      case 'pred':
        return compilePredicate(this.world, f);
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
    const allowed = w.allowed[agent]!;
    const known = ks.flags[agent]!;
    // Things the agent has a purpose for: furniture and objects of goal atoms it knows.
    const t = u.tables;
    const st = this.#tables;
    const pf = st.purposeFurniture.fill(0);
    const po = st.purposeObjects.fill(0);
    for (const i of st.taskAtoms)
      if (known[i]) {
        for (const f of t.furnitureNamed[i]!) pf[f] = 1;
        for (const o of t.objectsNamed[i]!) po[o] = 1;
      }
    // Furniture that holds an object the agent knows about and has a purpose for.
    for (let o = 0; o < w.objects.length; o++) {
      if (!po[o]) continue;
      const li = t.locAtom[o]!;
      if (li < 0 || !known[li]) continue;
      const loc = ws.objLoc[o]!;
      if (loc >= 0 && (loc & 1) === 1) pf[loc >> 1] = 1;
    }
    // Then the triggers of mechanics that move those things (in order: a trigger can be the next one's target).
    for (const { i, target, trigger, inverse } of st.mechanicAtoms) {
      if (!known[i] || trigger < 0) continue;
      if ((target >= 0 && pf[target]) || inverse) pf[trigger] = 1;
    }
    const here = ws.agentRoom[agent];
    if (allowed.has('Navigate')) {
      // Only towards rooms where the agent has something to do: a thing it has a purpose for
      // (and knows where it is, for objects), or a fact it needs to see.
      const wanted = st.wanted.fill(0);
      for (let f = 0; f < w.furniture.length; f++) if (pf[f]) wanted[w.furnitureRoom[f]!] = 1;
      for (let o = 0; o < w.objects.length; o++) {
        if (!po[o]) continue;
        const li = t.locAtom[o]!;
        // Not knowing where it is: look around (things inside closed furniture stay hidden).
        if (li >= 0 && !known[li]) wanted.fill(1);
        else wanted[w.objectRoom(ws, o)] = 1;
      }
      for (const i of st.neededFacts[agent]!) {
        if (known[i]) continue;
        for (const name of u.entities[i]!) {
          const r = w.entityRoom(ws, name);
          if (r >= 0) wanted[r] = 1;
        }
      }
      for (let r = 0; r < w.rooms.length; r++)
        if (r !== here && wanted[r] && !w.barred[agent]![r]) out.push({ action: { type: 'Navigate', target: w.rooms[r]! } });
    }
    for (let f = 0; f < w.furniture.length; f++) {
      if (w.furnitureRoom[f] !== here || !w.openable[f] || !pf[f]) continue;
      if (allowed.has('Open') && !ws.open[f]) out.push({ action: { type: 'Open', furniture: w.furniture[f]! } });
      if (allowed.has('Close') && ws.open[f]) out.push({ action: { type: 'Close', furniture: w.furniture[f]! } });
      if (w.inverse[f]) {
        if (allowed.has('Open') && ws.open[f]) out.push({ action: { type: 'Open', furniture: w.furniture[f]! } });
        if (allowed.has('Close') && !ws.open[f]) out.push({ action: { type: 'Close', furniture: w.furniture[f]! } });
      }
    }
    const held = ws.holding[agent]!;
    if (held < 0 && allowed.has('Pick')) {
      for (let o = 0; o < w.objects.length; o++) {
        const loc = ws.objLoc[o]!;
        if (loc < 0 || w.furnitureRoom[loc >> 1] !== here || !w.visible(ws, o) || !po[o]) continue;
        out.push({ action: { type: 'Pick', object: w.objects[o]! } });
      }
    }
    if (held >= 0 && allowed.has('Place')) {
      for (let f = 0; f < w.furniture.length; f++) {
        if (w.furnitureRoom[f] !== here) continue;
        out.push({ action: { type: 'Place', object: w.objects[held]!, rel: 'on', furniture: w.furniture[f]! } });
        if (w.openable[f] && ws.open[f])
          out.push({ action: { type: 'Place', object: w.objects[held]!, rel: 'in', furniture: w.furniture[f]! } });
      }
    }
    if (level >= 1 && allowed.has('Communicate') && ws.messagesLeft[agent] !== 0) {
      const reach: number[] = [];
      for (let b = 0; b < this.agents; b++) if (w.canMessage[agent]![b]) reach.push(b);
      for (let i = 0; i < u.size; i++) {
        if (!known[i] || !ks.maySay(i)) continue;
        const lacking = reach.filter((b) => this.useful[agent]![b]![i] && !ks.flags[b]![i] && ks.mayHold(i));
        if (lacking.length === 0) continue;
        const text = this.#text(i, ws);
        for (const b of lacking) out.push({ action: { type: 'Communicate', to: [w.agents[b]!], text }, told: i });
        if (reach.length > 1) out.push({ action: { type: 'Communicate', to: 'all', text }, told: i });
      }
    }
    return out;
  }

  /** Message texts already written, per atom, by the place of the object they depend on (-1: none). */
  #texts: Array<Map<number, string>> = [];

  /** messageText, memoized: a text depends only on its atom and, for a place, where the object is. */
  #text(i: number, ws: WorldState): string {
    const u = this.universe;
    let inner = i;
    for (let a = u.atoms[inner]!; a.kind === 'knows'; a = u.atoms[inner]!) inner = a.inner;
    const atom = u.atoms[inner]!;
    const key = atom.kind === 'loc' ? ws.objLoc[atom.object]! : -1 - 0x10000;
    const cache = (this.#texts[i] ??= new Map());
    let text = cache.get(key);
    if (text === undefined) {
      text = this.messageText(i, ws);
      cache.set(key, text);
    }
    return text;
  }

  /** A message stating atom i in words that name its entities (so that a reader of the text learns it). */
  messageText(i: number, ws: WorldState): string {
    const w = this.world;
    const atom = this.universe.atoms[i]!;
    switch (atom.kind) {
      case 'task':
        return `The goal needs ${formatFormula(atom.pred)}.`;
      case 'loc': {
        const loc = ws.objLoc[atom.object]!;
        return loc < 0
          ? `${w.objects[atom.object]} is held by ${w.agents[-1 - loc]}.`
          : `${w.objects[atom.object]} is ${(loc & 1) === 1 ? 'inside' : 'on'} ${w.furniture[loc >> 1]}.`;
      }
      case 'mechanic': {
        const m = this.task.mechanics[atom.index]!;
        return m.target ? `${m.trigger} is linked to ${m.target} (${m.type}).` : `${m.trigger} works in reverse (${m.type}).`;
      }
      case 'fact':
        return `${formatFormula(atom.formula)} holds.`;
      case 'knows':
        return `${w.agents[atom.agent]} knows: ${this.messageText(atom.inner, ws)}`;
    }
  }

  /** Search from the task's initial state (or `opts.from`) within `opts.maxNodes` (default 200,000). */
  search(opts: SearchOptions): SearchResult {
    return new SearchRun(this, opts).advance(opts.maxNodes ?? 200_000);
  }

  /** A search that can be continued: `advance(n)` answers as `search` with a cap of n would, without redoing the nodes already expanded. */
  begin(opts: SearchOptions): SearchRun {
    return new SearchRun(this, opts);
  }
}
