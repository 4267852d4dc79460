// Who knows what, over a finite universe of atoms drawn from the task: the goal's physical
// atoms as instructions (`task`: the target identities), object locations (`loc`), mechanics
// (`mechanic`), and for every epistemic node (K a psi) its argument psi, physical (`fact`) or
// itself epistemic (`knows` b chi). Knowledge comes from the public text and secrets, from
// observation (an agent sees its room; things inside closed furniture are hidden; two agents
// who watch the same fact together know that the other knows it), and from messages (the
// recipient learns the content and that the sender knows it; the sender learns that the
// recipient knows it). A change nobody in the room saw makes the old knowledge stale.
//
// A ToM level L bounds what agents may hold and say: a physical atom is always allowed; an
// epistemic atom of depth d (K b chi has depth 1 + depth chi) may be held when d + 1 <= L; a
// message about an atom of depth d needs d + 1 <= L (modelling that the recipient lacks it).

import { formatFormula, predicates, epistemicNodes, evaluateFormula, type Formula } from './goal.js';
import { goalAtoms, type EmbodiedTask } from './task.js';
import { type World, type WorldState, IN } from './world.js';
import { buildAtomTables, type Atom, type AtomTables } from './atom-tables.js';

export type { Atom } from './atom-tables.js';

/** The finite universe of knowledge atoms a task gives rise to, with their depths and entities. */
export class KnowledgeUniverse {
  readonly atoms: Atom[] = [];
  readonly depth: number[] = [];
  /** formatFormula(psi) -> atom index, for fact and knows atoms. */
  readonly byFormula = new Map<string, number>();
  /** Entities each atom mentions (for staleness and for reading free-text messages). */
  readonly entities: string[][] = [];
  readonly taskAtoms: Array<Extract<Formula, { op: 'pred' }>>;

  constructor(
    readonly task: EmbodiedTask,
    readonly world: World,
  ) {
    this.taskAtoms = goalAtoms(task);
    this.taskAtoms.forEach((pred, atom) => this.add({ kind: 'task', atom, pred }, 0, pred.args));
    world.objects.forEach((id, object) => this.add({ kind: 'loc', object }, 0, [id]));
    task.mechanics.forEach((m, index) =>
      this.add(
        { kind: 'mechanic', index },
        0,
        [m.trigger, m.target].filter((x): x is string => !!x),
      ),
    );
    const goals = [task.goal, ...task.agents.flatMap((a) => (a.privateGoal ? [a.privateGoal] : []))];
    for (const g of goals) for (const node of epistemicNodes(g).reverse()) this.formulaAtom(node.arg);
  }

  private add(atom: Atom, depth: number, entities: string[]): number {
    this.#knows = undefined;
    this.#located = undefined;
    this.#tables = undefined;
    this.atoms.push(atom);
    this.depth.push(depth);
    this.entities.push(entities);
    return this.atoms.length - 1;
  }

  /** The atom for psi (created when new): `knows` for (K b chi), `fact` otherwise. */
  formulaAtom(psi: Formula): number {
    const key = formatFormula(psi);
    const existing = this.byFormula.get(key);
    if (existing !== undefined) return existing;
    let index: number;
    if (psi.op === 'K' || psi.op === 'B') {
      const inner = this.formulaAtom(psi.arg);
      index = this.add({ kind: 'knows', agent: this.world.agents.indexOf(psi.agent), inner }, 1 + this.depth[inner]!, [
        psi.agent,
        ...this.entities[inner]!,
      ]);
    } else {
      index = this.add({ kind: 'fact', formula: psi }, 0, [...new Set(predicates(psi).flatMap((p) => p.args))]);
    }
    this.byFormula.set(key, index);
    return index;
  }

  get size(): number {
    return this.atoms.length;
  }

  #knows: Map<string, number> | undefined;

  /** The atom (K agent inner), or -1 when the task has none. */
  knowsAtom(agent: number, inner: number): number {
    this.#knows ??= new Map(this.atoms.flatMap((a, i) => (a.kind === 'knows' ? [[`${a.agent}:${a.inner}`, i] as [string, number]] : [])));
    return this.#knows.get(`${agent}:${inner}`) ?? -1;
  }

  #located: Array<Array<{ kind: 'furniture' | 'object' | 'agent'; i: number }>> | undefined;

