// Turns per context as the DialToM paper counts them (an exchange of one utterance of each
// speaker: floor(utterances / 2) per window; words with the speaker label), on the released
// items, counted here from the files; and the paper's Table 2 itself from the windows the items
// were built from (the authors' original_data, 5,943 windows), when the shared folder holds them
// at data/dialtom/original_data: the released items are a verified subset of those windows
// (MI 93 of 865), so Table 2's means come from the windows, not from the released items.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSuite, type Item } from '../src/index.js';
import type { McqPayload } from '../src/core/index.js';
import { contextStats, dialtomDatasetStats, readDialtomWindows } from '../src/studies/dialtom/index.js';
import { SHARED, SHARED_DATA } from './shared-dir.js';

const WINDOWS = join(SHARED_DATA, 'dialtom', 'original_data');

describe.skipIf(!SHARED)('DialToM turns per context (Table 2)', () => {
  it('the released items: turns and words per context counted from the files as the paper counts them', async () => {
    const load = async (s: string) => (await loadSuite(s, { data: SHARED_DATA, seed: 0 })).items as Item<McqPayload>[];
    const stats = dialtomDatasetStats(await load('dialtom-retrospective'), await load('dialtom-prospective'));
    const expected: Record<string, [number, string, string, string]> = {};
    for (const d of ['MI', 'ESC', 'PFG']) {
      const raw = JSON.parse(readFileSync(join(SHARED_DATA, 'dialtom', 'data', `${d}_retrospective_verified.json`), 'utf8')) as Array<{
        id: string;
        ctx: string[];
      }>;
      const windows = [...new Map(raw.map((r) => [r.id, r.ctx])).values()];
      const words = windows.reduce((s, c) => s + c.reduce((n, t) => n + t.split(/\s+/).filter(Boolean).length, 0), 0);
      const turns = windows.reduce((s, c) => s + Math.floor(c.length / 2), 0);
      expected[d] = [windows.length, (words / windows.length).toFixed(1), (turns / windows.length).toFixed(2), (words / turns).toFixed(1)];
    }
    const got = Object.fromEntries(
      ['MI', 'ESC', 'PFG'].map((d) => {
        const r = stats.find((s) => s.domain === d)!;
        return [d, [r.contexts, r.wordsPerContext.toFixed(1), r.turnsPerContext.toFixed(2), r.wordsPerTurn.toFixed(1)]];
      }),
    );
    expect(got).toEqual(expected);
    // The released subset: MI 93 windows of 5.99 turns (12.38 utterances), ESC 5.10, PFG 5.85.
    expect(got).toEqual({
      MI: [93, '192.3', '5.99', '32.1'],
      ESC: [100, '219.1', '5.10', '43.0'],
      PFG: [111, '205.3', '5.85', '35.1'],
    });
  });

  it.skipIf(!existsSync(WINDOWS))("the paper's Table 2 from the 5,943 windows the items were built from", () => {
    const rows = Object.fromEntries([...readDialtomWindows(WINDOWS)].map(([d, c]) => [d, contextStats(c)]));
    // Table 2: contexts 865 / 3,215 / 1,863; words per context 188.2 / 205.0 / 210.8; turns per context 5.3 / 4.5 / 5.4.
    expect([rows.MI!.contexts, rows.ESC!.contexts, rows.PFG!.contexts]).toEqual([865, 3215, 1863]);
    expect([rows.MI!.turnsPerContext.toFixed(1), rows.ESC!.turnsPerContext.toFixed(1), rows.PFG!.turnsPerContext.toFixed(1)]).toEqual([
      '5.3',
      '4.5',
      '5.4',
    ]);
    expect([rows.MI!.wordsPerContext.toFixed(1), rows.ESC!.wordsPerContext.toFixed(1)]).toEqual(['188.2', '205.0']);
    expect(rows.MI!.wordsPerTurn.toFixed(1)).toBe('35.5');
    // PFG's words per context (199.6) and hence words per turn are not the paper's 210.8 and 39.1.
    expect(rows.PFG!.wordsPerContext.toFixed(1)).toBe('199.6');
  });
});
