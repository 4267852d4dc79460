// Relaxed reachability: an over-approximation of what the search can reach, which proves a
// task unsolvable at a ToM level without searching, and says why: for each part of the goal it
// cannot reach, the goal atom no agent can achieve (a missing action, a room no capable agent
// may enter, a locked thing, or no capable agent ever learning that the goal needs it) or the
// knowledge that cannot flow to the agent who must hold it (nobody has or can observe it, no
// chain of messages leads there, or the ToM level is too low to hold or pass it on).

import { formatFormula, type Formula } from './goal.js';
import { holds } from './knowledge.js';
import type { TaskSearch } from './task-search.js';

/** Why part of a goal cannot be reached, by kind. */
export type ReasonKind = 'capability' | 'access' | 'locked' | 'knowledge' | 'depth';

export interface UnreachableReason {
  kind: ReasonKind;
  /** The goal part (a physical atom or an epistemic node) it is about. */
  part: string;
  text: string;
}

/**
 * What each agent could ever know at a ToM level: the fixpoint of observation (every entity
 * its rooms allow) and messages along the graph, ignoring turn limits, message budgets and
 * every way knowledge is lost. `can[a][i]`: agent a may come to know atom i.
 */
export function relaxedKnowledge(search: TaskSearch, level: number, revealAll = false): Uint8Array[] {
  const w = search.world;
  const u = search.universe;
  const A = w.agents.length;
  const can = search.initial(level, revealAll).ks.flags.map((f) => Uint8Array.from(f));
  const access = (a: number, room: number) => room >= 0 && !w.barred[a]![room];
  const anyRoom = (a: number) => w.rooms.some((_, r) => access(a, r));
  // Entities that never move (furniture, rooms) must be in an accessible room; objects may be carried anywhere.
  const canSee = (a: number, names: string[]) =>
    names.every((n) => {
      const e = w.index.get(n);
      if (!e || e.kind === 'room' || e.kind === 'agent') return true;
      return e.kind === 'object' ? anyRoom(a) : access(a, w.furnitureRoom[e.i]!);
    });
  const mayHold = (i: number) => u.depth[i] === 0 || u.depth[i]! + 1 <= level;
  const maySay = (i: number) => u.depth[i]! + 1 <= level;
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
          if (!talks(search, a, b)) continue;
          set(b, i);
          set(b, u.knowsAtom(a, i));
          set(a, u.knowsAtom(b, i));
        }
      }
    }
  }
  return can;
}

/** Whether agent a can ever send agent b a message: the graph allows it, it has Communicate and a budget above 0. */
function talks(search: TaskSearch, a: number, b: number): boolean {
  const w = search.world;
  return w.canMessage[a]![b] === 1 && w.allowed[a]!.has('Communicate') && search.task.agents[a]!.messageBudget !== 0;
}

/** How agent a's messages are limited, in words. */
function messaging(search: TaskSearch, a: number): string {
  const w = search.world;
  const name = w.agents[a]!;
  if (!w.allowed[a]!.has('Communicate')) return `${name} has no Communicate action`;
  if (search.task.agents[a]!.messageBudget === 0) return `${name} has no messages (budget 0)`;
  const to = w.agents.filter((_, b) => w.canMessage[a]![b]);
  return `${name} may message ${to.length ? to.join(', ') : 'nobody'}`;
}

/** Agents that messages from `from` reach, directly or along the graph (with `from`). */
function reachedFrom(search: TaskSearch, from: number[]): number[] {
  const seen = new Set(from);
  const queue = [...from];
  while (queue.length) {
    const x = queue.shift()!;
    for (let y = 0; y < search.world.agents.length; y++)
      if (!seen.has(y) && talks(search, x, y)) {
        seen.add(y);
        queue.push(y);
      }
  }
  return [...seen].sort((a, b) => a - b);
}

/**
 * Why the goal is out of reach at a ToM level, even relaxed (every constraint but rooms,
 * actions, locks, the communication graph and the level dropped); empty when it is reachable.
 */
