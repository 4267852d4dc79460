// Per-task tables for the hot paths of the verifier's search (observation, staleness, the
// heuristic): predicates compiled to functions of the state with their names resolved once,
// and the knowledge atoms sorted by what they are about. Each compiled predicate answers
// exactly as `holds` (knowledge.ts) does; they only skip the name look-ups per call.

import type { Formula } from './goal.js';
import type { World, WorldState } from './world.js';

type Pred = Extract<Formula, { op: 'pred' }>;

/** A predicate as a function of the state, answering as `holds` does. */
export function compilePredicate(world: World, p: Pred): (s: WorldState) => boolean {
  const idx = (name: string) => world.index.get(name)?.i ?? -1;
  const x = p.args[0]!;
  const y = p.args[1]!;
  switch (p.name) {
    case 'is_on_top': {
      const o = idx(x);
      const v = idx(y) * 2;
      return (s) => s.objLoc[o] === v;
    }
    case 'is_inside': {
      const o = idx(x);
      const v = idx(y) * 2 + 1;
      return (s) => s.objLoc[o] === v;
    }
    case 'is_in_room': {
      const r = idx(y);
      const e = world.index.get(x);
      if (!e) return () => -1 === r;
      if (e.kind === 'room') return () => e.i === r;
      if (e.kind === 'furniture') return () => world.furnitureRoom[e.i] === r;
      if (e.kind === 'object') return (s) => world.objectRoom(s, e.i) === r;
      return (s) => s.agentRoom[e.i] === r;
    }
    case 'is_open': {
      const f = idx(x);
      return (s) => s.open[f] === 1;
    }
    case 'is_closed': {
      const f = idx(x);
      return (s) => s.open[f] === 0;
    }
    case 'is_locked': {
      const v = world.locked[idx(x)] === 1;
      return () => v;
    }
    case 'is_unlocked': {
      const v = world.locked[idx(x)] === 0;
      return () => v;
    }
    case 'is_held_by': {
      const o = idx(x);
      const v = -1 - idx(y);
      return (s) => s.objLoc[o] === v;
    }
    case 'agent_in_room': {
      const a = idx(x);
      const r = idx(y);
      return (s) => s.agentRoom[a] === r;
    }
  }
}

/** A physical formula as a function of the state; epistemic parts are false (as in KnowledgeUniverse.evaluate). */
function compileFact(world: World, f: Formula): (s: WorldState) => boolean {
  switch (f.op) {
    case 'and': {
      const parts = f.args.map((a) => compileFact(world, a));
      return (s) => parts.every((p) => p(s));
    }
    case 'or': {
      const parts = f.args.map((a) => compileFact(world, a));
      return (s) => parts.some((p) => p(s));
    }
    case 'not': {
      const inner = compileFact(world, f.arg);
      return (s) => !inner(s);
    }
    case 'K':
    case 'B':
      return () => false;
    case 'pred':
      return compilePredicate(world, f);
  }
}

/** A knowledge atom (knowledge.ts's KnowledgeUniverse holds them). */
export type Atom =
  | { kind: 'task'; atom: number; pred: Extract<Formula, { op: 'pred' }> }
  | { kind: 'loc'; object: number }
  | { kind: 'mechanic'; index: number }
  | { kind: 'fact'; formula: Formula }
  | { kind: 'knows'; agent: number; inner: number };

/** The universe's atoms sorted by kind, with what observation and staleness need of each. */
export interface AtomTables {
  /** Fact atoms (an agent can observe them, and the loc atoms). */
  facts: number[];
  /** Per atom: the compiled formula of a fact atom, else null. */
  fact: Array<((s: WorldState) => boolean) | null>;
  /** Knows atoms (K b chi) whose chi is a loc or fact atom: what watching together teaches. */
  watched: number[];
  /** Per atom (loc, fact, knows): the furniture and the objects it names, for staleness. */
  furnitureNamed: number[][];
  objectsNamed: number[][];
  /** Per object: its loc atom, or -1. */
  locAtom: Int32Array;
}

/** What the tables are built from: a KnowledgeUniverse (knowledge.ts). */
interface AtomUniverse {
  readonly world: World;
  readonly atoms: readonly Atom[];
  readonly entities: readonly string[][];
}

/** The tables of a universe (KnowledgeUniverse.tables builds them once). */
export function buildAtomTables(u: AtomUniverse): AtomTables {
  const { world } = u;
  const facts: number[] = [];
  const watched: number[] = [];
  const locAtom = new Int32Array(world.objects.length).fill(-1);
  const fact = u.atoms.map((a) => (a.kind === 'fact' ? compileFact(world, a.formula) : null));
  u.atoms.forEach((a, i) => {
    if (a.kind === 'fact') facts.push(i);
    if (a.kind === 'loc' && locAtom[a.object] === -1) locAtom[a.object] = i;
    if (a.kind === 'knows') {
      const inner = u.atoms[a.inner]!;
      if (inner.kind === 'fact' || inner.kind === 'loc') watched.push(i);
    }
  });
  const named = (kind: 'furniture' | 'object') =>
    u.entities.map((names) =>
      names.flatMap((n) => {
        const e = world.index.get(n);
        return e?.kind === kind ? [e.i] : [];
      }),
    );
  return { facts, fact, watched, furnitureNamed: named('furniture'), objectsNamed: named('object'), locAtom };
}
