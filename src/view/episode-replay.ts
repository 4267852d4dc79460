// An EnactToM episode replayed turn by turn: the stored turns applied to the task's world, so
// that each step shows where things stood after it, beside what the agent said and did.

import {
  classifyFailure,
  type FailureFinding,
  type EpisodeDetail,
  formatFormula,
  goalAtoms,
  IN,
  parseAction,
  World,
  type EmbodiedTask,
  type KnowledgeFact,
  type WorldState,
} from '../studies/enacttom/index.js';
import type { RecordView, ReplayStep } from './api-types.js';

/** The world state as lines a reader can scan: agents' rooms and hands, objects, open furniture. */
function describeWorld(world: World, s: WorldState): string[] {
  const lines = world.agents.map((a, i) => {
    const held = s.holding[i]!;
    return `${a} in ${world.rooms[s.agentRoom[i]!] ?? '?'}${held >= 0 ? `, holding ${world.objects[held]}` : ''}${
      s.messagesLeft[i]! >= 0 ? `, ${s.messagesLeft[i]} messages left` : ''
    }`;
  });
  world.objects.forEach((o, i) => {
    const loc = s.objLoc[i]!;
    if (loc < 0) return;
    lines.push(`${o} ${loc % 2 === IN ? 'in' : 'on'} ${world.furniture[Math.floor(loc / 2)]}`);
  });
  const open = world.furniture.filter((_, i) => world.openable[i] && s.open[i]);
  if (open.length) lines.push(`open: ${open.join(', ')}`);
  return lines;
}

/** A knowledge fact in words: a goal atom, where an object is, or a mechanic. */
function describeFact(task: EmbodiedTask, f: KnowledgeFact): string {
  if (f.kind === 'task') {
    const atom = goalAtoms(task)[f.atom];
    return atom ? `goal: ${formatFormula(atom)}` : `goal atom ${f.atom}`;
  }
  if (f.kind === 'loc') {
    const o = task.objects.find((x) => x.id === f.object);
    if (!o) return `where ${f.object} is`;
    return `${f.object} ${o.at.rel === 'held' ? `held by ${o.at.agent}` : `${o.at.rel} ${o.at.furniture}`}`;
  }
  return `mechanic: ${JSON.stringify(task.mechanics[f.index] ?? f.index)}`;
}

/** Replay an episode on its task; the failure modes found in it, with the rounds that show them. */
export function replayEpisode(task: EmbodiedTask | undefined, ep: EpisodeDetail): Extract<RecordView, { protocol: 'episode' }> {
  if (!task) return { protocol: 'episode', episode: ep, start: null, replay: ep.turns.map((turn) => ({ turn, world: [] })), failures: [] };
  const world = new World(task);
  const state = world.initialState();
  const start = {
    text: task.text,
    goal: formatFormula(task.goal),
    agents: task.agents.map((a) => ({
      name: a.id,
      knows: [...a.secrets, ...(task.knowledge.private[a.id] ?? []).map((f) => describeFact(task, f))],
    })),
    world: describeWorld(world, state),
  };
  const replay: ReplayStep[] = ep.turns.map((turn) => {
    const agent = world.agents.indexOf(turn.agent);
    const parsed = turn.action ? parseAction(turn.action) : undefined;
    // A turn the world refused (ok false) changed nothing; replaying it again keeps that.
    if (agent >= 0 && parsed?.ok && turn.ok) world.apply(state, agent, parsed.action);
    return { turn, world: describeWorld(world, state) };
  });
  const failures = classifyFailure(task, ep).map((f: FailureFinding) => ({
    mode: f.mode,
    explanation: f.explanation,
    rounds: f.turns.map((t) => t.round),
  }));
  return { protocol: 'episode', episode: ep, start, replay, failures };
}
