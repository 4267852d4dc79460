// DialToM re-analysis from published numbers: the paper's Table 3 rates (typed here) with the
// released item counts (loaded from ../shared/data) reproduce Table 19's chi-square and
// Cramer's V for every model and domain; Table 20's position counts reproduce its
// goodness-of-fit tests. Also: a stored run's DialToM results feed the same analyses.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadDialtom } from '../src/suites/index.js';
import { parseRateTable, positionalBias, retroProspectiveGap } from '../src/analysis/index.js';

const DATA = join(__dirname, '..', '..', 'shared', 'data');

// Table 3: retrospective MI, ESC, PFG; prospective MI, ESC, PFG (percent).
const TABLE3: Record<string, number[]> = {
  'Gemini 3 Pro': [97.71, 99.15, 98.78, 83.09, 80.46, 86.96],
  'GPT-5': [93.46, 95.2, 95.28, 14.71, 16.26, 16.85],
  'GPT-4.1': [93.14, 94.07, 94.4, 5.88, 12.81, 10.87],
  'GPT-OSS 120B': [75.49, 88.98, 85.25, 7.35, 15.76, 6.52],
  'Gemini 2.5 Pro': [92.48, 97.18, 94.99, 38.24, 29.06, 19.57],
  'Gemini 2.5 Flash': [94.77, 95.48, 94.4, 26.47, 25.12, 17.93],
  'Kimi K2': [92.16, 95.48, 93.22, 22.06, 25.62, 13.04],
  'DeepSeek V3': [96.73, 97.74, 98.82, 10.29, 11.82, 10.33],
  'Mistral 3.2 24B': [61.11, 68.64, 74.34, 5.88, 4.93, 7.6],
  'Mistral Nemo': [42.16, 52.26, 56.64, 6.62, 14.29, 5.44],
  'Qwen3 235B': [95.1, 97.18, 97.94, 17.65, 29.06, 17.93],
  'Llama 3.3 70B': [77.45, 84.75, 87.91, 18.42, 19.7, 7.07],
  'Llama 4 Maverick': [87.58, 87.57, 79.28, 9.56, 11.82, 5.6],
};

// Table 19: chi-square and V for MI, ESC, PFG.
const TABLE19: Record<string, number[]> = {
  'Gemini 3 Pro': [29.56, 0.259, 61.78, 0.333, 30.83, 0.243],
  'Gemini 2.5 Pro': [148.08, 0.579, 295.81, 0.729, 310.66, 0.771],
  'Gemini 2.5 Flash': [223.4, 0.711, 299.86, 0.734, 314.34, 0.775],
  'GPT-5': [270.48, 0.782, 356.98, 0.801, 331.87, 0.797],
  'GPT-4.1': [316.89, 0.847, 368.29, 0.813, 362.13, 0.832],
  'GPT-OSS 120B': [173.56, 0.627, 291.37, 0.723, 299.39, 0.757],
  'Kimi K2': [219.48, 0.705, 296.66, 0.73, 333.49, 0.799],
  'Qwen3 235B': [272.05, 0.785, 295.81, 0.729, 358.25, 0.828],
  'DeepSeek V3': [331.74, 0.866, 423.2, 0.872, 422.99, 0.899],
  'Mistral 3.2 24B': [114.26, 0.508, 208.73, 0.612, 209.82, 0.633],
  'Mistral Nemo': [53.74, 0.349, 77.04, 0.372, 129.75, 0.498],
  'Llama 4 Maverick': [244.15, 0.743, 305.2, 0.74, 258.86, 0.704],
  'Llama 3.3 70B': [133.65, 0.55, 226.78, 0.638, 320.01, 0.782],
};

const DOMAINS = ['MI', 'ESC', 'PFG'];

function itemCounts(): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const task of ['retrospective', 'prospective'] as const) {
    out[task] = {};
    for (const it of loadDialtom(DATA, task).items) out[task][String(it.meta.domain)] = (out[task][String(it.meta.domain)] ?? 0) + 1;
  }
  return out;
}

function ratesCsv(): string {
  const n = itemCounts();
  const lines = ['model,domain,task,correct_rate,items'];
  for (const [model, r] of Object.entries(TABLE3)) {
    DOMAINS.forEach((d, i) => {
      lines.push(`${model},${d},retrospective,${r[i]},${n.retrospective![d]}`);
      lines.push(`${model},${d},prospective,${r[3 + i]},${n.prospective![d]}`);
    });
  }
  return `${lines.join('\n')}\n`;
}

