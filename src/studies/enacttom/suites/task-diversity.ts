// How varied a set of tasks is: per parameter, the distribution of its values over the tasks (or
// over the agents, for per-agent parameters), the number of distinct goal shapes (goal-shape.ts),
// the most common shapes, and the parameters that never vary. The knowledge structure of a goal
// is read from the formula: its chains are the epistemic nodes not inside another one (a chain's
// depth is its K-depth), its fan-out is the most chains that end in the same formula, and a
// chain's subject is the kind of formula it ends in (a placement, a state, holding, or a
// conjunction of atoms).

import { kDepth, type EmbodiedTask, type Formula } from '../world/index.js';
import { entityKinds, goalShape } from './goal-shape.js';
import { mechanicsOf } from './pool-composition.js';

type Counts = Record<string, number>;

export interface DiversityReport {
  tasks: number;
  agents: number;
  distinctGoalShapes: number;
  /** Every goal shape with its number of tasks, most common first. */
  shapes: Array<{ shape: string; tasks: number }>;
  /** Per parameter: value -> tasks (or agents, for the per-agent parameters). */
  parameters: Record<string, Counts>;
  /** Parameters with one value only. */
  constant: string[];
  agentsWithoutSecret: number;
}

/** Parameters counted over agents rather than tasks. */
const PER_AGENT = new Set(['actions per agent', 'secrets per agent']);
/** Parameters counted over chains rather than tasks. */
const PER_CHAIN = new Set(['chain depth', 'chain subject']);

/** The epistemic nodes of a formula that are not inside another one. */
function chainsOf(f: Formula): Formula[] {
  switch (f.op) {
    case 'and':
    case 'or':
      return f.args.flatMap(chainsOf);
    case 'not':
      return chainsOf(f.arg);
    case 'K':
    case 'B':
      return [f];
    case 'pred':
      return [];
  }
}

function innermost(f: Formula): Formula {
  return f.op === 'K' || f.op === 'B' ? innermost(f.arg) : f;
}

function subject(f: Formula): string {
  if (f.op !== 'pred') return 'conjunction';
  if (f.name === 'is_on_top' || f.name === 'is_inside') return 'placement';
  if (f.name === 'is_open' || f.name === 'is_closed') return 'state';
  if (f.name === 'is_held_by') return 'holding';
  return 'other';
}

/** Top-level conjuncts of the goal. */
function conjuncts(f: Formula): Formula[] {
  return f.op === 'and' ? f.args.flatMap(conjuncts) : [f];
}

/** Every entity a formula's predicates name. */
function named(f: Formula): string[] {
  switch (f.op) {
    case 'and':
    case 'or':
      return f.args.flatMap(named);
    case 'not':
    case 'K':
    case 'B':
      return named(f.arg);
    case 'pred':
      return f.args;
  }
}

function graphOf(t: EmbodiedTask): string {
  const limited = t.agents.filter((a) => a.messageTargets !== null);
  if (limited.length === 0) return 'complete';
  const degrees = t.agents.map((a) => (a.messageTargets ?? t.agents.filter((b) => b.id !== a.id).map((b) => b.id)).length).sort();
  if (degrees.at(-1) === t.agents.length - 1 && degrees.slice(0, -1).every((x) => x === 1)) return 'star';
  if (degrees.every((x) => x <= 2)) return 'chain';
  return 'other';
}

const bump = (m: Counts, k: string | number) => {
  m[String(k)] = (m[String(k)] ?? 0) + 1;
};

