// The perception tools of the EnactToM agents (FindObjectTool, FindReceptacleTool, FindRoomTool,
// FindAgentActionTool), answered in the text world from what the asking agent saw and was told
// (beliefs.ts), never from the world itself: an object it has neither seen nor been told about
// stays unknown, a place it saw may be stale. The layout (which furniture stands in which room)
// is no secret. A query is matched word by word against each thing's name and where it is
// ("plate" finds plate_28, "cabinet in the kitchen" the cabinets of kitchen_1); an empty one
// lists everything the tool covers.

import type { EpisodeBeliefs } from './beliefs.js';
import { NO_PLACE } from './beliefs.js';
import type { FindTool, World, WorldState } from './world.js';

/** What each agent saw each other agent do last (by observer, then actor), as action text. */
export type SeenActions = Array<Map<number, string>>;

/** Words a query may carry that name nothing. */
const FILLER = new Set(['a', 'an', 'the', 'in', 'on', 'of', 'at', 'inside', 'any', 'some', 'all', 'and', 'or', 'with', 'for', 'to', 'my']);

/** The words of a query that can name something, lower case: `cabinet in the kitchen` gives cabinet, kitchen. */
function queryWords(query: string): string[] {
  return query
    .toLowerCase()
    .split(/[^a-z0-9_]+/)
    .filter((w) => w && !FILLER.has(w));
}

/**
 * What a query finds among `entries`, each read as `text` (its name and where it is): every
 * entry for no words, else those whose text holds every word, or, when none does, any word.
 */
function select<T>(entries: T[], words: string[], text: (e: T) => string): T[] {
  if (words.length === 0) return entries;
  const holds = (e: T, w: string) => text(e).toLowerCase().includes(w);
  const all = entries.filter((e) => words.every((w) => holds(e, w)));
  return all.length ? all : entries.filter((e) => words.some((w) => holds(e, w)));
}

/** What agent `a` finds with a perception tool, in words. */
export function findAnswer(
  world: World,
  state: WorldState,
  beliefs: EpisodeBeliefs,
  seen: SeenActions,
  a: number,
  tool: FindTool,
  query: string,
): string {
  const words = queryWords(query);
  const q = query.trim() ? ` matching "${query.trim()}"` : '';
  const here = state.agentRoom[a]!;
  const barred = (r: number) => (world.barred[a]![r] ? ' (you may not enter it)' : '');
  switch (tool) {
    case 'object': {
      // Objects it has a belief about, and any it names exactly (then: not known where).
      const where = (o: number) => {
        const p = beliefs.place[a]![o]!;
        if (p === NO_PLACE) return '';
        return p < 0 ? world.agents[-1 - p]! : `${world.furniture[p >> 1]} ${world.rooms[world.furnitureRoom[p >> 1]!]}`;
      };
      const known = select(
        world.objects
          .map((name, o) => ({ name, o }))
          .filter(({ name, o }) => beliefs.place[a]![o] !== NO_PLACE || words.includes(name.toLowerCase())),
        words,
        ({ name, o }) => `${name} ${where(o)}`,
      );
      if (known.length === 0) return `You know of no object${q}.`;
      return known
        .map(({ name, o }) => {
          const p = beliefs.place[a]![o]!;
          if (p === NO_PLACE) return `${name}: you have not seen it, and nobody told you where it is.`;
          const sees = world.objectRoom(state, o) === here && world.visible(state, o) && state.objLoc[o] === p;
          if (p < 0) return `${name}: held by ${world.agents[-1 - p]}${sees ? ' (you see it)' : ' (as far as you know)'}.`;
          const f = p >> 1;
          const room = world.rooms[world.furnitureRoom[f]!]!;
          return `${name}: ${(p & 1) === 1 ? 'inside' : 'on'} ${world.furniture[f]} in ${room}${sees ? ' (you see it)' : ' (as far as you know)'}.`;
        })
        .join('\n');
    }
    case 'receptacle': {
      const found = select(
        world.furniture.map((name, f) => ({ name, f })),
        words,
        ({ name, f }) => `${name} ${world.rooms[world.furnitureRoom[f]!]}`,
      );
      if (found.length === 0) return `There is no furniture${q}.`;
      return found
        .map(({ name, f }) => {
          const r = world.furnitureRoom[f]!;
          const v = beliefs.open[a]![f]!;
          const openness = world.openable[f] ? (v === -1 ? ', open or closed: you do not know' : v ? ', open' : ', closed') : '';
          return `${name}: in ${world.rooms[r]}${barred(r)}${openness}${world.locked[f] ? ', locked' : ''}.`;
        })
        .join('\n');
    }
    case 'room': {
      const inRoom = (r: number) => world.furniture.filter((_, f) => world.furnitureRoom[f] === r);
      const found = select(
        world.rooms.map((name, r) => ({ name, r })),
        words,
        ({ name, r }) => `${name} ${inRoom(r).join(' ')}`,
      );
      if (found.length === 0) return `There is no room${q}. Rooms: ${world.rooms.join(', ')}.`;
      return found
        .map(({ name, r }) => {
          const furniture = inRoom(r);
          return `${name}${r === here ? ' (you are here)' : ''}${barred(r)}: ${furniture.length ? furniture.join(', ') : 'no furniture'}.`;
        })
        .join('\n');
    }
    case 'agent': {
      const others = select(
        world.agents.map((name, b) => ({ name, b })).filter(({ b }) => b !== a),
        words,
        ({ name }) => name,
      );
      if (others.length === 0) return `There is no other agent${q}.`;
      return others
        .map(({ name, b }) => {
          const r = beliefs.room[a]![b]!;
          const where =
            state.agentRoom[b] === here
              ? `here in ${world.rooms[here]}${state.holding[b]! >= 0 ? `, holding ${world.objects[state.holding[b]!]}` : ''}`
              : r >= 0
                ? `last seen in ${world.rooms[r]}`
                : 'you do not know where it is';
          const did = seen[a]!.get(b);
          return `${name}: ${where}${did ? `; last seen doing ${did}` : ''}.`;
        })
        .join('\n');
    }
  }
}