describe('DialToM Table 19 from Table 3', () => {
  it('uses the released item counts (MI 306/136, ESC 354/203, PFG 339/184)', () => {
    expect(itemCounts()).toEqual({ retrospective: { ESC: 354, MI: 306, PFG: 339 }, prospective: { ESC: 203, MI: 136, PFG: 184 } });
  });

  it('reproduces chi-square and Cramer V for every model and domain', () => {
    const gap = retroProspectiveGap(parseRateTable(ratesCsv(), 'table3.csv'));
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

  it('reproduces Table 20: positional bias per domain and pooled', () => {
    const r = positionalBias([
      { domain: 'MI', counts: [258, 194, 206, 242] },
      { domain: 'ESC', counts: [216, 270, 193, 221] },
      { domain: 'PFG', counts: [253, 215, 215, 217] },
    ]);
    expect(r.map((x) => [x.domain, x.chi2.toFixed(2), x.p.toFixed(4)])).toEqual([
      ['MI', '12.00', '0.0074'],
      ['ESC', '13.98', '0.0029'],
      ['PFG', '4.66', '0.1986'],
      ['pooled', '9.58', '0.0225'],
    ]);
  });

  it('the CLI reads rates and positions and names bad rows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dialtom-'));
    writeFileSync(join(dir, 'rates.csv'), ratesCsv());
    writeFileSync(join(dir, 'positions.csv'), 'domain,A,B,C,D\nMI,258,194,206,242\n');
    const bin = join(__dirname, '..', 'bin', 'mindscope.js');
    const r = spawnSync(
      process.execPath,
      [bin, 'analyze', 'dialtom', '--rates', join(dir, 'rates.csv'), '--positions', join(dir, 'positions.csv'), '--json'],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.gap).toHaveLength(39);
    expect(out.positions[0].chi2.toFixed(2)).toBe('12.00');
    writeFileSync(join(dir, 'bad.csv'), 'model,domain,task,correct_rate,items\nX,MI,retrospective,140,306\n');
    const bad = spawnSync(process.execPath, [bin, 'analyze', 'dialtom', '--rates', join(dir, 'bad.csv')], { encoding: 'utf8' });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/bad\.csv:2: correct_rate must be a percentage in \[0, 100\], not "140"/);
  });
});

describe('DialToM Table 14 (GPT-4o row) from the released inferences', () => {
  it('BLEU 9.44 and ROUGE-L 0.31 of the benchmark inferences against the human references', async () => {
    const { benchmarkInferences, inferenceOverlap, parseWrittenInferences } = await import('../src/analysis/index.js');
    const { readFileSync } = await import('node:fs');
    const refs = parseWrittenInferences(
      readFileSync(join(DATA, 'dialtom', 'data', 'written_inference.csv'), 'utf8'),
      'written_inference.csv',
    );
    expect(refs.size).toBe(300);
    const hyps = benchmarkInferences(JSON.parse(readFileSync(join(DATA, 'dialtom', 'data', 'combined_written_data.json'), 'utf8')));
    const r = inferenceOverlap(hyps, refs)[0]!;
    expect(r.units).toBe(300);
    expect(r.bleu.toFixed(2)).toBe('9.44');
    expect(r.rougeL.toFixed(2)).toBe('0.31');
  });
});

