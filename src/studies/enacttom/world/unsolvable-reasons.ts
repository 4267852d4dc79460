// Why the verifier found no plan, from the analyses behind the search. First relaxed
// reachability with no ToM bound (relaxed-reachability.ts): a goal atom no agent can achieve (a
// missing action, a barred room, a lock, no capable agent ever learning it is needed) or
// knowledge that cannot flow to the agent who must hold it. Then the ToM levels: the goal
// reachable only above the levels searched (depth exceeded). Then, where every part is
// reachable on its own, searches with one limit lifted at a time: unlimited messages (the
// budgets bind, and which agent needs how many), a longer episode (the turn limit binds, and
// how many rounds a plan needs; the search is best-first, so that is a plan's length, not always
// the shortest), both; and when none of them finds a plan, the parts cannot all be reached
// together (an object no chain of agents can hand on, knowledge that goes stale, one part
// undoing another).

import { kDepth } from './goal.js';
import { relaxedReachable, unreachableReasons, type ReasonKind } from './relaxed-reachability.js';
import type { EmbodiedTask } from './task.js';
import { TaskSearch, type SearchResult } from './task-search.js';

export interface UnsolvableReason {
  kind: ReasonKind | 'turn-limit' | 'message-budget' | 'node-cap' | 'conflict';
  /** The goal part it is about, when it is about one. */
  part?: string;
  text: string;
}

/** Nodes each search with a limit lifted may expand. */
const PROBE_NODES = 20_000;
/** The longer episode the turn-limit search allows: three times the limit, and at least 20 rounds more. */
const longerLimit = (turnLimit: number) => Math.max(3 * turnLimit, turnLimit + 20);

/** Messages each agent sends in a plan. */
function messagesSent(plan: NonNullable<SearchResult['plan']>): Map<string, number> {
  const sent = new Map<string, number>();
  for (const p of plan) if (p.action.type === 'Communicate') sent.set(p.agent, (sent.get(p.agent) ?? 0) + 1);
  return sent;
}

/** Agents whose plan sends more messages than their budget allows, in words. */
function overBudget(task: EmbodiedTask, plan: NonNullable<SearchResult['plan']>): string {
  const sent = messagesSent(plan);
  return task.agents
    .filter((a) => a.messageBudget !== null && (sent.get(a.id) ?? 0) > a.messageBudget)
    .map((a) => `${a.id} ${sent.get(a.id)} message(s) (budget ${a.messageBudget})`)
    .join(', ');
}

/**
 * Why a task has no plan at ToM levels 0 to `maxLevel` within its turn limit (`undecided`: the
 * search reached its node cap of `maxNodes` at some level instead of deciding).
 */
export function explainUnsolvable(
  search: TaskSearch,
  opts: { maxLevel: number; undecided: boolean; maxNodes?: number },
): UnsolvableReason[] {
  const task = search.task;
  const structural = unreachableReasons(search, Number.POSITIVE_INFINITY, task.goal);
  if (structural.length) return structural;
  if (!relaxedReachable(search, opts.maxLevel, task.goal)) {
    const depth = kDepth(task.goal);
    // At a level past the deepest atom's depth + 1 every atom may be held and said: as unbounded.
    const deepest = Math.max(0, ...search.universe.depth);
    let needed = opts.maxLevel + 1;
    while (needed < deepest + 2 && !relaxedReachable(search, needed, task.goal)) needed++;
    return [
      {
        kind: 'depth',
        text: `depth exceeded: the goal (K-depth ${depth}) needs ToM level ${needed} or more; the verifier searched levels 0 to ${opts.maxLevel}`,
      },
      ...unreachableReasons(search, opts.maxLevel, task.goal),
    ];
  }
  if (opts.undecided)
    return [
      {
        kind: 'node-cap',
        text: `undecided: the search reached its cap of ${opts.maxNodes ?? 200_000} nodes before finding a plan or exhausting the ${task.turnLimit} round(s); every part of the goal is reachable on its own`,
      },
    ];
  const level = opts.maxLevel;
  const limited = task.agents.some((a) => a.messageBudget !== null);
  const unlimited = { ...task, agents: task.agents.map((a) => ({ ...a, messageBudget: null })) };
  const longer = (t: EmbodiedTask) => ({ ...t, turnLimit: longerLimit(t.turnLimit) });
  const attempt = (t: EmbodiedTask) => new TaskSearch(t).search({ level, maxNodes: PROBE_NODES });
  if (limited) {
    const r = attempt(unlimited);
    if (r.status === 'solved')
      return [
        {
          kind: 'message-budget',
          text: `message budgets too small: with unlimited messages a plan of ${r.rounds} round(s) exists; it sends ${overBudget(task, r.plan!)}`,
        },
      ];
  }
  const more = attempt(longer(task));
  if (more.status === 'solved')
    return [
      {
        kind: 'turn-limit',
        text: `turn limit too short: a plan needs ${more.rounds} round(s), the limit is ${task.turnLimit}`,
      },
    ];
  if (limited) {
    const both = attempt(longer(unlimited));
    if (both.status === 'solved')
      return [
        {
          kind: 'turn-limit',
          text: `turn limit too short: a plan needs ${both.rounds} round(s), the limit is ${task.turnLimit}`,
        },
        { kind: 'message-budget', text: `message budgets too small: that plan sends ${overBudget(task, both.plan!)}` },
      ];
  }
  const undecided = more.status === 'undecided';
  const lifted = `${longerLimit(task.turnLimit)} rounds${limited ? ' and unlimited messages' : ''}`;
  return [
    {
      kind: 'conflict',
      text: `${undecided ? `undecided with ${lifted} (the search stopped at ${PROBE_NODES} nodes)` : `no plan even with ${lifted}`}, though each part of the goal is reachable in the relaxed analysis (which ignores turn order, who can hand an object to whom, and knowledge going stale when things change unseen)`,
    },
  ];
}
