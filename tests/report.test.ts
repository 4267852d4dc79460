// The HTML report stays readable with 30 subjects: short distinct labels, one row per subject,
// charts that grow with the subject count; and the intervals it shows.

import { describe, expect, it } from 'vitest';
import type { ResponseRow } from '../src/store/index.js';
import { accuracyTable } from '../src/analysis/index.js';
import { displayNames, renderHtmlReport, shortSubjectName } from '../src/report/index.js';

function rows(subjects: string[], items: number): ResponseRow[] {
  const out: ResponseRow[] = [];
  subjects.forEach((spec, s) => {
    for (let i = 0; i < items; i++) {
      out.push({
        subjectId: `s${s}`,
        spec,
        suite: 'generated-tom',
        itemId: `i${i}`,
        itemHash: `h${i}`,
        category: i % 2 ? 'belief' : 'knowledge',
        ability: null,
        replicate: 0,
        value: (i + s) % 3 === 0 ? 0 : 1,
        parseFailed: i === 0,
        meta: {},
      });
    }
  });
  return out;
}

describe('report', () => {
  it('shortens subject names without merging distinct subjects', () => {
    expect(shortSubjectName('openai-compatible:http://10.0.0.5:8000/v1#Qwen2.5-7B')).toBe('Qwen2.5-7B @10.0.0.5:8000');
    expect(shortSubjectName('llamacpp:/models/a/tiny.gguf')).toBe('llamacpp:tiny.gguf');
    const names = displayNames(['openai-compatible:http://a:1/v1#m', 'openai-compatible:http://a:1/v2#m', 'agent:oracle']);
    expect([...names.values()]).toEqual(['openai-compatible:http://a:1/v1#m', 'openai-compatible:http://a:1/v2#m', 'agent:oracle']);
  });

  it('renders 30 subjects with intervals, n and parse failures', async () => {
    const subjects = Array.from({ length: 30 }, (_, i) => `openai-compatible:http://127.0.0.1:8000/v1#model-${String(i).padStart(2, '0')}`);
    const byCategory = accuracyTable(rows(subjects, 40));
    const cell = byCategory.cells.find((c) => c.subject === subjects[0] && c.group === 'all')!;
    expect(cell.items).toBe(40);
    expect(cell.parseFailures).toBe(1);
    expect(cell.lower).toBeLessThan(cell.accuracy);
    expect(cell.upper).toBeGreaterThan(cell.accuracy);
    const html = await renderHtmlReport({
      runId: 'r',
      createdAt: 'now',
      config: {},
      byCategory,
      bySuite: accuracyTable(rows(subjects, 40), 'suite'),
      byAbility: accuracyTable(rows(subjects, 40), 'ability'),
      usage: [],
      status: [],
      failures: [],
    });
    for (let i = 0; i < 30; i++) expect(html).toContain(`model-${String(i).padStart(2, '0')} @127.0.0.1:8000`);
    const heights = [...html.matchAll(/<svg[^>]* height="(\d+)"/g)].map((m) => Number(m[1]));
    expect(heights).toHaveLength(2);
    heights.forEach((h) => expect(h).toBeGreaterThan(30 * 20));
    expect(html).not.toMatch(/NaN/);
  });
});
