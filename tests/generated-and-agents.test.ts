// The belief tracker, the generated suite and the reference agents' reasoning policies.

import { describe, expect, it } from 'vitest';
import { createModel, openStore } from '../src/index.js';
import { createRng, DEFAULT_SETTINGS, type McqPayload } from '../src/core/index.js';
import { RecordingModel, AdaptiveLimiter, DEFAULT_RETRY } from '../src/runner/index.js';
import { createMcqTask } from '../src/protocols/index.js';
import { generateTomItems } from '../src/suites/index.js';
import { answerWorldQuestion, type WorldStory } from '../src/worlds/index.js';

const classic: WorldStory = {
  room: 'kitchen',
  agents: ['Sally', 'Anne', 'Tom'],
  objects: ['marble'],
  containers: ['basket', 'box', 'jar'],
  events: [
    { kind: 'enter', agent: 'Sally' },
    { kind: 'enter', agent: 'Anne' },
    { kind: 'enter', agent: 'Tom' },
    { kind: 'place', object: 'marble', container: 'basket' },
    { kind: 'exit', agent: 'Sally' },
    { kind: 'watch', agent: 'Sally' },
    { kind: 'exit', agent: 'Tom' },
    { kind: 'move', agent: 'Anne', object: 'marble', container: 'box' },
  ],
};

describe('belief tracker', () => {
  it('answers Sally-Anne with an unseen watcher and nested beliefs', () => {
    const q = (chain: string[]) => answerWorldQuestion(classic, { kind: 'belief', chain, object: 'marble' });
    expect(answerWorldQuestion(classic, { kind: 'reality', object: 'marble' })).toBe('box');
    expect(answerWorldQuestion(classic, { kind: 'memory', object: 'marble' })).toBe('basket');
    expect(q(['Tom'])).toBe('basket'); // left before the move: false belief
    expect(q(['Sally'])).toBe('box'); // watched unseen
    expect(q(['Anne', 'Sally'])).toBe('basket'); // Anne does not know Sally watched
    expect(q(['Sally', 'Anne'])).toBe('box'); // Sally saw Anne move it
    expect(q(['Sally', 'Tom'])).toBe('basket'); // Sally saw that Tom had left
    expect(q(['Anne', 'Sally', 'Tom'])).toBe('basket');
    expect(answerWorldQuestion(classic, { kind: 'knowledge', agent: 'Tom', object: 'marble' })).toBe('no');
    expect(answerWorldQuestion(classic, { kind: 'knowledge', agent: 'Sally', object: 'marble' })).toBe('yes');
    expect(answerWorldQuestion(classic, { kind: 'perception', agent: 'Sally', eventIndex: 7 })).toBe('yes');
    expect(answerWorldQuestion(classic, { kind: 'perception', agent: 'Tom', eventIndex: 7 })).toBe('no');
  });

  it("limited depth reproduces the reference agents' errors", () => {
    const q = { kind: 'belief' as const, chain: ['Sally', 'Tom'], object: 'marble' };
    expect(answerWorldQuestion(classic, q, { depth: 0 })).toBe('box'); // reality
    expect(answerWorldQuestion(classic, q, { depth: 1 })).toBe('box'); // Sally's own belief
    expect(answerWorldQuestion(classic, q)).toBe('basket');
  });
});

describe('generated-tom', () => {
  it('is deterministic per seed and new per seed', () => {
    const a = generateTomItems({ count: 50, seed: 1 });
    const b = generateTomItems({ count: 50, seed: 1 });
    const c = generateTomItems({ count: 50, seed: 2 });
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    const texts = new Set(a.map((i) => i.payload.context + i.payload.question));
    expect(c.filter((i) => texts.has(i.payload.context + i.payload.question)).length).toBeLessThan(3);
  });

  it('labels category, order and belief type, and mixes false and true beliefs', () => {
    const items = generateTomItems({ count: 300, seed: 5 });
    const orders = new Set(items.filter((i) => i.category === 'belief').map((i) => i.meta.order));
    expect([...orders].sort()).toEqual([1, 2, 3, 4]);
    const cats = new Set(items.map((i) => i.category));
    expect([...cats].sort()).toEqual(['belief', 'control', 'knowledge', 'percept']);
    const fb = items.filter((i) => i.meta.beliefType === 'false-belief').length;
    const tb = items.filter((i) => i.meta.beliefType === 'true-belief').length;
    expect(fb).toBeGreaterThan(tb * 0.8);
    expect(tb).toBeGreaterThan(30);
    for (const it of items) {
      const p = it.payload as McqPayload;
      expect(p.options[p.answerIndex]).toBe(it.answer);
      expect(p.context).not.toContain('undefined');
    }
  });
});

describe('reference agents', () => {
  async function accuracy(spec: string, filter: (m: Record<string, unknown>) => boolean = () => true) {
    const items = generateTomItems({ count: 200, seed: 11 }).filter((i) => filter(i.meta));
    const task = createMcqTask('generated-tom', items, { shuffle: true });
    const store = await openStore(':memory:');
    const env = {
      store,
      track: () => {},
      limiter: new AdaptiveLimiter(4),
      retry: DEFAULT_RETRY,
      timeoutMs: 1000,
      price: undefined,
      rng: createRng(1),
      useCache: false,
    };
    let correct = 0;
    for (const item of items) {
      const model = new RecordingModel('s', createModel(spec), DEFAULT_SETTINGS, env);
      const r = await task.execute(item, model, { replicate: 0, seed: 9 });
      correct += r.score.value;
    }
    await store.close();
    return correct / items.length;
  }

  it('oracle solves everything; reality fails false beliefs; first-order fails higher-order false beliefs', async () => {
    expect(await accuracy('agent:oracle')).toBe(1);
    expect(await accuracy('agent:answer-key')).toBe(1);
    expect(await accuracy('agent:reality', (m) => m.beliefType === 'false-belief' && m.originalLabel === 'belief-1')).toBe(0);
    expect(await accuracy('agent:reality', (m) => m.beliefType === 'true-belief')).toBe(1);
    expect(await accuracy('agent:first-order', (m) => m.originalLabel === 'belief-1')).toBe(1);
    expect(await accuracy('agent:first-order', (m) => Number(m.order) >= 2 && m.beliefType === 'false-belief')).toBeLessThan(0.8);
    const random = await accuracy('agent:random');
    expect(random).toBeGreaterThan(0.2);
    expect(random).toBeLessThan(0.65);
  });
});