  /** Per atom, the entities that have a place (furniture, objects, agents), resolved once. */
  get located(): Array<Array<{ kind: 'furniture' | 'object' | 'agent'; i: number }>> {
    this.#located ??= this.entities.map((names) =>
      names.flatMap((n) => {
        const e = this.world.index.get(n);
        return e && e.kind !== 'room' ? [{ kind: e.kind, i: e.i }] : [];
      }),
    );
    return this.#located;
  }

  #tables: AtomTables | undefined;

  /** The atoms sorted by kind, with compiled facts and named things (atom-tables.ts), built once. */
  get tables(): AtomTables {
    this.#tables ??= buildAtomTables(this);
    return this.#tables;
  }

  /** Whether a fact atom's formula holds in a state. */
  evaluate(i: number, s: WorldState): boolean {
    const atom = this.atoms[i]!;
    return (
      atom.kind === 'fact' &&
      evaluateFormula(
        atom.formula,
        (p) => holds(this.world, s, p),
        () => false,
      )
    );
  }

  describe(i: number): string {
    const a = this.atoms[i]!;
    switch (a.kind) {
      case 'task':
        return `the goal needs ${formatFormula(a.pred)}`;
      case 'loc':
        return `where ${this.world.objects[a.object]} is`;
      case 'mechanic':
        return `how ${this.task.mechanics[a.index]!.trigger} works (${this.task.mechanics[a.index]!.type})`;
      case 'fact':
        return formatFormula(a.formula);
      case 'knows':
        return `${this.world.agents[a.agent]} knows ${this.describe(a.inner)}`;
    }
  }
}

/** Whether a predicate holds in a state. */
export function holds(world: World, s: WorldState, p: Extract<Formula, { op: 'pred' }>): boolean {
  const idx = (name: string) => world.index.get(name)?.i ?? -1;
  // The goal parser checked each predicate's arity; y is read only by the binary ones.
  const x = p.args[0]!;
  const y = p.args[1]!;
  switch (p.name) {
    case 'is_on_top':
      return s.objLoc[idx(x)] === idx(y) * 2;
    case 'is_inside':
      return s.objLoc[idx(x)] === idx(y) * 2 + IN;
    case 'is_in_room':
      return world.entityRoom(s, x) === idx(y);
    case 'is_open':
      return s.open[idx(x)] === 1;
    case 'is_closed':
      return s.open[idx(x)] === 0;
    case 'is_locked':
      return world.locked[idx(x)] === 1;
    case 'is_unlocked':
      return world.locked[idx(x)] === 0;
    case 'is_held_by':
      return s.objLoc[idx(x)] === -1 - idx(y);
    case 'agent_in_room':
      return s.agentRoom[idx(x)] === idx(y);
  }
}

/** Whether any of `xs` is among `changed`. */
function named(xs: number[], changed: number[]): boolean {
  for (const x of xs) if (changed.includes(x)) return true;
  return false;
}

/** Per agent, one flag per atom. */
export class KnowledgeState {
  constructor(
    readonly u: KnowledgeUniverse,
    readonly flags: Uint8Array[],
    readonly level: number,
  ) {}

  static initial(u: KnowledgeUniverse, level = Number.POSITIVE_INFINITY): KnowledgeState {
    const k = new KnowledgeState(
      u,
      u.world.agents.map(() => new Uint8Array(u.size)),
      level,
    );
    const setFact = (agent: number, f: EmbodiedTask['knowledge']['public'][number]) => {
      const i =
        f.kind === 'task'
          ? u.atoms.findIndex((a) => a.kind === 'task' && a.atom === f.atom)
          : f.kind === 'loc'
            ? u.atoms.findIndex((a) => a.kind === 'loc' && u.world.objects[a.object] === f.object)
            : u.atoms.findIndex((a) => a.kind === 'mechanic' && a.index === f.index);
      if (i >= 0) k.flags[agent]![i] = 1;
    };
    u.world.agents.forEach((name, agent) => {
      u.task.knowledge.public.forEach((f) => setFact(agent, f));
      (u.task.knowledge.private[name] ?? []).forEach((f) => setFact(agent, f));
    });
    return k;
  }

  clone(): KnowledgeState {
    return new KnowledgeState(
      this.u,
      this.flags.map((f) => f.slice()),
      this.level,
    );
  }

