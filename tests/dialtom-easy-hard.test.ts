// DialToM from published numbers: the easy-hard Mann-Whitney test (Table 22) from the paper's
// Tables 3 and 6 (the study's published-easy-hard table) or a rates file, and turns per context
// counted as the paper counts them (an exchange of one utterance of each speaker), from item
// sets and from the dialogue windows they were built from. The released data's numbers and the
// paper's Table 2 are checked in tests-shared/dialtom-turns.test.ts.

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contextStats, contextTurns, easyHardFromRates, PAPER_EASY_HARD, paperEasyHardRates } from '../src/studies/dialtom/index.js';
import { runCli } from './helpers/run-cli.js';

// Table 22's cells that Tables 3 and 6 do not give (the paper's own numbers disagree there).
const NOT_FROM_TABLES_3_AND_6 = [
  'GPT-5 MI',
  'GPT-5 ESC',
  'GPT-5 PFG',
  'GPT-OSS 120B MI',
  'GPT-OSS 120B ESC',
  'GPT-OSS 120B PFG',
  'Gemini 2.5 Pro PFG',
  'Kimi K2 PFG',
  'Llama 4 Maverick PFG',
  'Llama 3.3 70B MI',
  'Llama 3.3 70B ESC',
  'Llama 3.3 70B PFG',
];

describe('the easy-hard gap from published rates (Table 22)', () => {
  it("reproduces 24 of Table 22's 36 cells from Tables 3 and 6, each with p < 0.0001 as the paper reports", () => {
    const rows = easyHardFromRates(paperEasyHardRates(), true);
    expect(rows).toHaveLength(39);
    const gpt41 = rows.find((r) => r.model === 'GPT-4.1' && r.domain === 'MI')!;
    // 8 of 136 right on the hard set, 124 of 136 on the easy set: U = 124 x 128 + (124 x 8 + 12 x 128) / 2.
    expect(gpt41).toMatchObject({ rightHard: 8, rightEasy: 124, u: 17136, paper: { u: 17136, r: -0.853 }, reproduced: true });
    expect(gpt41.rankBiserial).toBeCloseTo(1 - (2 * 17136) / (136 * 136), 12);
    const reproduced = rows.filter((r) => r.reproduced);
    expect(reproduced).toHaveLength(24);
    for (const r of reproduced) {
      expect(r.u).toBe(r.paper!.u);
      expect(Math.abs(r.rankBiserial - r.paper!.r)).toBeLessThanOrEqual(0.001 + 1e-9);
      expect(r.p).toBeLessThan(0.0001);
    }
    expect(rows.filter((r) => r.reproduced === false).map((r) => `${r.model} ${r.domain}`)).toEqual(NOT_FROM_TABLES_3_AND_6);
    // Llama 3.1 8B has rates but no Table 22 row; its ESC and PFG r are the ends of the ranges the paper's text gives.
    const llama8 = rows.filter((r) => r.model === 'Llama 3.1 8B');
    expect(llama8.map((r) => r.reproduced)).toEqual([null, null, null]);
    expect(llama8.map((r) => r.rankBiserial.toFixed(3))).toEqual(['-0.684', '-0.498', '-0.397']);
    expect(PAPER_EASY_HARD).toHaveLength(39);
  });

  it('the CLI prints the paper comparison, and computes the test from a rates file', async () => {
    const paper = await runCli(['dialtom', 'easy-hard', '--json']);
    expect(paper.code, paper.stderr).toBe(0);
    const out = JSON.parse(paper.stdout);
    expect(out.source).toMatch(/arXiv:2604\.20443.*Table 22/);
    expect(out.rows.filter((r: { reproduced: boolean }) => r.reproduced)).toHaveLength(24);
    const text = await runCli(['dialtom', 'easy-hard']);
    expect(text.stdout).toMatch(/GPT-4\.1 +MI +5\.88 \(136\) +91\.18 \(136\) +17136\.0 .* -0\.853 +17136\.0 +-0\.853 +yes/);
    expect(text.stdout).toContain("24 of 36 of Table 22's cells reproduced (U equal, r within 0.001)");

    const dir = mkdtempSync(join(tmpdir(), 'mindscope-easy-hard-'));
    const file = join(dir, 'rates.csv');
    writeFileSync(file, 'model,domain,task,correct_rate,items\nm,X,prospective,20,10\nm,X,prospective-easy,80,10\nm,Y,prospective,50,4\n');
    const r = await runCli(['dialtom', 'easy-hard', '--rates', file, '--json']);
    expect(r.code, r.stderr).toBe(0);
    const [row] = JSON.parse(r.stdout).rows;
    // 2 of 10 right against 8 of 10: U = 8 x 8 + (8 x 2 + 2 x 8) / 2 = 80, r = 1 - 160/100.
    expect(row).toMatchObject({ model: 'm', domain: 'X', rightHard: 2, rightEasy: 8, u: 80, paper: null, reproduced: null });
    expect(row.rankBiserial).toBeCloseTo(-0.6, 12);
    // Normal approximation with ties (10 zeros, 10 ones) and continuity correction.
    const sigma = Math.sqrt(((10 * 10) / 12) * (21 - (2 * (10 ** 3 - 10)) / (20 * 19)));
    const z = (80 - 50 - 0.5) / sigma;
    expect(z).toBeCloseTo(2.5718, 3);
    expect(row.p).toBeCloseTo(0.010115, 5);
    expect(JSON.parse(r.stdout).rows).toHaveLength(1);
  });
});