/** The diversity of a set of tasks. */
export function taskDiversity(tasks: EmbodiedTask[]): DiversityReport {
  const p: Record<string, Counts> = {};
  const count = (name: string, value: string | number) => bump((p[name] ??= {}), value);
  const shapes: Counts = {};
  let agentsWithoutSecret = 0;
  for (const t of tasks) {
    const g = t.source.generator ?? {};
    const parts = conjuncts(t.goal);
    const chains = chainsOf(t.goal);
    const ends = new Map<string, number>();
    for (const c of chains) {
      const key = JSON.stringify(innermost(c));
      ends.set(key, (ends.get(key) ?? 0) + 1);
      count('chain depth', kDepth(c));
      count('chain subject', subject(innermost(c)));
    }
    const objects = new Set(t.objects.map((o) => o.id));
    bump(shapes, goalShape(t.goal, entityKinds(t)));
    count('objects', t.objects.length);
    count('goal objects', new Set(named(t.goal).filter((x) => objects.has(x))).size);
    count('agents', t.agents.length);
    count('rooms', t.rooms.length);
    for (const a of t.agents) {
      count('actions per agent', a.actions.filter((x) => x !== 'Done').length);
      count('secrets per agent', a.secrets.length);
      if (a.secrets.length === 0) agentsWithoutSecret++;
    }
    count('distinct action sets', new Set(t.agents.map((a) => a.actions.join(' '))).size);
    count('K-depth', kDepth(t.goal));
    count('chains', chains.length);
    count('fan-out', Math.max(0, ...ends.values()));
    count('physical parts', parts.filter((x) => chainsOf(x).length === 0).length);
    count('disjunctions', parts.filter((x) => x.op === 'or' && !x.args.some((a) => a.op === 'not')).length);
    count('conditionals', parts.filter((x) => x.op === 'or' && x.args.some((a) => a.op === 'not')).length);
    count('category', t.category);
    count('family', String(g.family ?? 'released'));
    count('knowledge shape', String(g.knowledge ?? '-'));
    count('extra parts', Array.isArray(g.parts) ? (g.parts as string[]).slice().sort().join('+') || 'none' : '-');
    count('graph', graphOf(t));
    count('mechanics', mechanicsOf(t).length);
    count('capabilities', String(g.capabilities ?? '-'));
  }
  const order = (m: Counts) => Object.fromEntries(Object.entries(m).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })));
  const parameters = Object.fromEntries(Object.entries(p).map(([k, v]) => [k, order(v)]));
  return {
    tasks: tasks.length,
    agents: tasks.reduce((s, t) => s + t.agents.length, 0),
    distinctGoalShapes: Object.keys(shapes).length,
    shapes: Object.entries(shapes)
      .map(([shape, n]) => ({ shape, tasks: n }))
      .sort((a, b) => b.tasks - a.tasks || a.shape.localeCompare(b.shape)),
    parameters,
    constant: Object.entries(parameters)
      .filter(([, v]) => Object.keys(v).length < 2)
      .map(([k]) => k),
    agentsWithoutSecret,
  };
}

/** The report as text: a line per parameter (values with counts and shares), then the most common shapes. */
export function formatDiversity(r: DiversityReport, topShapes = 10): string {
  const pct = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(0)}%`;
  const lines = [
    `${r.tasks} tasks, ${r.agents} agents; ${r.distinctGoalShapes} distinct goal shapes; agents without a secret: ${r.agentsWithoutSecret} (${pct(r.agentsWithoutSecret, r.agents)})`,
  ];
  const width = Math.max(...Object.keys(r.parameters).map((k) => k.length));
  for (const [name, values] of Object.entries(r.parameters)) {
    const of = Object.values(values).reduce((a, b) => a + b, 0);
    const unit = PER_AGENT.has(name) ? ' (over agents)' : PER_CHAIN.has(name) ? ' (over chains)' : '';
    lines.push(
      `${name.padEnd(width)}  ${Object.entries(values)
        .map(([k, n]) => `${k} ${n} (${pct(n, of)})`)
        .join(', ')}${unit}`,
    );
  }
  lines.push(r.constant.length ? `constant: ${r.constant.join(', ')}` : 'constant: none');
  lines.push(`most common goal shapes (of ${r.distinctGoalShapes}):`);
  for (const s of r.shapes.slice(0, topShapes)) lines.push(`  ${String(s.tasks).padStart(4)}  ${s.shape}`);
  return lines.join('\n');
}