describe('DialToM analyses of stored runs and annotation files', () => {
  it('correctness per attribute, distractor clustering, the easy-hard gap, and no NaN for degenerate tables', async () => {
    const { evaluate } = await import('./helpers/evaluate.js');
    const { openStore } = await import('../src/index.js');
    const { dialtomRunResults, easyHardGap, retroProspectiveGap, summarizeAnnotations, crossDomainCorrelation } = await import(
      '../src/analysis/index.js'
    );
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dialtom-run-'));
    const store = openStore(join(dir, 'm.db'));
    try {
      await evaluate({
        store,
        suites: ['dialtom-retrospective', 'dialtom-prospective', 'dialtom-prospective-easy'],
        data: DATA,
        models: ['agent:first-option', 'agent:random', 'agent:answer-key'],
        limit: 40,
        runId: 'dt',
      });
      const r = dialtomRunResults(store, 'dt');
      const byModel = (m: string) => r.distractors.filter((d) => d.model === m);
      // Always the first option: when wrong, always the same distractor.
      expect(byModel('agent:first-option').every((d) => d.normalizedEntropy === 0)).toBe(true);
      expect(byModel('agent:random').every((d) => d.normalizedEntropy! > 0.8)).toBe(true);
      expect(r.cells.filter((c) => c.model === 'agent:answer-key').every((c) => c.rate === 1 && c.upper === 1)).toBe(true);
      expect(new Set(r.cells.map((c) => c.attribute)).size).toBeGreaterThan(4);
      const gap = retroProspectiveGap(r.rates);
      expect(gap.find((g) => g.model === 'agent:answer-key')).toMatchObject({ chi2: null, p: null, cramersV: null });
      expect(JSON.stringify(gap)).not.toMatch(/NaN/);
      expect(easyHardGap([1, 1, 1], [1, 1])).toMatchObject({ p: 1, rankBiserial: 0 });
    } finally {
      store.close();
    }
    // Annotations: three annotators, one unreliable; Dawid-Skene recovers the majority, AC1 below 1.
    const lines = ['item,annotator,label'];
    for (let i = 0; i < 20; i++) {
      const truth = i % 2 ? 'yes' : 'no';
      lines.push(`i${i},a1,${truth}`, `i${i},a2,${truth}`, `i${i},a3,${i % 3 === 0 ? 'yes' : 'no'}`);
    }
    const a = summarizeAnnotations(lines.join('\n'), 'ann.csv');
    expect(a).toMatchObject({ items: 20, annotators: 3 });
    expect(a.labels.filter((l, _i) => l.label === (Number(l.item.slice(1)) % 2 ? 'yes' : 'no')).length).toBe(20);
    expect(a.ac1).toBeGreaterThan(0.2);
    expect(a.ac1).toBeLessThan(1);
    expect(() => summarizeAnnotations('item,who,label\nx,y,z\n', 'ann.csv')).toThrow(/ann\.csv:1: no "annotator" column/);
    // Cross-domain agreement of Table 3's retrospective rates: models rank alike across domains.
    const cd = crossDomainCorrelation(parseRateTable(ratesCsv(), 'table3.csv'));
    expect(cd.filter((c) => c.task === 'retrospective').every((c) => c.models === 13 && c.pearson > 0.8)).toBe(true);
  });
});

describe('reasoning-trace injection', () => {
  it('masks every reference to an option', async () => {
    const { maskOptionReferences } = await import('../src/protocols/index.js');
    const options = [
      'I believe my friends will never calm down, no matter what.',
      'I believe spending time with Donna helps me stay out of trouble.',
    ];
    const r = maskOptionReferences(
      'The client says Donna calms him. So spending time with Donna helps me stay out of trouble, which is option B. (A) is wrong; the second option fits. B) is the answer.',
      options,
    );
    expect(r.masked).toBe(
      'The client says Donna calms him. So [MASK], which is option [MASK]. ([MASK]) is wrong; the [MASK] option fits. [MASK] is the answer.',
    );
    expect(r.masks).toBe(5);
  });

  it('injects the masked trace into the prompt over HTTP, and pairs runs for McNemar', async () => {
    const { evaluate } = await import('./helpers/evaluate.js');
    const { openStore } = await import('../src/index.js');

    const { traceEffect } = await import('../src/analysis/index.js');

    const { loadDialtom } = await import('../src/suites/index.js');
    const { startModelServer } = await import('./helpers/servers.js');
    const server = await startModelServer();
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-traces-'));
    const store = openStore(join(dir, 'm.db'));
    try {
      const items = loadDialtom(DATA, 'prospective').items.slice(0, 5);
      const answer = items[0]!.answer;
      writeFileSync(
        join(dir, 'traces.jsonl'),
        items
          .map((it) => JSON.stringify({ item_id: it.id, trace: `The speaker is hesitant. The right trajectory is: ${it.answer}` }))
          .join('\n'),
      );
      const model = `openai-compatible:${server.url}/v1#ok`;
      await evaluate({ store, suites: ['dialtom-prospective'], data: DATA, limit: 5, models: [model], runId: 'base' });
      await evaluate({
        store,
        suites: ['dialtom-prospective'],
        data: DATA,
        limit: 5,
        models: [model],
        tracesPath: join(dir, 'traces.jsonl'),
        runId: 'traced',
      });
      const bodies = (await server.stats()).bodies.map((b) => JSON.stringify(b.body));
      const traced = bodies.filter((b) => b.includes("A teacher's reasoning"));
      expect(traced).toHaveLength(5);
      expect(traced.every((b) => b.includes('The right trajectory is: [MASK]'))).toBe(true);
      expect(traced.some((b) => b.split('teacher')[1]!.split('Question')[0]!.includes(answer))).toBe(false);
      const effect = traceEffect(store, 'base', 'traced')[0]!;
      expect(effect).toMatchObject({
        items: 5,
        table: [
          [effect.table[0][0], 0],
          [0, effect.table[1][1]],
        ],
        pCorrected: 1,
        pExact: 1,
      });
    } finally {
      store.close();
      await server.stop();
    }
  });
});

