// The Director Task: the counterbalanced scene set (palettes, letter-colour mapping, target slot,
// polarity, checked by counting from the scenes themselves), pictures, prompts a, b and the c
// gate, answers read at letter and colour level apart with egocentric errors on (b) and c.Q2,
// reference agents that separate (allocentric gap 0, egocentric gap 1), a scripted subject that
// names the right letters but calls blue "cyan" (letter-correct, colour-wrong), control arms
// that turn the egocentric agent correct, and the picture reaching a real local server.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry, defineProvider, evaluate as evaluateSpec, openStore, readInfo, type ChatModel } from '../src/index.js';
import { createRng } from '../src/core/index.js';
import {
  counterbalancedScene,
  DIRECTOR_INFO,
  DIRECTOR_PALETTES,
  directorByFactor,
  directorItems,
  directorRunResults,
  directorRunSummary,
  directorSceneOutcomes,
  directorView,
  makeDirectorScene,
  readBlocks,
  targetBlock,
  trapBlock,
  withArm,
  type DirectorScene,
} from '../src/studies/vision/index.js';
import { judgeMove, judgeSeen } from '../src/studies/vision/protocols/director-answers.js';
import { evaluate } from './helpers/evaluate.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

const count = <T>(xs: T[]) => {
  const m = new Map<string, number>();
  for (const x of xs) m.set(String(x), (m.get(String(x)) ?? 0) + 1);
  return Object.fromEntries([...m.entries()].sort());
};

describe('the counterbalanced scene set (paper Appendix I)', () => {
  // Everything below is read off the scenes (blocks, partition, instruction), not off the design record.
  const set = (offset: number, blocks: 3 | 4 = 3) =>
    Array.from({ length: 12 }, (_, i) => counterbalancedScene(i, { id: `s${i}`, blocks, arm: 'canonical', offset }));
  const colours = (s: DirectorScene) => s.blocks.map((b) => b.color);

  it('rotates the palette, the letter-colour mapping, the target slot and the polarity', () => {
    const scenes = set(0);
    // Three palettes, four scenes each; each scene's colours are exactly one palette.
    const paletteOf = (s: DirectorScene) => DIRECTOR_PALETTES.findIndex((p) => [...p].sort().join() === [...colours(s)].sort().join());
    expect(count(scenes.map(paletteOf))).toEqual({ 0: 4, 1: 4, 2: 4 });
    // Polarity 6/6; the target (the director's extremum) in every slot four times, twice per polarity.
    expect(count(scenes.map((s) => s.extremum))).toEqual({ largest: 6, smallest: 6 });
    const targetSlot = (s: DirectorScene) => targetBlock(s, 'director').slot;
    expect(count(scenes.map(targetSlot))).toEqual({ 0: 4, 1: 4, 2: 4 });
    expect(count(scenes.map((s) => `${s.extremum}-${targetSlot(s)}`))).toEqual({
      'largest-0': 2,
      'largest-1': 2,
      'largest-2': 2,
      'smallest-0': 2,
      'smallest-1': 2,
      'smallest-2': 2,
    });
    // The trap (the hidden block) is the addressee's own extremum, in every slot four times.
    for (const s of scenes) {
      expect(trapBlock(s)!.letter).toBe(targetBlock(s, 'addressee').letter);
      expect(directorView(s)).not.toContain(s.hidden);
      expect(s.blocks.map((b) => b.letter)).toEqual(['A', 'B', 'C']);
    }
    expect(count(scenes.map((s) => trapBlock(s)!.slot))).toEqual({ 0: 4, 1: 4, 2: 4 });
    // The mapping changes within each palette (four different mappings of its three colours) and
    // every letter binds to at least two colours across the set.
    for (let p = 0; p < 3; p++) {
      const here = scenes.filter((s) => paletteOf(s) === p);
      expect(new Set(here.map((s) => colours(s).join())).size).toBe(4);
      // Every colour of the palette is the trap once or more, and the target once or more.
      expect(new Set(here.map((s) => trapBlock(s)!.color)).size).toBe(3);
      expect(new Set(here.map((s) => targetBlock(s, 'director').color)).size).toBe(3);
    }
    for (const l of [0, 1, 2]) expect(new Set(scenes.map((s) => s.blocks[l]!.color)).size).toBeGreaterThanOrEqual(2);
    // The design record says the same as the scenes.
    for (const s of scenes) expect([s.design!.targetSlot, s.design!.trapSlot]).toEqual([targetSlot(s), trapBlock(s)!.slot]);
  });

  it('another seed changes the mappings and keeps the balance; four-block scenes balance the trap over four slots', () => {
    const a = set(0);
    const b = set(5);
    expect(a.map(colours)).not.toEqual(b.map(colours));
    expect(a.map((s) => [s.extremum, targetBlock(s, 'director').slot])).toEqual(
      b.map((s) => [s.extremum, targetBlock(s, 'director').slot]),
    );
    const four = set(0, 4);
    expect(count(four.map((s) => s.extremum))).toEqual({ largest: 6, smallest: 6 });
    expect(count(four.map((s) => trapBlock(s)!.slot))).toEqual({ 0: 3, 1: 3, 2: 3, 3: 3 });
    for (const s of four) {
      const sizes = s.blocks.map((x) => x.size).sort();
      expect(sizes).toEqual([1, 2, 3, 4]);
      // The target is the second-largest (second-smallest) of the four.
      expect(targetBlock(s, 'director').size).toBe(s.extremum === 'largest' ? 3 : 2);
      expect(new Set(colours(s)).size).toBe(4);
    }
  });

  it('the suite interleaves the arms on the same scenes; controls move the target onto the visual extremum', () => {
    const items = directorItems({ perArm: 12, seed: 3 });
    expect(items.slice(0, 4).map((i) => i.ability)).toEqual(['canonical', 'no-occluder', 'same-side', 'four-blocks']);
    const byArm = (arm: string) => items.filter((i) => i.ability === arm).map((i) => i.payload.scene);
    const canonical = byArm('canonical');
    for (const arm of ['no-occluder', 'same-side']) {
      const c = byArm(arm);
      expect(c.map((s) => s.blocks)).toEqual(canonical.map((s) => s.blocks));
      for (const s of c) expect(targetBlock(s, 'director').letter).toBe(targetBlock(s, 'addressee').letter);
    }
    expect(items[0]!.meta).toMatchObject({ arm: 'canonical', palette: 0, polarity: canonical[0]!.extremum });
    expect(directorItems({ perArm: 2, seed: 3 })).toEqual(directorItems({ perArm: 2, seed: 3 }));
    // The free draw is kept for other uses and is seeded.
    expect(makeDirectorScene(createRng(2), 'x', { blocks: 3, arm: 'canonical' })).toEqual(
      makeDirectorScene(createRng(2), 'x', { blocks: 3, arm: 'canonical' }),
    );
  });
});

