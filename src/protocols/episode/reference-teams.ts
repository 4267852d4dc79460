// Reference teams for embodied episodes, answering through the same text pipeline as a model
// (one action per turn in the documented format; JSON for probes). They read the episode's
// side information (the task, the true state and who knows what) that the protocol attaches.
//   planner    follows the verifier's plan: solves every verified task
//   silent     acts well on its own knowledge (the best plan without messages), never communicates
//   broadcast  tells everyone everything it knows in its first turn, ignoring budgets and the
//              graph, then acts on what it then knows without further messages
//   random     a seeded choice among the actions its knowledge allows, messages included

import { callInfoKey, createRng, deriveSeed, readInfo } from '../../core/index.js';
import {
  formatAction,
  formatFormula,
  TaskSearch,
  verifyTask,
  type Action,
  type EmbodiedTask,
  type Formula,
  type KnowledgeState,
  type PlanStep,
  type WorldState,
} from '../../worlds/index.js';
import type { ReferencePolicy } from '../protocol.js';

/** What an episode call tells reference teams: the task, who acts, and the true state and knowledge. */
export interface EpisodeCallInfo {
  task: EmbodiedTask;
  agent: string;
  round: number;
  phase: 'act' | 'probe';
  /** For probes: the formula the agent is asked about. */
  probe?: Formula;
  state: WorldState;
  knowledge: KnowledgeState;
}

export const EPISODE_INFO = callInfoKey<EpisodeCallInfo>('episode');

// Plans depend only on the task (and, for broadcast, on the state its first round leaves, which
// is deterministic), so they are computed once per task and policy.
const plans = new WeakMap<EmbodiedTask, Map<string, PlanStep[]>>();
const searches = new WeakMap<EmbodiedTask, TaskSearch>();

function searchOf(task: EmbodiedTask): TaskSearch {
  let s = searches.get(task);
  if (!s) {
    s = new TaskSearch(task);
    searches.set(task, s);
  }
  return s;
}

function planFor(task: EmbodiedTask, key: string, make: () => PlanStep[]): PlanStep[] {
  let m = plans.get(task);
  if (!m) {
    m = new Map();
    plans.set(task, m);
  }
  let p = m.get(key);
  if (!p) {
    p = make();
    m.set(key, p);
  }
  return p;
}

function fromPlan(plan: PlanStep[], ep: EpisodeCallInfo): Action {
  const step = plan.find((s) => s.round === ep.round && s.agent === ep.agent);
  if (step) return step.action;
  const last = plan.reduce((m, s) => Math.max(m, s.round), 0);
  return ep.round > last ? { type: 'Done' } : { type: 'Wait' };
}

function act(policy: string, ep: EpisodeCallInfo, seed: number): Action {
  const task = ep.task;
  switch (policy) {
    case 'planner':
      return fromPlan(
        planFor(task, 'planner', () => verifyTask(task).plan ?? []),
        ep,
      );
    case 'silent':
      return fromPlan(
        planFor(task, 'silent', () => searchOf(task).search({ level: 0, bestEffort: true, maxNodes: 60_000 }).plan ?? []),
        ep,
      );
    case 'broadcast': {
      const search = searchOf(task);
      if (ep.round === 1) {
        const me = search.world.agents.indexOf(ep.agent);
        const known = search.universe.atoms.map((_, i) => i).filter((i) => ep.knowledge.flags[me]![i]);
        if (known.length === 0) return { type: 'Wait' };
        return { type: 'Communicate', to: 'all', text: known.map((i) => search.messageText(i, ep.state)).join(' ') };
      }
      const plan = planFor(
        task,
        'broadcast',
        () =>
          search.search({ level: 0, bestEffort: true, maxNodes: 60_000, from: { ws: ep.state, ks: ep.knowledge, round: ep.round } }).plan ??
          [],
      );
      return fromPlan(plan, ep);
    }
    case 'random': {
      const search = searchOf(task);
      const me = search.world.agents.indexOf(ep.agent);
      const rng = createRng(deriveSeed('agent:random:episode', task.id, ep.agent, ep.round, seed));
      if (rng.next() < 0.05) return { type: 'Done' };
      return rng.pick(search.candidates(ep.state, ep.knowledge, me, Number.POSITIVE_INFINITY)).action;
    }
    default:
      return { type: 'Wait' };
  }
}

/** The reply text of a reference team member, for an action turn or a probe. */
export function embodiedReply(policy: string, ep: EpisodeCallInfo, seed: number): string {
  if (ep.phase === 'probe' && ep.probe) {
    const search = searchOf(ep.task);
    const me = search.world.agents.indexOf(ep.agent);
    const i = search.universe.byFormula.get(formatFormula(ep.probe));
    if (policy === 'random')
      return JSON.stringify({ answer: createRng(deriveSeed('probe', ep.task.id, ep.agent, seed)).pick(['yes', 'no']) });
    // A team member reports what it knows; what it does not know it says it does not know.
    const known = i !== undefined && ep.knowledge.flags[me]![i] === 1;
    return JSON.stringify({ answer: known ? 'yes' : 'unknown' });
  }
  return formatAction(act(policy, ep, seed));
}

function teamPolicy(name: string, describe: string): ReferencePolicy {
  return {
    describe,
    reply(ctx) {
      const ep = readInfo(ctx.info, EPISODE_INFO);
      return ep ? embodiedReply(name, ep, ctx.replicateSeed ?? 0) : undefined;
    },
  };
}

/** Reference teams on embodied episodes, by agent name; any other reference agent waits. */
export const EPISODE_POLICIES: Record<string, ReferencePolicy> = {
  planner: teamPolicy('planner', "follows the verifier's plan (embodied episodes)"),
  silent: teamPolicy('silent', 'acts on its own knowledge, never communicates (embodied episodes)'),
  broadcast: teamPolicy('broadcast', 'tells everyone everything at once, then acts without messages (embodied episodes)'),
  random: teamPolicy('random', 'a seeded choice among the actions its knowledge allows (embodied episodes)'),
  '*': teamPolicy('*', 'waits; reports what it knows when probed'),
};