describe('reasoning-trace masking leaks no label (issue 15, defect 1)', () => {
  const options = ['He feels relieved', 'He feels angry at his sister', 'She wants to leave', 'Nothing changes'];
  // Phrasings a teacher may use to name its pick; after masking, no option label may remain.
  const leaking = [
    'Answer: C',
    'So I pick C)',
    'I pick C.',
    'B is correct',
    'Options A and C are wrong',
    'The answer is **C**',
    'Final answer: (D)',
    'I think A, because A fits.',
    'Between A and B, A seems better.',
    'A is the best; I say A.',
    'I choose A',
    'answer: b',
    'option (c) is it',
    '答案：C',
    '答案是A',
    '（C）是对的',
    'Réponse : C',
    'Antwort: D.',
    'respuesta: «B»',
    '- **B**: the speaker is hesitant',
    'C) is right',
    'Not B, not D: A.',
  ];
  it.each(leaking)('masks every label in %j', async (phrase) => {
    const { maskOptionReferences } = await import('../src/protocols/index.js');
    const { masked, masks } = maskOptionReferences(phrase, options);
    expect(masks).toBeGreaterThan(0);
    // A capital A-D standing alone is a leaked label (the words left are the teacher's reasoning).
    expect(masked.replace(/\[MASK\]/g, '')).not.toMatch(/(?<![A-Za-z])[B-D](?![A-Za-z])/);
    expect(masked).not.toMatch(/(?<![A-Za-z])A(?![A-Za-z])(?!\s+(?:man|person|friend))/);
  });

  it('keeps the article "A" and the pronoun "I", and drops the last sentence on request', async () => {
    const { maskOptionReferences } = await import('../src/protocols/index.js');
    expect(maskOptionReferences('A man walks in. I think he is tired.', options).masked).toBe('A man walks in. I think he is tired.');
    const { masked } = maskOptionReferences('He is hesitant. He avoids the topic. So the answer is B.', options, true);
    expect(masked).toBe('He is hesitant. He avoids the topic.');
  });
});

describe('trace ids that match no item (issue 15, defect 1)', () => {
  it('reports unmatched ids and refuses a trace file that matches nothing', async () => {
    const { createMcqTask } = await import('../src/protocols/index.js');
    const item = (id: string) => ({
      suite: 's',
      id,
      category: 'belief' as const,
      payload: { context: '', question: 'q', options: ['x', 'y'], answerIndex: 0 },
      answer: 'x',
      meta: {},
    });
    const items = [item('i1'), item('i2')];
    const task = createMcqTask('s', items, {
      traces: new Map([
        ['i1', 't'],
        ['zz', 't'],
      ]),
    });
    expect(task.warnings).toEqual([
      'suite s: 1 of 2 items have a trace; the others run without one',
      'suite s: 1 trace id(s) match no item and are not used: zz',
    ]);
    expect(() => createMcqTask('s', items, { traces: new Map([['a', 't']]) })).toThrow(
      /none of the 1 trace ids matches an item of suite s/,
    );
  });
});

describe('easy-hard effect size in the paper convention (issue 15, defect 2)', () => {
  it("reproduces Table 22's sign: GPT-4.1 on MI, U 17,136 and r -0.853", async () => {
    const { easyHardGap } = await import('../src/analysis/index.js');
    // 136 MI items per set; all easy items right and 20 hard ones give U = 136 x (136 - 20/2) = 17,136.
    const easy = Array.from({ length: 136 }, () => 1);
    const hard = Array.from({ length: 136 }, (_, i) => (i < 20 ? 1 : 0));
    const g = easyHardGap(hard, easy);
    expect(g.u).toBe(17136);
    expect(g.rankBiserial.toFixed(3)).toBe('-0.853');
    expect(g.convention).toMatch(/negative when the easy set scores higher/);
  });
});
