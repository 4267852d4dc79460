// Loaders on the full public data (MINDSCOPE_SHARED/data): the published counts and category
// mappings. The same loaders' logic on small fixtures is in tests/loaders.test.ts.

import { describe, expect, it } from 'vitest';
import { loadSuite, type Item } from '../src/index.js';
import type { McqPayload } from '../src/core/index.js';
import { NONE_OF_THE_ABOVE } from '../src/studies/dialtom/index.js';
import { SHARED, SHARED_DATA } from './shared-dir.js';

function byCategory(items: Item[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const i of items) out[i.category] = (out[i.category] ?? 0) + 1;
  return out;
}

const load = (suite: string) => loadSuite(suite, { data: SHARED_DATA, seed: 0 });

describe.skipIf(!SHARED)('ToMBench (full release)', () => {
  it('loads all 2,860 items with the audit paper appendix C category counts', async () => {
    const { items, warnings } = await load('tombench');
    expect(items).toHaveLength(2860);
    expect(byCategory(items)).toEqual({ belief: 882, intention: 340, desire: 180, emotion: 420, knowledge: 290, 'non-literal': 748 });
    expect(new Set(items.map((i) => i.id)).size).toBe(2860);
    // The malformed answer "A. " is repaired and reported.
    expect(warnings.some((w) => /answer "A\. " read as "A"/.test(w))).toBe(true);
    const repaired = items.find((i) => i.meta.answerRepaired === 'A. ')!;
    expect(repaired.answer).toBe((repaired.payload as McqPayload).options[0]);
    // Two-option tasks keep two options.
    expect(items.filter((i) => (i.payload as McqPayload).options.length === 2).length).toBeGreaterThan(400);
    expect(items[0]!.meta.originalLabel).toMatch(/^[A-Z][\w-]+(?: [\w-]+)*: /);
  });
});

describe.skipIf(!SHARED)('other literal suites (full releases)', () => {
  it('ToMATO false-belief file', async () => {
    const { items } = await load('tomato');
    expect(items).toHaveLength(806);
    expect(byCategory(items)).toEqual({ belief: 237, knowledge: 162, desire: 158, emotion: 127, intention: 122 });
    expect(items.every((i) => (i.payload as McqPayload).options.length === 4)).toBe(true);
  });

  it('DialToM: 999 retrospective, 523 prospective, 523 easy, counterfactual with None of the above', async () => {
    const retro = (await load('dialtom-retrospective')).items;
    const pro = (await load('dialtom-prospective')).items;
    const easy = (await load('dialtom-prospective-easy')).items;
    const cf = (await load('dialtom-counterfactual')).items;
    expect([retro.length, pro.length, easy.length]).toEqual([999, 523, 523]);
    expect(retro.filter((i) => i.meta.domain === 'MI')).toHaveLength(306);
    expect(pro.filter((i) => i.meta.domain === 'MI')).toHaveLength(136);
    expect(byCategory(retro).trust).toBe(183);
    expect(cf.length).toBe(523);
    expect(cf.every((i) => i.answer === NONE_OF_THE_ABOVE && (i.payload as McqPayload).options.length === 5)).toBe(true);
    // The right continuation is not always in the same place.
    const positions = new Set(pro.map((i) => (i.payload as McqPayload).answerIndex));
    expect(positions.size).toBe(4);
    // Prospective items hide the dialogue: the context is the profile only.
    expect((pro[0]!.payload as McqPayload).context).toMatch(
      /^The (client|seeker|persuadee) in this conversation has the following mental state/,
    );
  });

  it('Hi-ToM, ToMi, BigToM, OpenToM, MMToM-QA', async () => {
    const hitom = (await load('hitom')).items;
    expect(hitom).toHaveLength(600);
    expect(byCategory(hitom)).toEqual({ control: 120, belief: 480 });
    expect((hitom[0]!.payload as McqPayload).options).toHaveLength(15);
    const tomi = (await load('tomi')).items;
    expect(tomi).toHaveLength(5994);
    expect(tomi.every((i) => (i.payload as McqPayload).options.every((o) => !['kitchen', 'garden', 'bathroom'].includes(o)))).toBe(true);
    const bigtom = (await load('bigtom')).items;
    expect(bigtom).toHaveLength(1200);
    expect(new Set(bigtom.map((i) => i.meta.originalLabel)).size).toBe(6);
    const opentom = await load('opentom');
    expect(opentom.items.length + opentom.warnings.length).toBe(13708);
    expect(opentom.warnings.length).toBeLessThan(10);
    const mmtom = (await load('mmtom-qa')).items;
    expect(mmtom).toHaveLength(600);
    expect(byCategory(mmtom)).toEqual({ belief: 300, desire: 300 });
  });
});
