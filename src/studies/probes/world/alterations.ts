// The sensitivity probes' alterations of a generated belief story, each built as a story of the
// world-and-belief tracker so that the altered item's answer comes from the tracker, exactly:
//   transparent    the containers are clear glass and the question's holders come back into the
//                  room: whoever is in the room sees where the object is;
//   present        the question's holders are in the room at every move;
//   told           someone who knows where the object is tells the protagonist, in private;
//   untrustworthy  the same, from a known liar the protagonist does not believe (the answer holds);
//   unseen-move    at the end, with nobody in the room or watching, a cleaner moves the object.
// A private exchange or an unseen move is written for the tracker as the others leaving and
// coming back around it; the text the subject reads says it in one sentence.

import type { WorldEvent, WorldQuestion, WorldStory } from '../../../worlds/index.js';
import { answerWorldQuestion } from '../../../worlds/index.js';

export const ALTERATIONS = ['transparent', 'present', 'told', 'untrustworthy', 'unseen-move'] as const;
export type Alteration = (typeof ALTERATIONS)[number];

/** An altered story: the tracker's events, and the sentences the subject reads. */
export interface AlteredStory {
  story: WorldStory;
  sentences: string[];
}

interface Scene {
  present: Set<string>;
  watching: Set<string>;
  location: Map<string, string>;
}

function sceneAfter(story: WorldStory): Scene {
  const s: Scene = { present: new Set(), watching: new Set(), location: new Map() };
  for (const e of story.events) apply(s, e);
  return s;
}

function apply(s: Scene, e: WorldEvent): void {
  if (e.kind === 'enter') s.present.add(e.agent);
  else if (e.kind === 'exit') s.present.delete(e.agent);
  else if (e.kind === 'watch') s.watching.add(e.agent);
  else if (e.kind === 'unwatch') s.watching.delete(e.agent);
  else s.location.set(e.object, e.container);
}

/**
 * Events for something only `who` perceive, with only them present (the others step out, the
 * watchers look away, and all come back after): the tracker's rule then updates exactly the
 * beliefs of `who` about each other.
 */
function privately(scene: Scene, who: readonly string[], inner: WorldEvent[]): WorldEvent[] {
  const leaving = [...scene.present].filter((a) => !who.includes(a));
  const coming = who.filter((a) => !scene.present.has(a));
  const watchers = [...scene.watching];
  return [
    ...leaving.map((agent): WorldEvent => ({ kind: 'exit', agent })),
    ...watchers.map((agent): WorldEvent => ({ kind: 'unwatch', agent })),
    ...coming.map((agent): WorldEvent => ({ kind: 'enter', agent })),
    ...inner,
    ...coming.map((agent): WorldEvent => ({ kind: 'exit', agent })),
    ...leaving.map((agent): WorldEvent => ({ kind: 'enter', agent })),
    ...watchers.map((agent): WorldEvent => ({ kind: 'watch', agent })),
  ];
}

/** The agent who tells the protagonist: the last mover, else anyone else who knows where the object is. */
function informant(story: WorldStory, protagonist: string, object: string): string | undefined {
  const truth = answerWorldQuestion(story, { kind: 'reality', object });
  const lastMover = [...story.events].reverse().find((e) => e.kind === 'move' && e.object === object);
  const candidates = [
    ...(lastMover && lastMover.kind === 'move' ? [lastMover.agent] : []),
    ...story.agents.filter((a) => answerWorldQuestion(story, { kind: 'belief', chain: [a], object }) === truth),
  ];
  return candidates.find((a) => a !== protagonist);
}

/**
 * The story altered, or undefined when the alteration cannot be written (nobody else knows where
 * the object is; no other container for an unseen move). `render` writes the original events.
 */
export function alterStory(
  story: WorldStory,
  question: WorldQuestion & { kind: 'belief' },
  alteration: Alteration,
  render: (events: WorldEvent[]) => string[],
): AlteredStory | undefined {
  const object = question.object;
  const scene = sceneAfter(story);
  const original = render(story.events);
  const truth = scene.location.get(object)!;
  const holders = [...new Set(question.chain)];
  switch (alteration) {
    case 'transparent': {
      // Whoever enters sees where each placed object is; the holders outside come back at the end.
      const events: WorldEvent[] = [];
      const s: Scene = { present: new Set(), watching: new Set(), location: new Map() };
      const reveal = () => [...s.location].map(([o, c]): WorldEvent => ({ kind: 'place', object: o, container: c }));
      for (const e of story.events) {
        events.push(e);
        apply(s, e);
        if (e.kind === 'enter') events.push(...reveal());
      }
      const back = holders.filter((a) => !scene.present.has(a));
      for (const agent of back) events.push({ kind: 'enter', agent }, ...reveal());
      const sentences = [
        `All the containers in the ${story.room} are made of clear glass: anyone in the ${story.room} can see what is inside them.`,
        ...original,
        ...render(back.map((agent) => ({ kind: 'enter', agent }))),
      ];
      return { story: { ...story, events }, sentences };
    }
    case 'present': {
      const events: WorldEvent[] = [];
      const s: Scene = { present: new Set(), watching: new Set(), location: new Map() };
      for (const e of story.events) {
        if (e.kind === 'move' && e.object === object) {
          const absent = holders.filter((a) => !s.present.has(a));
          events.push(
            ...absent.map((agent): WorldEvent => ({ kind: 'enter', agent })),
            e,
            ...absent.map((agent): WorldEvent => ({ kind: 'exit', agent })),
          );
        } else events.push(e);
        apply(s, e);
      }
      return { story: { ...story, events }, sentences: render(events) };
    }
    case 'told':
    case 'untrustworthy': {
      const listener = question.chain[0]!;
      const speaker = informant(story, listener, object);
      if (!speaker) return undefined;
      const said = `the ${object} is in the ${truth}`;
      if (alteration === 'untrustworthy')
        return {
          story,
          sentences: [
            ...original,
            `${speaker}, who ${listener} knows to be a liar, told ${listener} in private that ${said}. ${listener} did not believe ${speaker}.`,
          ],
        };
      const events = [...story.events, ...privately(scene, [speaker, listener], [{ kind: 'place', object, container: truth }])];
      return { story: { ...story, events }, sentences: [...original, `${speaker} told ${listener} in private that ${said}.`] };
    }
    case 'unseen-move': {
      const belief = answerWorldQuestion(story, question);
      const target = story.containers.find((c) => c !== truth && c !== belief) ?? story.containers.find((c) => c !== truth);
      if (!target) return undefined;
      const cleaner = 'a cleaner';
      const events = [...story.events, ...privately(scene, [], [{ kind: 'move', agent: cleaner, object, container: target }])];
      return {
        story: { ...story, events },
        sentences: [
          ...original,
          `Later, while nobody was in the ${story.room} and nobody was watching, a cleaner moved the ${object} to the ${target}.`,
        ],
      };
    }
  }
}
