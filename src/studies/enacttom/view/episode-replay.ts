// An EnactToM episode replayed turn by turn: the stored turns applied to the task's world and to
// every agent's mind (world/episode-minds.ts, as the episode tracked them), so that each step
// shows where things stood after it and who knew and thought what (what each agent learned and
// lost in the turn, and which of its beliefs were false), beside what the agent said and did.

import { classifyFailure, taskOfItem, type FailureFinding } from '../analysis/index.js';
import { readRecord, type Item, type StoredTranscript } from '../../../core/index.js';
import { EPISODE_RECORDS, type EpisodeDetail, type EpisodeTurn } from '../protocol/records.js';
import {
  EpisodeMinds,
  formatFormula,
  goalAtoms,
  IN,
  KnowledgeUniverse,
  mindSnapshot,
  parseAction,
  World,
  type EmbodiedTask,
  type KnowledgeFact,
  type MindSnapshot,
  type WorldState,
} from '../world/index.js';

/** One agent's mind after a turn: its knowledge and beliefs, and the knowledge it gained and lost in the turn. */
export interface ReplayMind extends MindSnapshot {
  learned: string[];
  lost: string[];
}

/** One step of an episode replay: the turn, the world as it stood after it, and every agent's mind. */
export interface ReplayStep {
  turn: EpisodeTurn;
  /** Where each object is, who holds what, which furniture is open, after this turn (empty when the task is unknown). */
  world: string[];
  /** Who knows and thinks what after this turn (empty when the task is unknown). */
  minds: ReplayMind[];
}

/** An episode as the viewer's panel shows it: the record, the start, the replay and the failure modes. */
export interface EpisodeView {
  episode: EpisodeDetail;
  /** Each agent's private knowledge at the start, the public text, and the goal. */
  start: { text: string; goal: string; agents: Array<{ name: string; knows: string[] }>; world: string[]; minds: MindSnapshot[] } | null;
  replay: ReplayStep[];
  failures: Array<{ mode: string; explanation: string; rounds: number[] }>;
}

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

/** Each agent's mind now, with what it gained and lost since `before`. */
function mindsAfter(now: MindSnapshot[], before: MindSnapshot[]): ReplayMind[] {
  return now.map((m, a) => {
    const had = new Set(before[a]?.knows ?? []);
    const has = new Set(m.knows);
    return { ...m, learned: m.knows.filter((k) => !had.has(k)), lost: [...had].filter((k) => !has.has(k)) };
  });
}

/** Replay an episode on its task; the failure modes found in it, with the rounds that show them. */
export function replayEpisode(task: EmbodiedTask | undefined, ep: EpisodeDetail): EpisodeView {
  if (!task) return { episode: ep, start: null, replay: ep.turns.map((turn) => ({ turn, world: [], minds: [] })), failures: [] };
  const world = new World(task);
  const state = world.initialState();
  const minds = new EpisodeMinds(new KnowledgeUniverse(task, world), state);
  let before = mindSnapshot(minds, state);
  const start = {
    text: task.text,
    goal: formatFormula(task.goal),
    agents: task.agents.map((a) => ({
      name: a.id,
      knows: [...a.secrets, ...(task.knowledge.private[a.id] ?? []).map((f) => describeFact(task, f))],
    })),
    world: describeWorld(world, state),
    minds: before,
  };
  const replay: ReplayStep[] = ep.turns.map((turn) => {
    const agent = world.agents.indexOf(turn.agent);
    const parsed = turn.action ? parseAction(turn.action) : undefined;
    // A turn the world refused (ok false) changed nothing; replaying it again keeps that.
    if (agent >= 0 && parsed?.ok && turn.ok) minds.act(state, agent, parsed.action);
    const now = mindSnapshot(minds, state);
    const step = { turn, world: describeWorld(world, state), minds: mindsAfter(now, before) };
    before = now;
    return step;
  });
  const failures = classifyFailure(task, ep).map((f: FailureFinding) => ({
    mode: f.mode,
    explanation: f.explanation,
    rounds: f.turns.map((t) => t.round),
  }));
  return { episode: ep, start, replay, failures };
}

/** The viewer panel's data for a stored episode: replayed on its item's task. */
export function episodeView(t: StoredTranscript, ctx: { where: string; item: unknown }): EpisodeView | undefined {
  const episode = readRecord(EPISODE_RECORDS, t, ctx.where);
  return episode && replayEpisode(ctx.item ? taskOfItem(ctx.item as Item) : undefined, episode);
}
