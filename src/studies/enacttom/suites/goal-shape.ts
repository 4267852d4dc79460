// The shape of a goal: its formula with every entity replaced by a variable of its kind (o
// objects, f furniture, r rooms, a agents), canonicalised so that two goals that differ only in
// names and in the order of the arguments of and/or have the same shape:
//   1. nested and/or of the same operator are flattened, repeated arguments dropped, a one-argument
//      and/or replaced by its argument;
//   2. the arguments of and/or are ordered by their skeleton (the rendering with every entity
//      written as its bare kind, arguments ordered the same way);
//   3. variables are numbered per kind in order of first appearance; among arguments with the same
//      skeleton, the one whose rendering under the variables so far is least comes first (greedy).
// Variables keep identity: (K a1 (K a2 phi)) and (K a1 (K a1 phi)) differ, as do a K chain over an
// atom the goal also asserts and one over another atom.

import { formatFormula, type Formula } from '../world/index.js';

export type EntityKind = 'o' | 'f' | 'r' | 'a';

function normalise(f: Formula): Formula {
  switch (f.op) {
    case 'and':
    case 'or': {
      const seen = new Set<string>();
      const args = f.args
        .map(normalise)
        .flatMap((a) => (a.op === f.op ? a.args : [a]))
        .filter((a) => {
          const key = formatFormula(a);
          if (seen.has(key)) return false;
          seen.add(key);
          return true;
        });
      return args.length === 1 ? args[0]! : { op: f.op, args };
    }
    case 'not':
      return { op: 'not', arg: normalise(f.arg) };
    case 'K':
    case 'B':
      return { op: f.op, agent: f.agent, arg: normalise(f.arg) };
    case 'pred':
      return f;
  }
}

function skeleton(f: Formula, kind: (name: string) => EntityKind): string {
  switch (f.op) {
    case 'and':
    case 'or':
      return `(${f.op} ${f.args
        .map((a) => skeleton(a, kind))
        .sort()
        .join(' ')})`;
    case 'not':
      return `(not ${skeleton(f.arg, kind)})`;
    case 'K':
    case 'B':
      return `(${f.op} a ${skeleton(f.arg, kind)})`;
    case 'pred':
      return `(${f.name} ${f.args.map(kind).join(' ')})`;
  }
}

class Variables {
  constructor(
    readonly kind: (name: string) => EntityKind,
    readonly names = new Map<string, string>(),
    readonly counts = new Map<EntityKind, number>(),
  ) {}

  of(name: string): string {
    let v = this.names.get(name);
    if (!v) {
      const k = this.kind(name);
      const n = (this.counts.get(k) ?? 0) + 1;
      this.counts.set(k, n);
      v = `${k}${n}`;
      this.names.set(name, v);
    }
    return v;
  }

  clone(): Variables {
    return new Variables(this.kind, new Map(this.names), new Map(this.counts));
  }
}

function render(f: Formula, vars: Variables): string {
  switch (f.op) {
    case 'and':
    case 'or': {
      const rest = f.args.map((a) => ({ a, s: skeleton(a, vars.kind) })).sort((x, y) => (x.s < y.s ? -1 : x.s > y.s ? 1 : 0));
      const out: string[] = [];
      while (rest.length) {
        const tied = rest.filter((x) => x.s === rest[0]!.s);
        let best = tied[0]!;
        if (tied.length > 1) {
          let least = render(best.a, vars.clone());
          for (const x of tied.slice(1)) {
            const r = render(x.a, vars.clone());
            if (r < least) [best, least] = [x, r];
          }
        }
        out.push(render(best.a, vars));
        rest.splice(rest.indexOf(best), 1);
      }
      return `(${f.op} ${out.join(' ')})`;
    }
    case 'not':
      return `(not ${render(f.arg, vars)})`;
    case 'K':
    case 'B':
      return `(${f.op} ${vars.of(f.agent)} ${render(f.arg, vars)})`;
    case 'pred':
      return `(${f.name} ${f.args.map((x) => vars.of(x)).join(' ')})`;
  }
}

/** The canonical shape of a goal, given the kind of each entity it names. */
export function goalShape(goal: Formula, kind: (name: string) => EntityKind): string {
  return render(normalise(goal), new Variables(kind));
}

/** The kind of each entity of a task, for `goalShape`. */
export function entityKinds(task: {
  rooms: string[];
  furniture: Array<{ id: string }>;
  objects: Array<{ id: string }>;
  agents: Array<{ id: string }>;
}): (name: string) => EntityKind {
  const kinds = new Map<string, EntityKind>();
  for (const r of task.rooms) kinds.set(r, 'r');
  for (const f of task.furniture) kinds.set(f.id, 'f');
  for (const o of task.objects) kinds.set(o.id, 'o');
  for (const a of task.agents) kinds.set(a.id, 'a');
  return (name) => kinds.get(name) ?? 'o';
}
