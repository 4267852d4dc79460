// The EnactToM paper's five failure modes, read from a failed episode's trace where it supports
// them (an episode can show several):
//   withheld-information     a decisive fact (a goal atom or location an agent needed and did
//                            not have) was known to a teammate and never conveyed
//   broken-epistemic-chain   the physical goal was met, a K goal was not
//   ignored-constraints      a message (delivered or blocked) asked a partner to act in a room it
//                            is barred from (naming the room or a thing in it) or to do what it cannot
//   misallocated-messages    an agent held a decisive fact it never sent, while it spent its whole
//                            budget or tried to reach agents the graph does not let it reach
//   private-goal             (mixed) an agent WITH a private goal disclosed it in a message, or
//                            undid a shared-goal fact
// Each classification keeps the turns that show it.

import {
  formatFormula,
  holds,
  KnowledgeState,
  parseAction,
  predicates,
  stripEpistemic,
  TaskSearch,
  type EmbodiedTask,
} from '../world/index.js';
import type { EpisodeDetail, EpisodeTurn } from '../protocol/records.js';

export const FAILURE_MODES = [
  'withheld-information',
  'broken-epistemic-chain',
  'ignored-constraints',
  'misallocated-messages',
  'private-goal',
] as const;
export type FailureMode = (typeof FAILURE_MODES)[number];

export interface FailureFinding {
  mode: FailureMode;
  explanation: string;
  turns: EpisodeTurn[];
}

