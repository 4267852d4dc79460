// DialToM tables from the released files (MINDSCOPE_SHARED/data/dialtom): the item counts the
// loaders find are the paper's, Table 3's rates with those counts reproduce Table 19's
// chi-square and Cramer's V, and the benchmark's inferences against the human references give
// Table 14's GPT-4o row. tests/dialtom-analysis.test.ts checks the same analyses on the
// paper's typed counts and on fixtures.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  benchmarkInferences,
  inferenceOverlap,
  parseRateTable,
  parseWrittenInferences,
  retroProspectiveGap,
} from '../src/studies/dialtom/index.js';
import { DOMAINS, itemCounts, PUBLISHED_ITEMS, ratesCsv, TABLE19 } from '../tests/helpers/dialtom-paper.js';
import { SHARED, SHARED_DATA } from './shared-dir.js';

describe.skipIf(!SHARED)('DialToM Table 19 from Table 3 and the released items', () => {
  it('uses the released item counts (MI 306/136, ESC 354/203, PFG 339/184)', () => {
    expect(itemCounts(SHARED_DATA)).toEqual({
      retrospective: { ESC: 354, MI: 306, PFG: 339 },
      prospective: { ESC: 203, MI: 136, PFG: 184 },
    });
    expect(itemCounts(SHARED_DATA)).toEqual(PUBLISHED_ITEMS);
  });

  it('reproduces chi-square and Cramer V for every model and domain', () => {
    const gap = retroProspectiveGap(parseRateTable(ratesCsv(itemCounts(SHARED_DATA)), 'table3.csv'));
    expect(gap).toHaveLength(39);
    const g3 = gap.find((g) => g.model === 'Gemini 3 Pro' && g.domain === 'MI')!;
    expect(g3.chi2!.toFixed(2)).toBe('29.56');
    expect(g3.cramersV!.toFixed(3)).toBe('0.259');
    const misses: string[] = [];
    for (const [model, t] of Object.entries(TABLE19)) {
      DOMAINS.forEach((d, i) => {
        const cell = gap.find((g) => g.model === model && g.domain === d)!;
        // Table 3's rates are rounded to 0.01 percentage points; counts are round(rate x items).
        if (Math.abs(cell.chi2! - t[2 * i]!) > 0.02 || Math.abs(cell.cramersV! - t[2 * i + 1]!) > 0.0015)
          misses.push(`${model} ${d}: ${cell.chi2!.toFixed(2)}/${cell.cramersV!.toFixed(3)} vs ${t[2 * i]}/${t[2 * i + 1]}`);
        expect(cell.p).toBeLessThan(0.001);
      });
    }
    expect(misses).toEqual([]);
  });
});

describe.skipIf(!SHARED)('DialToM Table 14 (GPT-4o row) from the released inferences', () => {
  it('BLEU 9.44 and ROUGE-L 0.31 of the benchmark inferences against the human references', () => {
    const data = join(SHARED_DATA, 'dialtom', 'data');
    const refs = parseWrittenInferences(readFileSync(join(data, 'written_inference.csv'), 'utf8'), 'written_inference.csv');
    expect(refs.size).toBe(300);
    const hyps = benchmarkInferences(JSON.parse(readFileSync(join(data, 'combined_written_data.json'), 'utf8')));
    const r = inferenceOverlap(hyps, refs)[0]!;
    expect(r.units).toBe(300);
    expect(r.bleu.toFixed(2)).toBe('9.44');
    expect(r.rougeL.toFixed(2)).toBe('0.31');
  });
});
