// generated-tom: a seeded generator of object-location stories with questions about reality,
// memory, first- to fourth-order belief, knowledge access and perception, in the spirit of
// ToMi, Hi-ToM and ExploreToM. Ground truth comes from the world-and-belief tracker, and every
// item carries its world so that reference agents can reason over it. A new seed gives new
// stories, so the suite cannot be memorised.

import type { Category, Item, McqPayload, Rng } from '../../core/index.js';
import type { WorldEvent, WorldQuestion, WorldStory } from '../../worlds/index.js';
import { answerWorldQuestion, questionOrder } from '../../worlds/index.js';
import { createRng, deriveSeed } from '../../core/index.js';
import { mcqItem } from '../read-input.js';
import { CONTAINERS, COLOURS, NAMES, OBJECTS, ROOMS } from './vocabulary.js';

export type GeneratedKind = 'reality' | 'memory' | 'belief-1' | 'belief-2' | 'belief-3' | 'belief-4' | 'knowledge' | 'perception';

/** Share of each question kind in a generated suite. */
export const DEFAULT_MIX: Record<GeneratedKind, number> = {
  reality: 0.05,
  memory: 0.05,
  'belief-1': 0.3,
  'belief-2': 0.15,
  'belief-3': 0.1,
  'belief-4': 0.1,
  knowledge: 0.125,
  perception: 0.125,
};

const CATEGORY_OF: Record<GeneratedKind, Category> = {
  reality: 'control',
  memory: 'control',
  'belief-1': 'belief',
  'belief-2': 'belief',
  'belief-3': 'belief',
  'belief-4': 'belief',
  knowledge: 'knowledge',
  perception: 'percept',
};

function sentence(ev: WorldEvent, room: string): string {
  switch (ev.kind) {
    case 'enter':
      return `${ev.agent} entered the ${room}.`;
    case 'exit':
      return `${ev.agent} exited the ${room}.`;
    case 'place':
      return `The ${ev.object} is in the ${ev.container}.`;
    case 'move':
      return `${ev.agent} moved the ${ev.object} to the ${ev.container}.`;
    case 'watch':
      return `${ev.agent} watched the ${room} through a window, unseen by anyone inside.`;
    case 'unwatch':
      return `${ev.agent} stopped watching and walked away.`;
  }
}

/** A generated story's events as text. */
export function renderStory(story: WorldStory): string {
  return story.events.map((e) => sentence(e, story.room)).join('\n');
}

function questionText(q: WorldQuestion, story: WorldStory): string {
  switch (q.kind) {
    case 'reality':
      return `Where is the ${q.object} really?`;
    case 'memory':
      return `Where was the ${q.object} at the beginning?`;
    case 'belief': {
      const [first, ...rest] = q.chain;
      if (rest.length === 0) return `Where will ${first} look for the ${q.object}?`;
      const inner = rest
        .slice(0, -1)
        .map((a) => `${a} thinks that `)
        .join('');
      return `Where does ${first} think that ${inner}${rest[rest.length - 1]} will look for the ${q.object}?`;
    }
    case 'knowledge':
      return `Does ${q.agent} know where the ${q.object} is now?`;
    case 'perception': {
      const ev = story.events[q.eventIndex]!;
      if (ev.kind !== 'move') throw new Error('perception questions are about moves');
      return `Did ${q.agent} see ${ev.agent} move the ${ev.object} to the ${ev.container}?`;
    }
  }
}

/** A random story: all agents enter, the object is placed, then exits, entries, moves and unseen watching. */
function randomStory(rng: Rng, agentCount: number): WorldStory {
  const agents = rng.shuffle(NAMES).slice(0, agentCount);
  const colours = rng.shuffle(COLOURS);
  const containers = rng
    .shuffle(CONTAINERS)
    .slice(0, 3)
    .map((c, i) => `${colours[i]}_${c}`);
  const object = rng.pick(OBJECTS);
  const room = rng.pick(ROOMS);
  const events: WorldEvent[] = agents.map((agent) => ({ kind: 'enter', agent }));
  let location = rng.pick(containers);
  events.push({ kind: 'place', object, container: location });
  const present = new Set(agents);
  const watching = new Set<string>();
  const steps = 3 + rng.int(5);
  let moves = 0;
  for (let s = 0; s < steps || moves === 0; s++) {
    const outside = agents.filter((a) => !present.has(a));
    const r = rng.next();
    if (present.size > 0 && (r < 0.35 || moves === 0) && s >= 1) {
      const mover = rng.pick([...present]);
      location = rng.pick(containers.filter((c) => c !== location));
      events.push({ kind: 'move', agent: mover, object, container: location });
      moves++;
    } else if (r < 0.65 && present.size > 1) {
      const leaver = rng.pick([...present]);
      present.delete(leaver);
      events.push({ kind: 'exit', agent: leaver });
    } else if (r < 0.85 && outside.length > 0) {
      const comer = rng.pick(outside);
      watching.delete(comer);
      present.add(comer);
      events.push({ kind: 'enter', agent: comer });
    } else if (outside.some((a) => !watching.has(a))) {
      const watcher = rng.pick(outside.filter((a) => !watching.has(a)));
      watching.add(watcher);
      events.push({ kind: 'watch', agent: watcher });
    }
    if (events.length > 16) break;
  }
  return { room, agents, objects: [object], containers, events };
}

