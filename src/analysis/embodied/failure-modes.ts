// The EnactToM paper's five failure modes, read from a failed episode's trace where it supports
// them (an episode can show several):
//   withheld-information     a decisive fact (a goal atom or location an agent needed and did
//                            not have) was known to a teammate and never conveyed
//   broken-epistemic-chain   the physical goal was met, a K goal was not
//   ignored-constraints      a message asked a partner to go where it is barred or to do what it cannot
//   misallocated-messages    an agent spent its whole budget while holding a decisive fact it never sent
//   private-goal             (mixed) a private goal disclosed in a message, or an action that undid
//                            a shared-goal fact
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
} from '../../worlds/index.js';
import type { EpisodeDetail, EpisodeTurn } from '../../core/records/episode.js';

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
  const constraint = messages.filter((m) => {
    const text = m.action ?? '';
    return (m.delivered ?? []).some((r) => {
      const ag = task.agents.find((a) => a.id === r)!;
      const barredNamed = ag.barredRooms.some((room) => text.includes(room));
      const cannot =
        (!ag.actions.includes('Pick') && /\b(pick|grab|take|carry)\b/i.test(text)) ||
        (!ag.actions.includes('Open') && /\bopen\b/i.test(text) && /\b(please|can you|you should|go)\b/i.test(text));
      return (barredNamed && /\b(go|enter|place|put|bring|navigate)\b/i.test(text)) || cannot;
    });
  });
  if (constraint.length)
    out.push({
      mode: 'ignored-constraints',
      explanation: 'a message asked a partner to act where it is barred or to do what it cannot',
      turns: constraint.slice(0, 3),
    });
  for (const ag of task.agents) {
    if (ag.messageBudget === null) continue;
    const sent = messages.filter((m) => m.agent === ag.id);
    if (sent.length < ag.messageBudget || sent.length === 0) continue;
    const unsent = decisive.filter((d) => d.holders.includes(ag.id) && !conveyed(d.atom));
    if (unsent.length && !ep.functional)
      out.push({
        mode: 'misallocated-messages',
        explanation: `${ag.id} spent all ${ag.messageBudget} message(s) without sending ${universe.describe(unsent[0]!.atom)}`,
        turns: sent,
      });
  }
  if (task.category === 'mixed') {
    // Sabotage: replay the episode and catch actions that made a shared-goal fact false again.
    const shared = predicates(stripEpistemic(task.goal));
    const ws = world.initialState();
    const sabotage: EpisodeTurn[] = [];
    for (const t of ep.turns) {
      const parsed = t.action ? parseAction(t.action) : undefined;
      if (!parsed?.ok) continue;
      const before = shared.map((p) => holds(world, ws, p));
      world.apply(ws, world.agents.indexOf(t.agent), parsed.action);
      if (shared.some((p, k) => before[k] && !holds(world, ws, p))) sabotage.push(t);
    }
    if (sabotage.length)
      out.push({
        mode: 'private-goal',
        explanation: `${sabotage[0]!.agent} undid a shared-goal fact (${sabotage[0]!.action})`,
        turns: sabotage.slice(0, 3),
      });
    for (const ag of task.agents) {
      if (!ag.privateGoal) continue;
      const names = formatFormula(ag.privateGoal).match(/[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+/g) ?? [];
      const disclosed = messages.filter(
        (m) =>
          m.agent === ag.id &&
          names.every((n) => (m.action ?? '').includes(n)) &&
          /\b(private|personal|my own|i want|secret)\b/i.test(m.action ?? ''),
      );
      if (disclosed.length) out.push({ mode: 'private-goal', explanation: `${ag.id} disclosed its private goal`, turns: disclosed });
    }
  }
  return out;
}
