// Invariance probes: variants of a multiple-choice item that must not change its answer. Option
// order (cyclic rotations, so that over a rotation set the answer sits once in each position: a
// subject without positional bias spreads its picks evenly), name swaps and object swaps (seeded;
// names from the item's world, or found in released items), and paraphrased question templates.

import type { Item, McqPayload } from '../../../core/index.js';
import { createRng, deriveSeed } from '../../../core/index.js';
import type { WorldEvent, WorldQuestion, WorldStory } from '../../../worlds/index.js';
import type { ProbePayload, ProbeVariant } from '../protocol/payload.js';
import { findNames, replaceWords, SWAP_NAMES, SWAP_OBJECTS } from './names.js';
import { probeItem } from './probe-item.js';

/** Paraphrases of the question's frame; the first is the question as written. */
const PARAPHRASES: readonly ((q: string) => string)[] = [
  (q) => q,
  (q) => `Based only on the text above, answer this question: ${q}`,
  (q) => `${q} Think about what each person saw before you answer.`,
  (q) => `Here is a question about the story. ${q}`,
  (q) => `Read the question carefully. ${q} Choose one option.`,
  (q) => `Consider the events described. ${q}`,
];

export interface InvarianceOptions {
  /** Option orders per item, the original included (capped at the number of options). */
  permutations: number;
  /** Name swaps (and object swaps, for generated items) per item. */
  swaps: number;
  /** Question templates, the original included (at most PARAPHRASES.length). */
  paraphrases: number;
  seed: number;
}

interface ItemWorld {
  story: WorldStory;
  question: WorldQuestion;
}

function rotate(mcq: McqPayload, r: number): McqPayload {
  const k = mcq.options.length;
  const options = mcq.options.map((_, i) => mcq.options[(i + r) % k]!);
  return { ...mcq, options, answerIndex: (mcq.answerIndex - r + k) % k };
}

/** A world with its agents (or objects) renamed. */
function renameWorld(world: ItemWorld, map: ReadonlyMap<string, string>): ItemWorld {
  const n = (s: string) => map.get(s) ?? s;
  const events = world.story.events.map((e): WorldEvent => {
    const out = { ...e } as Record<string, unknown>;
    for (const f of ['agent', 'object'] as const) if (typeof out[f] === 'string') out[f] = n(out[f] as string);
    return out as unknown as WorldEvent;
  });
  const q = { ...world.question } as Record<string, unknown>;
  for (const f of ['agent', 'object'] as const) if (typeof q[f] === 'string') q[f] = n(q[f] as string);
  if (Array.isArray(q.chain)) q.chain = (q.chain as string[]).map(n);
  return {
    story: { ...world.story, agents: world.story.agents.map(n), objects: world.story.objects.map(n), events },
    question: q as unknown as WorldQuestion,
  };
}

function swapped(mcq: McqPayload, map: ReadonlyMap<string, string>): McqPayload {
  const world = mcq.world as ItemWorld | undefined;
  return {
    ...mcq,
    context: replaceWords(mcq.context, map),
    question: replaceWords(mcq.question, map),
    options: mcq.options.map((o) => replaceWords(o, map)),
    ...(world?.story ? { world: renameWorld(world, map) } : {}),
  };
}

/** A seeded map from `from` to fresh words of `pool` that the item does not use. */
function freshMap(from: readonly string[], pool: readonly string[], text: string, seed: number, what: string): Map<string, string> {
  const free = createRng(deriveSeed('probe-swap', what, seed)).shuffle(pool.filter((w) => !new RegExp(`\\b${w}\\b`).test(text)));
  return new Map(from.slice(0, free.length).map((w, i) => [w, free[i]!]));
}

/** The variants of one item. */
function invarianceVariants(base: Item<McqPayload>, opts: InvarianceOptions): ProbeVariant[] {
  const mcq = base.payload;
  const variants: ProbeVariant[] = [{ name: 'original', kind: 'original', mcq }];
  const k = mcq.options.length;
  const rng = createRng(deriveSeed('probe-permutations', base.suite, base.id, opts.seed));
  const rotations = rng.shuffle(Array.from({ length: k - 1 }, (_, i) => i + 1)).slice(0, Math.max(0, opts.permutations - 1));
  for (const r of rotations.sort((a, b) => a - b)) variants.push({ name: `permutation-${r}`, kind: 'permutation', mcq: rotate(mcq, r) });
  const text = [mcq.context, mcq.question, ...mcq.options].join('\n');
  const world = mcq.world as ItemWorld | undefined;
  const names = world?.story ? world.story.agents : findNames(mcq.context, mcq.question);
  for (let s = 1; s <= opts.swaps && names.length; s++) {
    const map = freshMap(names, SWAP_NAMES, text, deriveSeed(base.suite, base.id, opts.seed, s), 'names');
    if (map.size) variants.push({ name: `names-${s}`, kind: 'names', mcq: swapped(mcq, map) });
  }
  if (world?.story) {
    for (let s = 1; s <= opts.swaps; s++) {
      const map = freshMap(world.story.objects, SWAP_OBJECTS, text, deriveSeed(base.suite, base.id, opts.seed, s), 'objects');
      if (map.size) variants.push({ name: `objects-${s}`, kind: 'objects', mcq: swapped(mcq, map) });
    }
  }
  for (let t = 1; t < Math.min(opts.paraphrases, PARAPHRASES.length); t++)
    variants.push({ name: `paraphrase-${t}`, kind: 'paraphrase', mcq: { ...mcq, question: PARAPHRASES[t]!(mcq.question) } });
  return variants;
}

/** The invariance probe items of a suite's items. */
export function invarianceItems(suite: string, items: readonly Item<McqPayload>[], opts: InvarianceOptions): Item<ProbePayload>[] {
  return items.map((base) => probeItem(suite, base, { family: 'invariance', variants: invarianceVariants(base, opts) }));
}
