// The world-and-belief tracker: replays a story and answers questions about it, optionally
// with a limited depth of belief tracking (the reference agents' reasoning policies).
//
// Nested belief rule (as in ToMi and Hi-ToM): the belief that a1 holds about a2's belief about
// ... ak's belief is updated by an event exactly when a1 perceives the event (present, or
// watching unseen) and a1 sees that a2..ak are present too. An unseen watcher updates only
// its own belief, since nobody knows it watched.

import type { WorldAnswer, WorldQuestion, WorldStory } from './events.js';

export interface BeliefPolicy {
  /**
   * How many levels of belief the reasoner tracks. 0: answers from the world itself (the
   * reality error); 1: tracks each agent's own belief but treats nested beliefs as that first
   * agent's belief; Infinity: full tracking.
   */
  depth: number;
}

export const FULL_TRACKING: BeliefPolicy = { depth: Number.POSITIVE_INFINITY };

interface Replay {
  location: Map<string, string>;
  initial: Map<string, string>;
  /** Perceivers of each event index (agents who saw it). */
  perceivedBy: Array<Set<string>>;
  /** Agents publicly present when each event happened. */
  presentAt: Array<Set<string>>;
}

/** Replays are pure functions of the story: keep them while the story object lives. */
const replays = new WeakMap<WorldStory, Replay>();

function replay(story: WorldStory): Replay {
  let r = replays.get(story);
  if (!r) replays.set(story, (r = computeReplay(story)));
  return r;
}

function computeReplay(story: WorldStory): Replay {
  const present = new Set<string>();
  const watching = new Set<string>();
  const location = new Map<string, string>();
  const initial = new Map<string, string>();
  const perceivedBy: Array<Set<string>> = [];
  const presentAt: Array<Set<string>> = [];
  for (const ev of story.events) {
    // Entering and leaving are seen by those present before and after.
    if (ev.kind === 'enter') present.add(ev.agent);
    presentAt.push(new Set(present));
    perceivedBy.push(new Set([...present, ...watching]));
    switch (ev.kind) {
      case 'exit':
        present.delete(ev.agent);
        break;
      case 'place':
      case 'move':
        if (!initial.has(ev.object)) initial.set(ev.object, ev.container);
        location.set(ev.object, ev.container);
        break;
      case 'watch':
        watching.add(ev.agent);
        break;
      case 'unwatch':
        watching.delete(ev.agent);
        break;
    }
  }
  return { location, initial, perceivedBy, presentAt };
}

/** Where `chain[0]` believes `chain[1]` believes ... the object is, under full tracking. */
function nestedBelief(story: WorldStory, r: Replay, chain: string[], object: string): string | undefined {
  let belief: string | undefined;
  story.events.forEach((ev, i) => {
    if (ev.kind !== 'place' && ev.kind !== 'move') return;
    if (ev.object !== object) return;
    if (!r.perceivedBy[i]!.has(chain[0]!)) return;
    for (let k = 1; k < chain.length; k++) if (!r.presentAt[i]!.has(chain[k]!)) return;
    belief = ev.container;
  });
  return belief;
}

/** Answer a question about a story under a belief-tracking policy. */
export function answerWorldQuestion(story: WorldStory, q: WorldQuestion, policy: BeliefPolicy = FULL_TRACKING): WorldAnswer {
  const r = replay(story);
  const truth = (object: string) => {
    const loc = r.location.get(object);
    if (!loc) throw new Error(`object ${object} is never placed in the story`);
    return loc;
  };
  switch (q.kind) {
    case 'reality':
      return truth(q.object);
    case 'memory': {
      const loc = r.initial.get(q.object);
      if (!loc) throw new Error(`object ${q.object} is never placed in the story`);
      return loc;
    }
    case 'belief': {
      if (policy.depth <= 0) return truth(q.object);
      const chain = q.chain.slice(0, Math.min(q.chain.length, policy.depth));
      return nestedBelief(story, r, chain, q.object) ?? truth(q.object);
    }
    case 'knowledge': {
      if (policy.depth <= 0) return 'yes';
      return nestedBelief(story, r, [q.agent], q.object) === truth(q.object) ? 'yes' : 'no';
    }
    case 'perception':
      return r.perceivedBy[q.eventIndex]?.has(q.agent) ? 'yes' : 'no';
  }
}