describe('answers at letter and colour level', () => {
  // yellow A (middle), red B (largest, hidden), blue C (smallest): "largest" means A for the director.
  const s = counterbalancedScene(0, { id: 'x', blocks: 3, arm: 'canonical', offset: 0 });
  const name = (l: string) => `${s.blocks.find((b) => b.letter === l)!.color} ${l}`;
  const target = targetBlock(s, 'director').letter;
  const hidden = s.hidden!;

  it('reads letters and any colour word of the closed vocabulary from the answer line', () => {
    expect(readBlocks('The director sees... Answer: cyan C, Yellow A', s)).toEqual({ letters: ['C', 'A'], colors: ['cyan', 'yellow'] });
    expect(readBlocks('I think B.\nAnswer: A', s).letters).toEqual(['A']);
  });

  it('separates letter-correct from colour-correct and marks the egocentric pick', () => {
    const wrongColour = s.blocks.find((b) => b.letter === target)!.color === 'cyan' ? 'blue' : 'cyan';
    expect(judgeMove(`Answer: ${name(target)}`, s, target)).toMatchObject({
      letter: true,
      color: true,
      mode: 'correct',
      egocentric: false,
    });
    expect(judgeMove(`Answer: ${wrongColour} ${target}`, s, target)).toMatchObject({
      letter: true,
      color: false,
      mode: 'letter_only_correct',
    });
    expect(judgeMove(`Answer: ${s.blocks.find((b) => b.letter === target)!.color}`, s, target)).toMatchObject({
      letter: false,
      color: true,
      mode: 'color_only_correct',
    });
    expect(judgeMove(`Answer: ${name(hidden)}`, s, target)).toMatchObject({
      letter: false,
      color: false,
      mode: 'egocentric',
      egocentric: true,
    });
    // With no letter, the colour names the block: the hidden block's colour is egocentric too.
    expect(judgeMove(`Answer: ${s.blocks.find((b) => b.letter === hidden)!.color}`, s, target).egocentric).toBe(true);
    expect(judgeMove('I cannot tell.', s, target).mode).toBe('no_answer');
    const seen = directorView(s);
    expect(judgeSeen(`Answer: ${seen.map(name).join(', ')}`, s, seen)).toMatchObject({ letter: true, color: true, mode: 'correct' });
    expect(judgeSeen(`Answer: ${s.blocks.map((b) => name(b.letter)).join(', ')}`, s, seen)).toMatchObject({
      letter: false,
      mode: 'includes_hidden',
    });
    // The same scene without the partition: nothing is hidden, nothing is egocentric.
    const open = withArm(s, 'no-occluder');
    expect(judgeMove(`Answer: ${name(hidden)}`, open, targetBlock(open, 'director').letter)).toMatchObject({
      letter: true,
      egocentric: false,
    });
  });
});

