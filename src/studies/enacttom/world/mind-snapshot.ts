// Who knows what at one moment of an episode, in words (for the replay of an episode): for each
// agent the knowledge it holds (knowledge.ts: what it saw, was told or read in its secrets, true
// when held) and what it thinks of the household (beliefs.ts: every object's place, every
// openable furniture's state, every other agent's room), each belief that departs from the
// world marked with what the world shows.

import { NO_PLACE } from './beliefs.js';
import type { EpisodeMinds } from './episode-minds.js';
import type { WorldState } from './world.js';

/** One agent's mind at one moment. */
export interface MindSnapshot {
  agent: string;
  /** Knowledge it holds, described. */
  knows: string[];
  /** What it thinks, each a belief; false ones say what the world shows. */
  thinks: Array<{ text: string; false?: string }>;
}

/** Every agent's knowledge and beliefs now, in words. */
export function mindSnapshot(minds: EpisodeMinds, state: WorldState): MindSnapshot[] {
  const w = minds.world;
  const u = minds.universe;
  const b = minds.beliefs;
  const placeName = (p: number) => (p < 0 ? `held by ${w.agents[-1 - p]}` : `${(p & 1) === 1 ? 'inside' : 'on'} ${w.furniture[p >> 1]}`);
  return w.agents.map((agent, a) => {
    const knows = u.atoms.flatMap((_, i) => (minds.knowledge.flags[a]![i] ? [u.describe(i)] : []));
    const thinks: MindSnapshot['thinks'] = [];
    w.objects.forEach((o, i) => {
      const p = b.place[a]![i]!;
      if (p === NO_PLACE) return;
      const truth = state.objLoc[i]!;
      thinks.push({ text: `${o} ${placeName(p)}`, ...(p !== truth ? { false: placeName(truth) } : {}) });
    });
    w.furniture.forEach((f, i) => {
      const v = b.open[a]![i]!;
      if (!w.openable[i] || v === -1) return;
      const word = (x: number) => (x ? 'open' : 'closed');
      thinks.push({ text: `${f} ${word(v)}`, ...(v !== state.open[i] ? { false: word(state.open[i]!) } : {}) });
    });
    w.agents.forEach((other, j) => {
      const r = b.room[a]![j]!;
      if (j === a || r === -1) return;
      const truth = state.agentRoom[j]!;
      thinks.push({ text: `${other} in ${w.rooms[r]}`, ...(r !== truth ? { false: `in ${w.rooms[truth]}` } : {}) });
    });
    return { agent, knows, thinks };
  });
}
