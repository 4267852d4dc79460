// A task pool's composition, as the EnactToM paper's Table 3 reports it: tasks by category,
// K-depth, mechanic, agent count, room count and object count (and, for generated tasks, by
// family), with mean agents, rooms and objects per task.

import { kDepth, type EmbodiedTask } from '../world/index.js';

export interface PoolComposition {
  tasks: number;
  byCategory: Record<string, number>;
  byDepth: Record<string, number>;
  /** Tasks using each mechanic (a task with several counts once for each). */
  byMechanic: Record<string, number>;
  byAgents: Record<string, number>;
  byRooms: Record<string, number>;
  byObjects: Record<string, number>;
  byFamily: Record<string, number>;
  mean: { agents: number; rooms: number; objects: number; furniture: number };
}

const bump = (m: Record<string, number>, k: string | number) => {
  m[String(k)] = (m[String(k)] ?? 0) + 1;
};
const sorted = (m: Record<string, number>) =>
  Object.fromEntries(Object.entries(m).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true })));

/** The mechanics a task uses: its bindings, and those the reader turned into agent fields (bars, budgets, graph). */
export function mechanicsOf(t: EmbodiedTask): string[] {
  const out = new Set<string>(t.mechanics.map((x) => x.type));
  if (t.agents.some((a) => a.barredRooms.length)) out.add('room_restriction');
  if (t.agents.some((a) => a.messageBudget !== null)) out.add('limited_bandwidth');
  if (t.agents.some((a) => a.messageTargets !== null)) out.add('restricted_communication');
  return [...out];
}

/** The composition of a pool of tasks (the paper's Table 3). */
export function poolComposition(tasks: EmbodiedTask[]): PoolComposition {
  const c = { byCategory: {}, byDepth: {}, byMechanic: {}, byAgents: {}, byRooms: {}, byObjects: {}, byFamily: {} } as Omit<
    PoolComposition,
    'tasks' | 'mean'
  >;
  for (const t of tasks) {
    bump(c.byCategory, t.category);
    bump(c.byDepth, kDepth(t.goal));
    for (const m of mechanicsOf(t)) bump(c.byMechanic, m);
    bump(c.byAgents, t.agents.length);
    bump(c.byRooms, t.rooms.length);
    bump(c.byObjects, t.objects.length);
    bump(c.byFamily, String(t.source.generator?.family ?? 'released'));
  }
  const mean = (f: (t: EmbodiedTask) => number) => (tasks.length ? tasks.reduce((s, t) => s + f(t), 0) / tasks.length : 0);
  return {
    tasks: tasks.length,
    byCategory: sorted(c.byCategory),
    byDepth: sorted(c.byDepth),
    byMechanic: sorted(c.byMechanic),
    byAgents: sorted(c.byAgents),
    byRooms: sorted(c.byRooms),
    byObjects: sorted(c.byObjects),
    byFamily: sorted(c.byFamily),
    mean: {
      agents: mean((t) => t.agents.length),
      rooms: mean((t) => t.rooms.length),
      objects: mean((t) => t.objects.length),
      furniture: mean((t) => t.furniture.length),
    },
  };
}

/** The composition as text lines: one line per dimension, counts with shares. */
export function formatPoolComposition(c: PoolComposition): string {
  const line = (label: string, m: Record<string, number>) =>
    `${label.padEnd(10)} ${Object.entries(m)
      .map(([k, n]) => `${k} ${n} (${((100 * n) / Math.max(1, c.tasks)).toFixed(0)}%)`)
      .join(', ')}`;
  return [
    `${c.tasks} tasks; mean ${c.mean.agents.toFixed(1)} agents, ${c.mean.rooms.toFixed(1)} rooms, ${c.mean.objects.toFixed(1)} objects, ${c.mean.furniture.toFixed(1)} furniture`,
    line('category', c.byCategory),
    line('K-depth', c.byDepth),
    line('family', c.byFamily),
    line('mechanic', c.byMechanic),
    line('agents', c.byAgents),
    line('rooms', c.byRooms),
    line('objects', c.byObjects),
  ].join('\n');
}
