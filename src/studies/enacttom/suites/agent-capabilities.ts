// Per-agent action sets for generated tasks. An agent has the actions its roles in the draft need
// (task-draft.ts), never those the family forbids it, Communicate when it holds a secret, is a
// witness of a knowledge chain or relays messages in a restricted graph, and otherwise each
// group of actions (moving; opening and closing; picking and placing; messaging) by chance.
// With `full` capabilities every agent has every action a family does not forbid. Each missing
// group becomes a secret stating the constraint.

import type { ActionName } from '../world/index.js';
import type { TaskDraft } from './task-draft.js';

export const CAPABILITY_MODES = ['full', 'varied'] as const;
export type CapabilityMode = (typeof CAPABILITY_MODES)[number];

const GROUPS: Array<{ actions: ActionName[]; missing: (room: string) => string }> = [
  { actions: ['Navigate'], missing: (room) => `You cannot move: you stay in ${room} for the whole task.` },
  { actions: ['Open', 'Close'], missing: () => 'You cannot open or close anything.' },
  { actions: ['Pick', 'Place'], missing: () => 'You cannot pick up or place objects.' },
  { actions: ['Communicate'], missing: () => 'You cannot send messages; you only read what others send you.' },
];

/** Every action a generated agent may have, in the order task files list them. */
const ORDER: ActionName[] = ['Navigate', 'Open', 'Close', 'Pick', 'Place', 'Communicate', 'Wait'];

/**
 * The action list of each agent and, for each group it lacks, a constraint secret. `talkers`
 * must keep Communicate; an agent without Navigate stays in its spawn room, so only agents the
 * draft needs nowhere may lose it.
 */
export function assignActions(
  d: TaskDraft,
  mode: CapabilityMode,
  talkers: Set<string>,
  spawn: Record<string, string>,
): Record<string, ActionName[]> {
  const out: Record<string, ActionName[]> = {};
  for (const a of d.agents) {
    const role = d.roles[a]!;
    const forbidden = d.forbidden[a]!;
    const has = new Set<ActionName>(['Wait']);
    for (const g of GROUPS) {
      if (g.actions.some((x) => forbidden.has(x))) continue;
      const required =
        g.actions.some((x) => role.actions.has(x)) ||
        (g.actions[0] === 'Communicate' && (talkers.has(a) || d.secrets[a]!.length > 0)) ||
        (g.actions[0] === 'Navigate' && role.rooms.size > 0 && ![...role.rooms].every((r) => r === spawn[a]));
      const chance = g.actions[0] === 'Navigate' ? 0.8 : g.actions[0] === 'Communicate' ? 0.7 : 0.5;
      if (mode === 'full' || required || d.rng.next() < chance) for (const x of g.actions) has.add(x);
    }
    // Every agent can do something besides waiting: at least read and send messages.
    if (has.size === 1 && !forbidden.has('Communicate')) has.add('Communicate');
    out[a] = ORDER.filter((x) => has.has(x));
    for (const g of GROUPS) if (!g.actions.some((x) => has.has(x))) d.secrets[a]!.push(g.missing(spawn[a]!));
  }
  return out;
}