/** A subject that names the right blocks by letter but calls blue "cyan", and acts egocentrically on (b) only. */
const scripted = defineProvider({
  prefix: 'scripted',
  form: 'scripted:NAME',
  create: (name, spec): ChatModel => ({
    spec,
    provider: 'scripted',
    model: name,
    endpoint: 'scripted',
    local: true,
    async chat(req) {
      const d = readInfo(req.context?.info, DIRECTOR_INFO)!;
      const colour = (l: string) => {
        const c = d.scene.blocks.find((b) => b.letter === l)!.color;
        return c === 'blue' ? 'cyan' : c;
      };
      // c.Q2 is the only call with an assistant turn before it.
      const gated = req.messages.some((m) => m.role === 'assistant');
      const text =
        d.prompt === 'a'
          ? `Answer: ${directorView(d.scene)
              .map((l) => `${colour(l)} ${l}`)
              .join(', ')}`
          : `Answer: ${((l) => `${colour(l)} ${l}`)(targetBlock(d.scene, gated ? 'director' : 'addressee').letter)}`;
      return { text, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0 };
    },
  }),
});

describe('Director runs', () => {
  it('reference agents separate: allocentric gap 0, egocentric gap 1 with egocentric errors on (b) and c.Q2; controls turn egocentric correct', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-director-'));
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate({ store, suites: ['director'], limit: 16, models: ['agent:allocentric', 'agent:egocentric'], trials: 3, runId: 'd' });
      const rows = await directorRunResults(store, 'd');
      const get = (subject: string, arm: string) => rows.find((r) => r.subject === subject && r.arm === arm)!;
      expect(get('agent:allocentric', 'canonical')).toMatchObject({
        a: 1,
        b: 1,
        cQ2: 1,
        gap: 0,
        egocentric: 0,
        egocentricCQ2: 0,
        scenes: 4,
      });
      expect(get('agent:allocentric', 'canonical').color).toMatchObject({ a: 1, b: 1, cQ1: 1, cQ2: 1, scenes: 4 });
      expect(get('agent:egocentric', 'canonical')).toMatchObject({ a: 1, b: 0, cQ1: 1, cQ2: 0, gap: 1, egocentric: 1, egocentricCQ2: 1 });
      expect(get('agent:egocentric', 'four-blocks')).toMatchObject({ gap: 1, egocentric: 1 });
      for (const arm of ['no-occluder', 'same-side'])
        expect(get('agent:egocentric', arm)).toMatchObject({ b: 1, cQ2: 1, gap: 0, egocentric: 0, egocentricCQ2: 0 });
      // The headline is the canonical arm alone: its panel gap is the mean of 0 and 1; averaging
      // the control arms in would have given (0 + 1 + 0 + 0 + 0 + 1 + 0 + 0) / 8.
      const summary = await directorRunSummary(store, 'd');
      expect(summary.headline?.arm).toBe('canonical');
      expect(summary.headline?.panel.gap).toBe(0.5);
      expect(summary.headline?.panel.egocentric).toBe(0.5);
      expect(summary.headline?.panel.egocentricCQ2).toBe(0.5);
      expect(summary.arms.map((a) => a.arm)).toEqual(['canonical', 'four-blocks', 'no-occluder', 'same-side']);
      expect(summary.arms.find((a) => a.arm === 'no-occluder')?.panel.gap).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('letter level and colour level are stored and reported apart; the factor breakdown counts the design', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-director-colour-'));
    const store = await openStore(join(dir, 'm.db'));
    const registry = createRegistry();
    registry.providers.add(scripted);
    try {
      await evaluateSpec({ suites: ['director'], models: ['scripted:cyan'], limit: 48 }, { store, registry, runId: 'c' });
      const outcomes = await directorSceneOutcomes(store, 'c');
      const canonical = outcomes.filter((o) => o.arm === 'canonical');
      expect(canonical).toHaveLength(12);
      // Independent count: a scene's colour answer is wrong exactly when a block it names is blue.
      const items = directorItems({ perArm: 12, seed: 0 }).filter((i) => i.ability === 'canonical');
      const blue = (letters: string[], s: DirectorScene) => letters.some((l) => s.blocks.find((b) => b.letter === l)!.color === 'blue');
      const expectA = items.filter((i) => !blue(directorView(i.payload.scene), i.payload.scene)).length / 12;
      const expectB = items.filter((i) => !blue([targetBlock(i.payload.scene, 'addressee').letter], i.payload.scene)).length / 12;
      const rows = await directorRunResults(store, 'c');
      const r = rows.find((x) => x.arm === 'canonical')!;
      expect(r).toMatchObject({ a: 1, b: 0, cQ1: 1, cQ2: 1, egocentric: 1, egocentricCQ2: 0, gap: 1, recovery: 1 });
      expect(expectA).toBeLessThan(1);
      expect(r.color!.a).toBeCloseTo(expectA, 12);
      expect(r.color!.b).toBe(0); // the egocentric pick is the wrong block, whatever its colour
      expect(r.color!.cQ2).toBeCloseTo(
        items.filter((i) => !blue([targetBlock(i.payload.scene, 'director').letter], i.payload.scene)).length / 12,
        12,
      );
      // Scenes where the trap is blue are egocentric all the same: colour level on (b) stays 0, not expectB.
      expect(expectB).toBeLessThan(1);
      // The paper's palette 1 (yellow/red/blue) is the only one with blue: the breakdown shows the drop there alone.
      const byFactor = directorByFactor(outcomes).filter((x) => x.arm === 'canonical');
      const palettes = byFactor.filter((x) => x.factor === 'palette');
      expect(palettes.map((x) => [x.level, x.scenes])).toEqual([
        ['purple/green/orange', 4],
        ['red/cyan/green', 4],
        ['yellow/red/blue', 4],
      ]);
      expect(byFactor.filter((x) => x.factor === 'polarity').map((x) => x.scenes)).toEqual([6, 6]);
      expect(byFactor.filter((x) => x.factor === 'targetSlot').map((x) => [x.level, x.scenes, x.egocentricB])).toEqual([
        ['A (left)', 4, 1],
        ['B (middle)', 4, 1],
        ['C (right)', 4, 1],
      ]);
    } finally {
      await store.close();
    }
  });
});

describe('Director pictures over a real local server', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.stop());

  it('sends the scene picture as an image part with every prompt, and no colour word for the blocks in the text', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-director-http-'));
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate({ store, suites: ['director'], limit: 2, models: [`openai-compatible:${server.url}/v1#ok`], runId: 'h' });
      const bodies = (await server.stats()).bodies.map((b) => b.body as { messages: Array<{ role: string; content: unknown }> });
      // Four prompts per scene, each asked: c.Q1 repeats (a) word for word, and is a draw of its own.
      expect(bodies.length).toBe(8);
      expect(
        bodies.every((b) => JSON.stringify(b).includes('"image_url"') && JSON.stringify(b).includes('data:image/png;base64,iVBOR')),
      ).toBe(true);
      // The user turns name letters, never the blocks' colours (the system prompt lists the vocabulary).
      const userText = bodies.flatMap((b) => b.messages.filter((m) => m.role === 'user').map((m) => JSON.stringify(m.content)));
      expect(userText.some((t) => /\b(yellow|red|blue|purple|green|orange|cyan)\b/.test(t))).toBe(false);
    } finally {
      await store.close();
    }
  });
});
