// Explicit belief tracking: the prompt that asks for every agent's beliefs at a checkpoint as a
// JSON list, reading that list back, and the tracker's belief state the list is scored against
// (OmniToM's two stages: extraction of the propositions, labelling of their truth).

import { answerWorldQuestion, type WorldStory } from '../../../worlds/index.js';
import { BeliefPropositionSchema, type BeliefProposition } from './records.js';

/** Every holder chain of `agents` up to `maxOrder`, consecutive holders distinct (the generator's rule). */
export function holderChains(agents: readonly string[], maxOrder: number): string[][] {
  const out: string[][] = [];
  let level: string[][] = agents.map((a) => [a]);
  for (let order = 1; order <= maxOrder && level.length; order++) {
    out.push(...level);
    level = level.flatMap((c) => agents.filter((a) => a !== c[c.length - 1]).map((a) => [...c, a]));
  }
  return out;
}

/** The story up to its first `events` events. */
export function storyPrefix(story: WorldStory, events: number): WorldStory {
  return { ...story, events: story.events.slice(0, events) };
}

/**
 * The tracker's belief state after `events` events: for every holder chain up to `maxOrder` and
 * every object placed so far, where the chain believes it is, and whether that is true.
 */
export function trackedBeliefs(story: WorldStory, events: number, maxOrder: number): BeliefProposition[] {
  const prefix = storyPrefix(story, events);
  const placed = story.objects.filter((o) => prefix.events.some((e) => (e.kind === 'place' || e.kind === 'move') && e.object === o));
  const out: BeliefProposition[] = [];
  for (const object of placed) {
    const reality = answerWorldQuestion(prefix, { kind: 'reality', object });
    for (const holder of holderChains(story.agents, maxOrder)) {
      const container = answerWorldQuestion(prefix, { kind: 'belief', chain: holder, object });
      out.push({ holder, order: holder.length, object, container, true: container === reality });
    }
  }
  return out;
}

/** The instruction that asks for the belief state, after the story so far. */
export function beliefPrompt(context: string, agents: readonly string[], maxOrder: number): string {
  return [
    context,
    '',
    `List what each person believes about where each object is now, for beliefs up to order ${maxOrder}: ` +
      'order 1 is what a person believes, order 2 what a person believes another believes, and so on. ' +
      `People: ${agents.join(', ')}.`,
    'Reply with a JSON list only, one entry per belief, in the form ' +
      '[{"holder": ["Anne", "Bob"], "order": 2, "object": "ball", "container": "red_box", "true": false}], ' +
      'where "holder" names who believes (Anne believes that Bob believes ...) and "true" says whether the belief matches where the object really is.',
  ].join('\n');
}

/** The propositions in a reply: its first JSON list whose entries all fit, or null. */
export function readBeliefList(reply: string): BeliefProposition[] | null {
  const start = reply.indexOf('[');
  const end = reply.lastIndexOf(']');
  if (start < 0 || end <= start) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(reply.slice(start, end + 1));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  const out: BeliefProposition[] = [];
  for (const entry of parsed) {
    const p = BeliefPropositionSchema.safeParse(entry);
    if (p.success) out.push({ ...p.data, order: p.data.holder.length });
  }
  return out;
}

/** A proposition's identity for extraction (who holds which belief about which object, and where). */
export const propositionKey = (p: BeliefProposition): string => `${p.holder.join('>')}|${p.object}|${p.container}`;
