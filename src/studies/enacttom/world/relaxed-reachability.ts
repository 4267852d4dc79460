// Relaxed reachability: an over-approximation of what the search can reach, which proves a
// task unsolvable at a ToM level without searching.

import { formatFormula, type Formula } from './goal.js';
import { holds } from './knowledge.js';
import type { TaskSearch } from './task-search.js';

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
  const access = (a: number, room: number) => room >= 0 && !w.barred[a]![room];
  const anyRoom = (a: number) => w.rooms.some((_, r) => access(a, r));
  const s0 = w.initialState();
  // Entities that never move (furniture, rooms) must be in an accessible room; objects may be carried anywhere.
  const canSee = (a: number, names: string[]) =>
    names.every((n) => {
      const e = w.index.get(n);
      if (!e || e.kind === 'room' || e.kind === 'agent') return true;
      return e.kind === 'object' ? anyRoom(a) : access(a, w.furnitureRoom[e.i]!);
    });
  const mayHold = (i: number) => u.depth[i] === 0 || u.depth[i]! + 1 <= level;
  const maySay = (i: number) => u.depth[i]! + 1 <= level;
  const talks = (a: number, b: number) =>
    w.canMessage[a]![b] === 1 && w.allowed[a]!.has('Communicate') && search.task.agents[a]!.messageBudget !== 0;
  for (let changed = true; changed; ) {
    changed = false;
    const set = (a: number, i: number) => {
      if (i >= 0 && !can[a]![i] && mayHold(i)) {
        can[a]![i] = 1;
        changed = true;
      }
    };
    for (let a = 0; a < A; a++) {
      for (let i = 0; i < u.size; i++) {
        const atom = u.atoms[i]!;
        if ((atom.kind === 'fact' || atom.kind === 'loc') && canSee(a, u.entities[i]!)) set(a, i);
        if (
          atom.kind === 'knows' &&
          atom.agent !== a &&
          canSee(a, u.entities[atom.inner]!) &&
          canSee(atom.agent, u.entities[atom.inner]!)
        ) {
          const inner = u.atoms[atom.inner]!;
          if (inner.kind === 'fact' || inner.kind === 'loc') set(a, i);
        }
        if (!can[a]![i] || !maySay(i)) continue;
        for (let b = 0; b < A; b++) {
          if (!talks(a, b)) continue;
          set(b, i);
          set(b, u.knowsAtom(a, i));
          set(a, u.knowsAtom(b, i));
        }
      }
    }
  }
  // Physical atoms: some agent with the action, the access and the purpose (a known task atom naming the thing).
  const purpose = (a: number, name: string) => u.atoms.some((x, i) => x.kind === 'task' && can[a]![i] && x.pred.args.includes(name));
  const achievable = (p: Extract<Formula, { op: 'pred' }>): boolean => {
    if (holds(w, s0, p)) return true;
    // The goal parser checked each predicate's arity; y is read only by the binary ones.
    const x = p.args[0]!;
    const y = p.args[1]!;
    const agents = w.agents.map((_, a) => a);
    switch (p.name) {
      case 'is_on_top':
      case 'is_inside':
      case 'is_held_by': {
        const o = w.index.get(x)!.i;
        const pickers = agents.filter((a) => w.allowed[a]!.has('Pick') && purpose(a, x) && access(a, w.objectRoom(s0, o)));
        if (pickers.length === 0) return false;
        if (p.name === 'is_held_by') return pickers.includes(w.index.get(y)!.i);
        const f = w.index.get(y)!.i;
        return agents.some((a) => w.allowed[a]!.has('Place') && access(a, w.furnitureRoom[f]!) && (purpose(a, y) || purpose(a, x)));
      }
      case 'is_open':
      case 'is_closed': {
        const f = w.index.get(x)!.i;
        if (w.locked[f] && !search.task.mechanics.some((m) => m.target === x)) return false;
        return agents.some(
          (a) =>
            (w.allowed[a]!.has('Open') || w.allowed[a]!.has('Close')) &&
            (access(a, w.furnitureRoom[f]!) ||
              search.task.mechanics.some((m) => m.target === x && m.trigger && access(a, w.furnitureRoom[w.index.get(m.trigger)!.i]!))) &&
            purpose(a, x),
        );
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
        return reach(f.arg) && i !== undefined && can[w.agents.indexOf(f.agent)]![i] === 1;
      }
      case 'pred':
        return achievable(f);
    }
  };
  return reach(goal);
}