  mayHold(i: number): boolean {
    const d = this.u.depth[i]!;
    return d === 0 || d + 1 <= this.level;
  }

  maySay(i: number): boolean {
    return this.u.depth[i]! + 1 <= this.level;
  }

  knows(agent: number, i: number): boolean {
    return this.flags[agent]![i] === 1;
  }

  /** Whether agent knows psi (for goal evaluation): psi must be an atom of the universe. */
  knowsFormula(agent: number, psi: Formula): boolean {
    const i = this.u.byFormula.get(formatFormula(psi));
    return i !== undefined && this.flags[agent]![i] === 1;
  }

  #observable(s: WorldState, room: number, i: number, t: AtomTables): boolean | undefined {
    const { world } = this.u;
    const atom = this.u.atoms[i]!;
    if (atom.kind === 'loc') return world.objectRoom(s, atom.object) === room && world.visible(s, atom.object) ? true : undefined;
    const fact = t.fact[i];
    if (!fact) return undefined;
    for (const e of this.u.located[i]!) {
      if (e.kind === 'furniture') {
        if (world.furnitureRoom[e.i] !== room) return undefined;
      } else if (e.kind === 'object') {
        if (world.objectRoom(s, e.i) !== room || !world.visible(s, e.i)) return undefined;
      } else if (s.agentRoom[e.i] !== room) return undefined;
    }
    return fact(s);
  }

  /** Everything an agent sees in its room now. */
  observe(s: WorldState, agent: number): void {
    const room = s.agentRoom[agent]!;
    const mine = this.flags[agent]!;
    const t = this.u.tables;
    const { world } = this.u;
    // Where each object is, when the agent sees it here.
    for (let o = 0; o < t.locAtom.length; o++) {
      const i = t.locAtom[o]!;
      if (i >= 0 && world.objectRoom(s, o) === room && world.visible(s, o)) mine[i] = 1;
    }
    for (const i of t.facts) {
      const seen = this.#observable(s, room, i, t);
      if (seen !== undefined) mine[i] = seen ? 1 : 0;
    }
    // Watching a fact together: each knows that the other knows it.
    for (const i of t.watched) {
      if (!this.mayHold(i)) continue;
      const atom = this.u.atoms[i] as Extract<Atom, { kind: 'knows' }>;
      const other = atom.agent;
      if (other === agent || s.agentRoom[other] !== room) continue;
      if (this.#observable(s, room, atom.inner, t) === true) mine[i] = 1;
    }
  }

  /**
   * Where atom i (a loc or fact atom) can be observed now, as `#observable` decides it for each
   * room: -2 nowhere, -1 in every room, else that room.
   */
  #whereSeen(s: WorldState, i: number): number {
    const { world } = this.u;
    const atom = this.u.atoms[i]!;
    if (atom.kind === 'loc') return world.visible(s, atom.object) ? world.objectRoom(s, atom.object) : -2;
    let room = -1;
    for (const e of this.u.located[i]!) {
      let r: number;
      if (e.kind === 'furniture') r = world.furnitureRoom[e.i]!;
      else if (e.kind === 'object') {
        if (!world.visible(s, e.i)) return -2;
        r = world.objectRoom(s, e.i);
      } else r = s.agentRoom[e.i]!;
      if (room === -1) room = r;
      else if (r !== room) return -2;
    }
    return room;
  }

  /** `observe` for every agent at once (the same flags): each fact is checked once, not once per agent. */
  observeAll(s: WorldState): void {
    const t = this.u.tables;
    const A = this.flags.length;
    const rooms = s.agentRoom;
    for (let o = 0; o < t.locAtom.length; o++) {
      const i = t.locAtom[o]!;
      if (i < 0 || !this.u.world.visible(s, o)) continue;
      const r = this.u.world.objectRoom(s, o);
      for (let a = 0; a < A; a++) if (rooms[a] === r) this.flags[a]![i] = 1;
    }
    for (const i of t.facts) {
      const r = this.#whereSeen(s, i);
      if (r === -2) continue;
      const v = t.fact[i]!(s) ? 1 : 0;
      for (let a = 0; a < A; a++) if (r === -1 || rooms[a] === r) this.flags[a]![i] = v;
    }
    // Watching a fact together: each knows that the other knows it.
    for (const i of t.watched) {
      if (!this.mayHold(i)) continue;
      const atom = this.u.atoms[i] as Extract<Atom, { kind: 'knows' }>;
      const r = this.#whereSeen(s, atom.inner);
      if (r === -2) continue;
      const inner = this.u.atoms[atom.inner]!;
      if (inner.kind === 'fact' && !t.fact[atom.inner]!(s)) continue;
      const other = atom.agent;
      for (let a = 0; a < A; a++) if (a !== other && rooms[other] === rooms[a] && (r === -1 || rooms[a] === r)) this.flags[a]![i] = 1;
    }
  }

  /** After a change: what nobody present saw goes stale. */
  invalidate(s: WorldState, changedFurniture: number[], movedObjects: number[]): void {
    if (changedFurniture.length === 0 && movedObjects.length === 0) return;
    const { world } = this.u;
    const t = this.u.tables;
    // The rooms where the change was seen (at most a few: no array needed).
    const seenIn = (room: number) => {
      for (const f of changedFurniture) if (world.furnitureRoom[f] === room) return true;
      for (const o of movedObjects) if (world.objectRoom(s, o) === room) return true;
      return false;
    };
    for (let i = 0; i < this.u.size; i++) {
      const atom = this.u.atoms[i]!;
      if (atom.kind === 'task' || atom.kind === 'mechanic') continue;
      if (!named(t.furnitureNamed[i]!, changedFurniture) && !named(t.objectsNamed[i]!, movedObjects)) continue;
      for (let a = 0; a < this.flags.length; a++) if (atom.kind === 'knows' || !seenIn(s.agentRoom[a]!)) this.flags[a]![i] = 0;
    }
  }

  /** A message from `from` to `to` carrying atoms the sender knows. */
  tell(from: number, to: number[], atoms: number[]): void {
    for (const i of atoms) {
      if (!this.flags[from]![i]) continue;
      for (const r of to) {
        if (this.mayHold(i)) this.flags[r]![i] = 1;
        const senderKnows = this.u.knowsAtom(from, i);
        if (senderKnows >= 0 && this.mayHold(senderKnows)) this.flags[r]![senderKnows] = 1;
        const recipientKnows = this.u.knowsAtom(r, i);
        if (recipientKnows >= 0 && this.mayHold(recipientKnows)) this.flags[from]![recipientKnows] = 1;
      }
    }
  }

  /** Atoms a free-text message conveys: the sender's true knowledge whose entities it names. */
  atomsInText(from: number, text: string, s: WorldState): number[] {
    const { world } = this.u;
    const names = new Set(text.match(/[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+/g) ?? []);
    const lower = text.toLowerCase();
    const out: number[] = [];
    for (let i = 0; i < this.u.size; i++) {
      if (!this.flags[from]![i]) continue;
      const atom = this.u.atoms[i]!;
      const named = (n: string) => names.has(n);
      let conveyed = false;
      if (atom.kind === 'loc') {
        const loc = s.objLoc[atom.object]!;
        conveyed = named(world.objects[atom.object]!) && (loc < 0 ? named(world.agents[-1 - loc]!) : named(world.furniture[loc >> 1]!));
      } else if (atom.kind === 'fact') {
        const p = predicates(atom.formula);
        conveyed =
          this.u.entities[i]!.every(named) &&
          p.every((q) => (q.name === 'is_open' ? /\bopen/.test(lower) : q.name === 'is_closed' ? /\bclosed?\b/.test(lower) : true));
      } else if (atom.kind === 'mechanic') {
        conveyed = this.u.entities[i]!.every(named) && /invers|revers|linked|remote|mirror|wired|control/i.test(text);
      } else {
        conveyed = this.u.entities[i]!.length > 0 && this.u.entities[i]!.every(named);
      }
      if (conveyed) out.push(i);
    }
    return out;
  }

  /** A compact key of every agent's flags (for the verifier's visited set). */
  key(): string {
    let out = '';
    for (const f of this.flags) {
      // Fifteen flags to a character.
      for (let i = 0; i < f.length; i += 15) {
        let word = 0;
        for (let j = i; j < i + 15 && j < f.length; j++) word = (word << 1) | f[j]!;
        out += String.fromCharCode(word + 32);
      }
    }
    return out;
  }
}
