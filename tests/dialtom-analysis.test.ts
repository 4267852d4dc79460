// DialToM re-analysis from published numbers: the paper's Table 3 rates with its item counts
// (tests/helpers/dialtom-paper.ts) reproduce Table 19's chi-square and Cramer's V for every model
// and domain; Table 20's position counts reproduce its goodness-of-fit tests. Also: a stored
// run's DialToM results feed the same analyses. The same tables from the released files' own
// counts, and Table 14, are checked in tests-shared/dialtom-tables.test.ts.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRateTable, positionalBias, retroProspectiveGap } from '../src/studies/dialtom/index.js';
import { DOMAINS, itemCounts, PUBLISHED_ITEMS, ratesCsv as ratesCsvOf, TABLE19 } from './helpers/dialtom-paper.js';
import { runCli } from './helpers/run-cli.js';

// Small subsets of the released files (tests/fixtures/data/README.md).
const DATA = join(__dirname, 'fixtures', 'data');
const ratesCsv = () => ratesCsvOf(PUBLISHED_ITEMS);

describe('DialToM Table 19 from Table 3 and the published item counts', () => {
  it('counts items per task and domain from the files (the fixture holds four of each)', () => {
    expect(itemCounts(DATA)).toEqual({ retrospective: { ESC: 4, MI: 4, PFG: 4 }, prospective: { ESC: 4, MI: 4, PFG: 4 } });
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

  it('the CLI reads rates and positions and names bad rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dialtom-'));
    writeFileSync(join(dir, 'rates.csv'), ratesCsv());
    writeFileSync(join(dir, 'positions.csv'), 'domain,A,B,C,D\nMI,258,194,206,242\n');
    const r = await runCli(['analyze', 'dialtom', '--rates', join(dir, 'rates.csv'), '--positions', join(dir, 'positions.csv'), '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.gap).toHaveLength(39);
    expect(out.positions[0].chi2.toFixed(2)).toBe('12.00');
    writeFileSync(join(dir, 'bad.csv'), 'model,domain,task,correct_rate,items\nX,MI,retrospective,140,306\n');
    const bad = await runCli(['analyze', 'dialtom', '--rates', join(dir, 'bad.csv')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/bad\.csv:2: correct_rate must be a percentage in \[0, 100\], not "140"/);
  });
});

describe('DialToM inference overlap (Table 14 on the full files: tests-shared)', () => {
  it('scores each benchmark inference against its three human references; unreferenced ones are counted apart', async () => {
    const { benchmarkInferences, inferenceOverlap, parseWrittenInferences } = await import('../src/studies/dialtom/index.js');
    const { readFileSync } = await import('node:fs');
    const refs = parseWrittenInferences(
      readFileSync(join(DATA, 'dialtom', 'data', 'written_inference.csv'), 'utf8'),
      'written_inference.csv',
    );
    // The fixture keeps the 33 reference rows of its units: three workers per (dataset, state, unit).
    expect(refs.size).toBe(11);
    expect([...refs.values()].every((r) => r.references.length === 3)).toBe(true);
    const hyps = benchmarkInferences(JSON.parse(readFileSync(join(DATA, 'dialtom', 'data', 'combined_written_data.json'), 'utf8')));
    // Six states for each of the six units kept.
    expect(hyps).toHaveLength(36);
    const r = inferenceOverlap(hyps, refs)[0]!;
    expect(r).toMatchObject({ model: 'benchmark', units: 11, unmatched: 25 });
    expect(r.byState.reduce((n, s) => n + s.units, 0)).toBe(11);
    expect(r.bleu).toBeGreaterThan(0);
    expect(r.bleu).toBeLessThan(100);
    expect(r.rougeL).toBeGreaterThan(0);
    expect(r.rougeL).toBeLessThan(1);
    // Inferences written as one of the references score higher on both measures.
    const copied = [...refs.values()].map((x) => ({ model: 'copy', ...x.unit, inference: x.references[0]! }));
    const c = inferenceOverlap(copied, refs)[0]!;
    expect(c.units).toBe(11);
    expect(c.bleu).toBeGreaterThan(r.bleu);
    expect(c.rougeL).toBeGreaterThan(r.rougeL);
  });
});

describe('DialToM analyses of stored runs and annotation files', () => {
  it('correctness per attribute, distractor clustering, the easy-hard gap, and no NaN for degenerate tables', async () => {
    const { evaluate } = await import('./helpers/evaluate.js');
    const { openStore } = await import('../src/index.js');
    const { dialtomRunResults, easyHardGap, retroProspectiveGap, summarizeAnnotations, crossDomainCorrelation } = await import(
      '../src/studies/dialtom/index.js'
    );
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-dialtom-run-'));
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate({
        store,
        suites: ['dialtom-retrospective', 'dialtom-prospective', 'dialtom-prospective-easy'],
        data: DATA,
        models: ['agent:first-option', 'agent:random', 'agent:answer-key'],
        limit: 40,
        // The fixture holds four items per domain: eight trials give each cell enough wrong picks.
        trials: 8,
        runId: 'dt',
      });
      const r = await dialtomRunResults(store, 'dt');
      const byModel = (m: string) => r.distractors.filter((d) => d.model === m);
      // Always the first option: when wrong, always the same distractor (items it gets right have no wrong answers).
      const first = byModel('agent:first-option').filter((d) => d.normalizedEntropy !== null);
      expect(first.length).toBeGreaterThan(0);
      expect(first.every((d) => d.normalizedEntropy === 0)).toBe(true);
      // Random picks spread over the distractors (eight replicates per item).
      expect(
        byModel('agent:random')
          .filter((d) => d.domain === 'pooled')
          .every((d) => d.normalizedEntropy! > 0.7),
      ).toBe(true);
      expect(r.cells.filter((c) => c.model === 'agent:answer-key').every((c) => c.rate === 1 && c.upper === 1)).toBe(true);
      expect(new Set(r.cells.map((c) => c.attribute)).size).toBeGreaterThan(4);
      const gap = retroProspectiveGap(r.rates);
      expect(gap.find((g) => g.model === 'agent:answer-key')).toMatchObject({ chi2: null, p: null, cramersV: null });
      expect(JSON.stringify(gap)).not.toMatch(/NaN/);
      expect(easyHardGap([1, 1, 1], [1, 1])).toMatchObject({ p: 1, rankBiserial: 0 });
    } finally {
      await store.close();
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

    const { loadDialtom } = await import('../src/studies/dialtom/index.js');
    const { startModelServer } = await import('./helpers/servers.js');
    const server = await startModelServer();
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-traces-'));
    const store = await openStore(join(dir, 'm.db'));
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
      const effect = (await traceEffect(store, 'base', 'traced'))[0]!;
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
      await store.close();
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
    const { easyHardGap } = await import('../src/studies/dialtom/index.js');
    // 136 MI items per set; all easy items right and 20 hard ones give U = 136 x (136 - 20/2) = 17,136.
    const easy = Array.from({ length: 136 }, () => 1);
    const hard = Array.from({ length: 136 }, (_, i) => (i < 20 ? 1 : 0));
    const g = easyHardGap(hard, easy);
    expect(g.u).toBe(17136);
    expect(g.rankBiserial.toFixed(3)).toBe('-0.853');
    expect(g.convention).toMatch(/negative when the easy set scores higher/);
  });
});