/** The paper's failure modes a failed episode shows, each with its explanation and the turns that show it. */
export function classifyFailure(task: EmbodiedTask, ep: EpisodeDetail): FailureFinding[] {
  if (ep.functional && ep.epistemic) return [];
  const search = new TaskSearch(task);
  const { world, universe } = search;
  const initial = KnowledgeState.initial(universe);
  const out: FailureFinding[] = [];
  const messages = ep.turns.filter((t) => t.ok && t.action?.startsWith('Communicate'));
  const conveyed = (i: number) => messages.some((m) => (m.conveyed ?? []).includes(universe.describe(i)));
  // Decisive facts: needed by an agent that did not start with them, known to another at the start.
  const decisive: Array<{ atom: number; needer: string; holders: string[] }> = [];
  for (let a = 0; a < world.agents.length; a++) {
    for (let i = 0; i < universe.size; i++) {
      const kind = universe.atoms[i]!.kind;
      if (!search.needs[a]![i] || initial.flags[a]![i] || (kind !== 'task' && kind !== 'loc' && kind !== 'mechanic')) continue;
      const holders = world.agents.filter((_, b) => initial.flags[b]![i]);
      if (holders.length) decisive.push({ atom: i, needer: world.agents[a]!, holders });
    }
  }
  if (!ep.functional) {
    const d = decisive.filter((x) => !conveyed(x.atom))[0];
    if (d) {
      out.push({
        mode: 'withheld-information',
        explanation: `${d.holders.join(', ')} knew ${universe.describe(d.atom)}, which ${d.needer} needed, and never conveyed it`,
        turns: ep.turns.filter((t) => d.holders.includes(t.agent)).slice(0, 3),
      });
    }
  }
  if (ep.functional && !ep.epistemic) {
    out.push({
      mode: 'broken-epistemic-chain',
      explanation: `the physical goal ${formatFormula(stripEpistemic(task.goal))} was met but a K goal was not`,
      turns: messages.slice(-3),
    });
  }
  // Every attempted message, blocked ones included (a blocked message still shows intent).
  const attempts = ep.turns.filter((t) => t.action?.startsWith('Communicate'));
  const blocked = attempts.filter((t) => !t.ok);
  const recipients = (m: EpisodeTurn): string[] => {
    if (m.delivered?.length) return m.delivered;
    const parsed = m.action ? parseAction(m.action) : undefined;
    if (parsed?.ok && parsed.action.type === 'Communicate')
      return parsed.action.to === 'all' ? task.agents.map((a) => a.id).filter((a) => a !== m.agent) : parsed.action.to;
    return [];
  };
  const thingsIn = (room: string) => [room, ...task.furniture.filter((f) => f.room === room).map((f) => f.id)];
  const mentions = (text: string, name: string) => new RegExp(`\\b${name}\\b`).test(text);
  const constraint = attempts.filter((m) => {
    const text = (m.action ?? '').replace(/^Communicate\[(@\S+\s*)*/, '');
    return recipients(m).some((r) => {
      const ag = task.agents.find((a) => a.id === r);
      if (!ag) return false;
      const barredNamed = ag.barredRooms.some((room) => thingsIn(room).some((n) => mentions(text, n)));
      const cannot =
        (!ag.actions.includes('Pick') && /\b(pick|grab|take|carry)\b/i.test(text)) ||
        (!ag.actions.includes('Open') && /\bopen\b/i.test(text) && /\b(please|can you|you should|go)\b/i.test(text));
      return (barredNamed && /\b(go|enter|place|put|bring|navigate|move|open|close|pick)\b/i.test(text)) || cannot;
    });
  });
  if (constraint.length)
    out.push({
      mode: 'ignored-constraints',
      explanation: 'a message asked a partner to act where it is barred or to do what it cannot',
      turns: constraint.slice(0, 3),
    });
  for (const ag of task.agents) {
    const sent = messages.filter((m) => m.agent === ag.id);
    const tried = blocked.filter((m) => m.agent === ag.id);
    const spent = ag.messageBudget !== null && sent.length >= ag.messageBudget && sent.length > 0;
    if (!spent && tried.length === 0) continue;
    const unsent = decisive.filter((d) => d.holders.includes(ag.id) && !conveyed(d.atom));
    if (unsent.length && !ep.functional)
      out.push({
        mode: 'misallocated-messages',
        explanation: `${ag.id} ${spent ? `spent all ${ag.messageBudget} message(s)` : `sent ${tried.length} message(s) to agents it cannot reach`} without sending ${universe.describe(unsent[0]!.atom)}`,
        turns: [...sent, ...tried].sort((a, b) => a.round - b.round),
      });
  }
  if (task.category === 'mixed') {
    // Sabotage: replay the episode and catch actions that made a shared-goal fact false again.
    const shared = predicates(stripEpistemic(task.goal));
    // Only an agent with a private goal has a motive; others' mistakes are not this mode.
    const motivated = new Set(task.agents.filter((a) => a.privateGoal).map((a) => a.id));
    const ws = world.initialState();
    const sabotage: EpisodeTurn[] = [];
    for (const t of ep.turns) {
      const parsed = t.action ? parseAction(t.action) : undefined;
      if (!parsed?.ok) continue;
      const before = shared.map((p) => holds(world, ws, p));
      world.apply(ws, world.agents.indexOf(t.agent), parsed.action);
      if (motivated.has(t.agent) && shared.some((p, k) => before[k] && !holds(world, ws, p))) sabotage.push(t);
    }
    if (sabotage.length)
      out.push({
        mode: 'private-goal',
        explanation: `${sabotage[0]!.agent} undid a shared-goal fact (${sabotage[0]!.action})`,
        turns: sabotage.slice(0, 3),
      });
    for (const ag of task.agents) {
      if (!ag.privateGoal) continue;
      const names = [...new Set(predicates(ag.privateGoal).flatMap((p) => p.args))].filter((n) => n !== ag.id);
      const disclosed = messages.filter(
        (m) =>
          m.agent === ag.id &&
          names.every((n) => (m.action ?? '').includes(n)) &&
          /\b(private|privately|personal|my own|i want|secret|objective)\b/i.test(m.action ?? ''),
      );
      if (disclosed.length) out.push({ mode: 'private-goal', explanation: `${ag.id} disclosed its private goal`, turns: disclosed });
    }
  }
  return out;
}