describe('turns per context, as the paper counts them', () => {
  it('a turn is an exchange: floor(utterances / 2); words include the speaker label', async () => {
    expect([0, 1, 2, 3, 4, 11].map(contextTurns)).toEqual([0, 0, 1, 1, 2, 5]);
    const windows = {
      MI: [
        ['counselor: Hi there.', 'client: Hello.', 'counselor: How are you?'],
        ['counselor: Tell me more.', 'client: I drink a lot.', 'counselor: Okay.', 'client: Yes.'],
      ],
      ESC: [['supporter: Hi.', 'seeker: I am sad today.']],
    };
    // MI: words 3 + 2 + 4 and 4 + 5 + 2 + 2 = 22 over 2 windows; turns 1 and 2; utterances 3 and 4.
    expect(contextStats(windows.MI)).toEqual({
      contexts: 2,
      wordsPerContext: 11,
      turnsPerContext: 1.5,
      utterancesPerContext: 3.5,
      wordsPerTurn: 22 / 3,
    });
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-windows-'));
    for (const [domain, list] of Object.entries(windows)) {
      mkdirSync(join(dir, 'original_data', domain), { recursive: true });
      writeFileSync(
        join(dir, 'original_data', domain, 'data_0_50.json'),
        JSON.stringify(Object.fromEntries(list.map((ctx, i) => [`${i}, 0`, { ctx, options: {} }]))),
      );
    }
    const r = await runCli(['dialtom', 'stats', '--windows', dir, '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { domain: 'ESC', contexts: 1, wordsPerContext: 7, turnsPerContext: 1, utterancesPerContext: 2, wordsPerTurn: 7 },
      { domain: 'MI', contexts: 2, wordsPerContext: 11, turnsPerContext: 1.5, utterancesPerContext: 3.5, wordsPerTurn: 22 / 3 },
    ]);
    const text = await runCli(['dialtom', 'stats', '--windows', dir]);
    expect(text.stdout).toMatch(/MI +2 +11\.0 +1\.50 +3\.50 +7\.3/);
    expect(text.stdout).toContain('A turn is an exchange of one utterance of each speaker (floor(utterances / 2) per context)');
    writeFileSync(join(dir, 'original_data', 'MI', 'bad.json'), JSON.stringify({ '9, 0': { ctx: 'not a list' } }));
    const bad = await runCli(['dialtom', 'stats', '--windows', dir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad\.json: window "9, 0": "ctx" must be a list of "speaker: text" utterances/);
  });
});
