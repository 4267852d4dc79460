// Reference teams for embodied episodes, answering through the same text pipeline as a model
// (one action per turn in the documented format; JSON for probes). They read the episode's
// side information (the task, the true state, who knows and who thinks what) that the protocol
// attaches.
//   planner    follows the verifier's plan: solves every verified task
//   silent     acts well on its own knowledge (the best plan without messages), never communicates
//   broadcast  tells everyone everything it knows in its first turn, ignoring budgets and the
//              graph, then acts on what it then knows without further messages
//   random     a seeded choice among the actions its knowledge allows, messages included
//   reality    acts as planner, but answers probes with what the world shows, not what the
//              partner thinks (the classic false-belief error)
// When probed, planner, silent and broadcast report the partner's mind as tracked (so silent
// reports well and acts badly: the act-report gap); random picks an answer; any other agent
// waits and, probed, reports its own view as its partner's.

import { callInfoKey, createRng, deriveSeed, readInfo } from '../../../core/index.js';
import {
  formatAction,
  TaskSearch,
  verifyTask,
  type Action,
  type EmbodiedTask,
  type EpisodeBeliefs,
  type KnowledgeState,
  type PlanStep,
  type WorldState,
} from '../world/index.js';
import type { ReferencePolicy } from '../../../protocols/index.js';
import { partnerAnswer, probeOptions, worldAnswer, type LiteralProbe } from './literal-probes.js';

/** What an episode call tells reference teams: the task, who acts, and the true state, knowledge and beliefs. */
export interface EpisodeCallInfo {
  task: EmbodiedTask;
  agent: string;
  round: number;
  phase: 'act' | 'probe';
  /** For probes: what the agent is asked. */
  probe?: LiteralProbe;
  state: WorldState;
  knowledge: KnowledgeState;
  beliefs: EpisodeBeliefs;
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
    case 'reality':
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

/** A reference team member's answer to a probe (see the header for who answers how). */
function probeReply(policy: string, ep: EpisodeCallInfo, probe: LiteralProbe, seed: number): string {
  const search = searchOf(ep.task);
  const at = { world: search.world, state: ep.state, knowledge: ep.knowledge, beliefs: ep.beliefs };
  switch (policy) {
    case 'planner':
    case 'silent':
    case 'broadcast':
      return partnerAnswer(probe, at);
    case 'reality':
      return worldAnswer(probe, at);
    case 'random':
      return createRng(deriveSeed('probe', ep.task.id, probe.asked, probe.question, seed)).pick(probeOptions(probe, search.world));
    default:
      // Its own view, as if the partner's mind were its own.
      return partnerAnswer({ ...probe, about: probe.asked }, at);
  }
}

/** The reply text of a reference team member, for an action turn or a probe. */
export function embodiedReply(policy: string, ep: EpisodeCallInfo, seed: number): string {
  if (ep.phase === 'probe' && ep.probe) return JSON.stringify({ answer: probeReply(policy, ep, ep.probe, seed) });
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
  reality: teamPolicy(
    'reality',
    "answers from the true world state (embodied episodes: acts as planner, reports the world as the partner's mind)",
  ),
  '*': teamPolicy('*', "waits; when probed, reports its own view as its partner's"),
};