function pickQuestion(rng: Rng, kind: GeneratedKind, story: WorldStory): WorldQuestion | undefined {
  const object = story.objects[0]!;
  switch (kind) {
    case 'reality':
      return { kind: 'reality', object };
    case 'memory':
      return { kind: 'memory', object };
    case 'knowledge':
      return { kind: 'knowledge', agent: rng.pick(story.agents), object };
    case 'perception': {
      const moves = story.events.map((e, i) => ({ e, i })).filter(({ e }) => e.kind === 'move');
      if (moves.length === 0) return undefined;
      const { e, i } = rng.pick(moves);
      const others = story.agents.filter((a) => e.kind === 'move' && a !== e.agent);
      return others.length ? { kind: 'perception', agent: rng.pick(others), eventIndex: i } : undefined;
    }
    default: {
      const order = Number(kind.split('-')[1]);
      if (story.agents.length < Math.min(order, 2)) return undefined;
      // Consecutive agents in a chain differ; agents may recur further apart.
      const chain: string[] = [];
      for (let k = 0; k < order; k++) chain.push(rng.pick(story.agents.filter((a) => a !== chain[k - 1])));
      return { kind: 'belief', chain, object };
    }
  }
}

/** Does the question separate reasoning policies (false belief) or not (true belief)? */
function beliefType(story: WorldStory, q: WorldQuestion): 'false-belief' | 'true-belief' | undefined {
  if (q.kind !== 'belief' && q.kind !== 'knowledge') return undefined;
  const full = answerWorldQuestion(story, q);
  const reality = answerWorldQuestion(story, q, { depth: 0 });
  return full === reality ? 'true-belief' : 'false-belief';
}

export interface GenerateOptions {
  count: number;
  seed: number;
  mix?: Partial<Record<GeneratedKind, number>>;
  /** Share of belief and knowledge items whose answer differs from reality (default 0.6). */
  falseBeliefShare?: number;
}

/** Seeded false-belief, knowledge, perception and higher-order belief items whose answers come from the belief tracker. */
export function generateTomItems(opts: GenerateOptions): Item<McqPayload>[] {
  const mix = { ...DEFAULT_MIX, ...(opts.mix ?? {}) };
  const kinds = Object.keys(mix) as GeneratedKind[];
  const total = kinds.reduce((s, k) => s + mix[k], 0);
  const fbShare = opts.falseBeliefShare ?? 0.6;
  const rng = createRng(deriveSeed('generated-tom', opts.seed));
  const items: Item<McqPayload>[] = [];
  for (let n = 0; n < opts.count; n++) {
    // The kind of the n-th item follows the mix deterministically, so small suites keep it.
    let acc = 0;
    const target = ((n + 0.5) / opts.count) * total;
    const kind = kinds.find((k) => (acc += mix[k]) >= target) ?? kinds[kinds.length - 1]!;
    const wantFalse = rng.next() < fbShare;
    let made: { story: WorldStory; question: WorldQuestion } | undefined;
    for (let attempt = 0; attempt < 200 && !made; attempt++) {
      const order = kind.startsWith('belief-') ? Number(kind.split('-')[1]) : 2;
      const story = randomStory(rng, Math.max(2, Math.min(4, order + rng.int(2))));
      const question = pickQuestion(rng, kind, story);
      if (!question) continue;
      const bt = beliefType(story, question);
      if (bt && (bt === 'false-belief') !== wantFalse && attempt < 150) continue;
      made = { story, question };
    }
    if (!made) throw new Error(`could not generate a ${kind} item`);
    const { story, question } = made;
    const answer = answerWorldQuestion(story, question);
    const yesNo = question.kind === 'knowledge' || question.kind === 'perception';
    const options = yesNo ? ['Yes', 'No'] : rng.shuffle(story.containers);
    const answerText = yesNo ? (answer === 'yes' ? 'Yes' : 'No') : answer;
    const order = questionOrder(question);
    const bt = beliefType(story, question);
    items.push(
      mcqItem({
        suite: 'generated-tom',
        id: `s${opts.seed}-${String(n).padStart(4, '0')}`,
        category: CATEGORY_OF[kind],
        ability: kind,
        context: renderStory(story),
        question: questionText(question, story),
        options,
        answerIndex: options.indexOf(answerText),
        meta: { originalLabel: kind, order, beliefType: bt, seed: opts.seed },
        file: 'generated-tom',
      }),
    );
    items[items.length - 1]!.payload.world = { story, question };
  }
  return items;
}