export function unreachableReasons(search: TaskSearch, level: number, goal: Formula, revealAll = false): UnreachableReason[] {
  const w = search.world;
  const u = search.universe;
  const can = relaxedKnowledge(search, level, revealAll);
  const start = search.initial(level, revealAll).ks.flags;
  const s0 = w.initialState();
  const agents = w.agents.map((_, a) => a);
  const names = (xs: number[]) => xs.map((a) => w.agents[a]).join(', ');
  const access = (a: number, room: number) => room >= 0 && !w.barred[a]![room];
  const taskAtom = (p: Extract<Formula, { op: 'pred' }>) =>
    u.atoms.findIndex((x) => x.kind === 'task' && formatFormula(x.pred) === formatFormula(p));
  // The purpose of acting on a thing: a known task atom naming it.
  const purpose = (a: number, name: string) => u.atoms.some((x, i) => x.kind === 'task' && can[a]![i] && x.pred.args.includes(name));

  /** Why `targets` can never come to know atom i. */
  const flow = (i: number, targets: number[]): { kind: ReasonKind; text: string } => {
    const holders = agents.filter((b) => can[b]![i]);
    const sources = agents.filter((b) => start[b]![i]);
    const what = u.describe(i);
    if (holders.length === 0) {
      const atom = u.atoms[i]!;
      return {
        kind: 'knowledge',
        text:
          atom.kind === 'task' || atom.kind === 'mechanic'
            ? `no agent knows ${atom.kind === 'task' ? 'that ' : ''}${what}: it is in no secret and not in the public text`
            : `no agent can ever observe ${what} (every agent is barred from where it is)`,
      };
    }
    const lacking = `${names(targets)} can never learn ${what}: only ${names(holders)} can know it`;
    // A message about an atom of depth d takes ToM level d + 1.
    const d = u.depth[i]!;
    if (d + 1 > level) return { kind: 'depth', text: `${lacking}, and passing it on by message needs ToM level ${d + 1}, not ${level}` };
    const from = sources.length ? sources : holders;
    const reached = reachedFrom(search, from);
    const others = reached.filter((a) => !from.includes(a));
    const how = reached.map((a) => messaging(search, a)).join('; ');
    return {
      kind: 'knowledge',
      text: `${lacking}, and ${
        others.length ? `messages from ${names(from)} reach only ${names(others)}` : `no message from ${names(from)} reaches anyone`
      } (${how})`,
    };
  };

  const pred = (p: Extract<Formula, { op: 'pred' }>): UnreachableReason[] => {
    if (holds(w, s0, p)) return [];
    const part = formatFormula(p);
    const out = (kind: ReasonKind, text: string): UnreachableReason[] => [{ kind, part, text: `${part} cannot be reached: ${text}` }];
    const ti = taskAtom(p);
    const learn = (who: number[]) => {
      const why = ti >= 0 ? flow(ti, who) : { kind: 'knowledge' as const, text: `${names(who)} never learn that the goal needs it` };
      return out(why.kind, why.text);
    };
    const x = p.args[0]!;
    const y = p.args[1]!;
    const roomOf = (name: string) => w.rooms[w.entityRoom(s0, name)]!;
    // Closed and locked for good: no unlock action, and no mechanic that moves it.
    const shut = (f: number) => !s0.open[f] && w.locked[f] === 1 && !search.task.mechanics.some((m) => m.target === w.furniture[f]);
    switch (p.name) {
      case 'is_on_top':
      case 'is_inside':
      case 'is_held_by': {
        const o = w.index.get(x)!.i;
        const loc = s0.objLoc[o]!;
        if (loc >= 0 && (loc & 1) === 1 && shut(loc >> 1))
          return out(
            'locked',
            `${x} is inside ${w.furniture[loc >> 1]}, which is closed and locked (no unlock action, no mechanic opens it)`,
          );
        const withPick = agents.filter((a) => w.allowed[a]!.has('Pick'));
        if (withPick.length === 0) return out('capability', `no agent has the Pick action, so ${x} never moves`);
        const able = withPick.filter((a) => access(a, w.objectRoom(s0, o)));
        if (able.length === 0)
          return out('access', `no agent with Pick may enter ${roomOf(x)}, where ${x} is (${names(withPick)} are barred from it)`);
        const pickers = able.filter((a) => purpose(a, x));
        if (pickers.length === 0) return learn(able);
        if (p.name === 'is_held_by') {
          const holder = w.index.get(y)!.i;
          if (pickers.includes(holder)) return [];
          if (!w.allowed[holder]!.has('Pick')) return out('capability', `${y} has no Pick action`);
          if (!able.includes(holder)) return out('access', `${y} may not enter ${roomOf(x)}, where ${x} is`);
          return learn([holder]);
        }
        const f = w.index.get(y)!.i;
        if (p.name === 'is_inside' && shut(f)) return out('locked', `${y} is closed and locked (no unlock action, no mechanic opens it)`);
        const placers = agents.filter((a) => w.allowed[a]!.has('Place'));
        if (placers.length === 0) return out('capability', `no agent has the Place action`);
        const there = placers.filter((a) => access(a, w.furnitureRoom[f]!));
        if (there.length === 0)
          return out('access', `no agent with Place may enter ${roomOf(y)}, where ${y} is (${names(placers)} are barred from it)`);
        return there.some((a) => purpose(a, y) || purpose(a, x)) ? [] : learn(there);
      }
      case 'is_open':
      case 'is_closed': {
        const f = w.index.get(x)!.i;
        const remote = search.task.mechanics.filter((m) => m.target === x && m.trigger);
        if (w.locked[f] && remote.length === 0)
          return out('locked', `${x} is locked, and there is no unlock action nor a mechanic that moves it`);
        const movers = agents.filter((a) => w.allowed[a]!.has('Open') || w.allowed[a]!.has('Close'));
        if (movers.length === 0) return out('capability', 'no agent has the Open or Close action');
        const there = movers.filter(
          (a) => access(a, w.furnitureRoom[f]!) || remote.some((m) => access(a, w.furnitureRoom[w.index.get(m.trigger!)!.i]!)),
        );
        if (there.length === 0)
          return out(
            'access',
            `no agent with Open or Close may enter ${roomOf(x)}, where ${x} is${remote.length ? ', nor the room of a trigger that moves it' : ''}`,
          );
        return there.some((a) => purpose(a, x)) ? [] : learn(there);
      }
      case 'agent_in_room':
        return access(w.index.get(x)!.i, w.index.get(y)!.i) ? [] : out('access', `${x} may not enter ${y}`);
      default:
        return [];
    }
  };

  const walk = (f: Formula): UnreachableReason[] => {
    switch (f.op) {
      case 'and':
        return f.args.flatMap(walk);
      case 'or': {
        const parts = f.args.map(walk);
        return parts.some((r) => r.length === 0) ? [] : parts.flat();
      }
      case 'not':
        return [];
      case 'K':
      case 'B': {
        // Knowing that a partner knows what it never can fails with the inner node: said once.
        const inner = walk(f.arg);
        if (inner.length && (f.arg.op === 'K' || f.arg.op === 'B')) return inner;
        const i = u.byFormula.get(formatFormula(f.arg));
        const a = w.agents.indexOf(f.agent);
        const part = formatFormula(f);
        if (i === undefined)
          return [...inner, { kind: 'knowledge', part, text: `${part} cannot be reached: it is not among the tracked knowledge` }];
        if (can[a]![i]) return inner;
        const d = u.depth[i]!;
        // An epistemic atom of depth d is held from level d + 1; passing one on takes a level more.
        if (d > 0 && d + 1 > level)
          return [
            ...inner,
            {
              kind: 'depth',
              part,
              text: `${part} cannot be reached: holding ${u.describe(i)} needs ToM level ${d + 1} or more, not ${level}`,
            },
          ];
        const why = flow(i, [a]);
        return [...inner, { kind: why.kind, part, text: `${part} cannot be reached: ${why.text}` }];
      }
      case 'pred':
        return pred(f);
    }
  };
  const seen = new Set<string>();
  return walk(goal).filter((r) => !seen.has(r.text) && seen.add(r.text));
}

/**
 * Relaxed reachability at a ToM level: whether each part of the goal could ever hold, ignoring
 * turn limits, message budgets and every way knowledge is lost. It over-approximates the real
 * search, so "unreachable" here proves the task unsolvable at that level without searching.
 */
export function relaxedReachable(search: TaskSearch, level: number, goal: Formula, revealAll = false): boolean {
  return unreachableReasons(search, level, goal, revealAll).length === 0;
}
