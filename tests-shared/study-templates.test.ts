// The published prompts and the DialToM studies on the full public data (MINDSCOPE_SHARED/data):
// every released item renders with its benchmark's published template, the written task's 300
// units all have their dialogue and prompt, and the dataset statistics of the released (verified)
// DialToM items. The statistics are printed: the paper's Table 2 counts the 5,943 contexts before
// verification, so the released subset's numbers are not expected to equal it.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite, type Item } from '../src/index.js';
import type { McqPayload } from '../src/core/index.js';
import {
  dialtomDatasetStats,
  parseWrittenDialogues,
  parseWrittenInferences,
  writtenInferencePrompt,
} from '../src/studies/dialtom/index.js';
import { buildMcqMessages, loadMcqTemplate, presentOptions } from '../src/protocols/index.js';
import { SHARED, SHARED_DATA } from './shared-dir.js';

const load = async (suite: string) => (await loadSuite(suite, { data: SHARED_DATA, seed: 0 })).items as Item<McqPayload>[];
const ctx = { seed: 0, replicate: 0 };

describe.skipIf(!SHARED)('published templates on the full releases', () => {
  it('every ToMBench, ToMATO and DialToM item renders with its published prompt', async () => {
    for (const [suite, template, n] of [
      ['tombench', 'tombench', 2860],
      ['tomato', 'tomato', 806],
      ['dialtom-retrospective', 'dialtom-retrospective', 999],
      ['dialtom-prospective', 'dialtom-prospective', 523],
      ['dialtom-prospective-easy', 'dialtom-prospective', 523],
      ['dialtom-counterfactual', 'dialtom-counterfactual', 523],
    ] as const) {
      const items = await load(suite);
      const t = loadMcqTemplate(template);
      expect(items.length).toBe(n);
      for (const item of items) {
        const user = buildMcqMessages(item, presentOptions(item, ctx, false), t).at(-1)!.content as string;
        expect(user).not.toMatch(/\{(context|question|options|topic|session|initiator|recipient|state|profile)\}/);
        expect(user).toContain(item.answer);
      }
    }
  }, 120_000);

  it('the written task: 300 units, each with its dialogue and a prompt naming its state', () => {
    const data = join(SHARED_DATA, 'dialtom', 'data');
    const refs = parseWrittenInferences(readFileSync(join(data, 'written_inference.csv'), 'utf8'));
    const dialogues = parseWrittenDialogues(JSON.parse(readFileSync(join(data, 'combined_written_data.json'), 'utf8')));
    expect(refs.size).toBe(300);
    for (const { unit } of refs.values()) {
      const turns = dialogues.get(`${unit.dataset}\u0000${unit.subId}`);
      expect(turns, `${unit.dataset} ${unit.subId}`).toBeDefined();
      const prompt = writtenInferencePrompt(unit.dataset, unit.state, turns!);
      expect(prompt).toContain(`infer the ${unit.state} mental state`);
      expect(prompt).not.toMatch(/agent ?[12]\b/);
    }
  });

  it('dataset statistics of the released DialToM items', async () => {
    const stats = dialtomDatasetStats(await load('dialtom-retrospective'), await load('dialtom-prospective'));
    const row = (d: string) => stats.find((s) => s.domain === d)!;
    expect([row('MI').retrospective, row('ESC').retrospective, row('PFG').retrospective]).toEqual([306, 354, 339]);
    expect([row('MI').prospective, row('ESC').prospective, row('PFG').prospective]).toEqual([136, 203, 184]);
    for (const s of stats) {
      expect(s.wordsPerTurn).toBeCloseTo(s.wordsPerContext / s.turnsPerContext, 10);
      console.log(
        `${s.domain}: ${s.contexts} contexts, ${s.wordsPerContext.toFixed(1)} words and ${s.turnsPerContext.toFixed(2)} turns per context, ${s.wordsPerTurn.toFixed(1)} words per turn; ${s.retrospective} retrospective, ${s.prospective} prospective`,
      );
    }
  });
});
