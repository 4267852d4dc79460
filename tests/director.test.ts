// The Director Task: scenes and pictures from a scene graph, prompts a, b and the c gate, scoring
// at letter and colour level with egocentric errors, reference agents that separate (allocentric
// gap 0, egocentric gap 1), control arms that turn the egocentric agent correct, and the
// picture arriving as an image part at a real local server.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../src/index.js';
import { createRng } from '../src/core/index.js';
import { readBlocks } from '../src/protocols/index.js';
import { directorItems } from '../src/suites/index.js';
import { directorRunResults, directorRunSummary } from '../src/analysis/index.js';
import { directorView, makeDirectorScene, targetBlock } from '../src/worlds/index.js';
import { evaluate } from './helpers/evaluate.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

describe('Director scenes', () => {
  it("the partition hides the addressee's own extremum from the director; controls remove the trap", () => {
    const rng = createRng(1);
    for (let i = 0; i < 20; i++) {
      const s = makeDirectorScene(rng, `s${i}`, { blocks: i % 2 ? 4 : 3, arm: 'canonical' });
      expect(directorView(s)).not.toContain(s.hidden);
      expect(targetBlock(s, 'addressee').letter).toBe(s.hidden);
      expect(targetBlock(s, 'director').letter).not.toBe(s.hidden);
      for (const arm of ['no-occluder', 'same-side'] as const) {
        const c = makeDirectorScene(createRng(i), 'c', { blocks: 3, arm });
        expect(targetBlock(c, 'director').letter).toBe(targetBlock(c, 'addressee').letter);
      }
    }
    const s = makeDirectorScene(createRng(2), 'x', { blocks: 3, arm: 'canonical' });
    expect(readBlocks('I think the director sees the red one.\nAnswer: A, C', s).letters.sort()).toEqual(
      ['A', 'C'].filter((l) => s.blocks.some((b) => b.letter === l)).sort(),
    );
    expect(directorItems({ perArm: 2, seed: 1 }).map((i) => i.ability)).toEqual([
      'canonical',
      'no-occluder',
      'same-side',
      'four-blocks',
      'canonical',
      'no-occluder',
      'same-side',
      'four-blocks',
    ]);
  });

  it('reference agents separate: allocentric gap 0, egocentric gap 1; the controls turn egocentric correct', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-director-'));
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate({ store, suites: ['director'], limit: 16, models: ['agent:allocentric', 'agent:egocentric'], trials: 3, runId: 'd' });
      const rows = await directorRunResults(store, 'd');
      const get = (subject: string, arm: string) => rows.find((r) => r.subject === subject && r.arm === arm)!;
      expect(get('agent:allocentric', 'canonical')).toMatchObject({ a: 1, b: 1, cQ2: 1, gap: 0, egocentric: 0, scenes: 4 });
      expect(get('agent:egocentric', 'canonical')).toMatchObject({ a: 1, b: 0, cQ1: 1, cQ2: 0, gap: 1, egocentric: 1 });
      expect(get('agent:egocentric', 'four-blocks')).toMatchObject({ gap: 1, egocentric: 1 });
      for (const arm of ['no-occluder', 'same-side'])
        expect(get('agent:egocentric', arm)).toMatchObject({ b: 1, cQ2: 1, gap: 0, egocentric: 0 });
      // The headline is the canonical arm alone (issue 15, defect 3): its panel gap is the mean of
      // 0 and 1; averaging the control arms in would have given (0 + 1 + 0 + 0 + 0 + 1 + 0 + 0) / 8.
      const summary = await directorRunSummary(store, 'd');
      expect(summary.headline?.arm).toBe('canonical');
      expect(summary.headline?.panel.gap).toBe(0.5);
      expect(summary.headline?.panel.egocentric).toBe(0.5);
      expect(summary.arms.map((a) => a.arm)).toEqual(['canonical', 'four-blocks', 'no-occluder', 'same-side']);
      expect(summary.arms.find((a) => a.arm === 'no-occluder')?.panel.gap).toBe(0);
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

  it('sends the scene picture as an image part with every prompt', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-director-http-'));
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate({ store, suites: ['director'], limit: 2, models: [`openai-compatible:${server.url}/v1#ok`], runId: 'h' });
      const bodies = (await server.stats()).bodies.map((b) => JSON.stringify(b.body));
      // Four prompts per scene; c.Q1 repeats (a) word for word, so the call cache answers it.
      expect(bodies.length).toBe(6);
      expect(bodies.every((b) => b.includes('"image_url"') && b.includes('data:image/png;base64,iVBOR'))).toBe(true);
    } finally {
      await store.close();
    }
  });
});
