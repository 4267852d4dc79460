// The audit paper's Scenario A / B reading of stage 3 per category, reproduced from its Table 3,
// and the first factor's share of the common variance beside its share of the total (against
// psych: tests/fixtures/vectors/generated/cfa/common_share_psych.R).

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  auditMatrices,
  cellOutcome,
  commonShareOf,
  readMatrixCsv,
  scenarioVerdicts,
  simulatePanel,
  structureOf,
} from '../src/studies/audit/index.js';
import { correlationMatrix, paf } from '../src/stats/index.js';
import { runCli } from './helpers/run-cli.js';

const DIR = join(__dirname, 'fixtures', 'vectors', 'generated', 'cfa');

// The paper's Table 3: mean delta tau per pair and category; a star is a Holm-adjusted bootstrap
// CI excluding zero (here p 0.01), no star p 0.5.
const PAIRS: Array<[string, string]> = [
  ['ToMBench', 'ToMATO'],
  ['ToMBench', 'CogToM'],
  ['ToMATO', 'CogToM'],
];
const TABLE3: Record<string, Array<[number, boolean]>> = {
  Belief: [
    [0.025, true],
    [-0.007, false],
    [0.008, true],
  ],
  Intention: [
    [0.034, true],
    [0.022, true],
    [0.035, true],
  ],
  Desire: [
    [0.103, true],
    [0.108, true],
    [0.026, true],
  ],
  Emotion: [
    [0.056, true],
    [0.086, true],
    [0.036, true],
  ],
  Knowledge: [
    [0.113, true],
    [0.107, true],
    [0.026, true],
  ],
};
const table3Cells = Object.entries(TABLE3).flatMap(([category, cells]) =>
  cells.map(([meanDelta, star], k) => ({ pair: PAIRS[k]!, category, meanDelta, pHolm: star ? 0.01 : 0.5 })),
);

describe('Scenario A / B per category', () => {
  it("the paper's Table 3 reads Scenario A for four categories and mixed for Belief (ToMBench ~ CogToM gains nothing)", () => {
    const v = scenarioVerdicts(table3Cells);
    expect(v.map((x) => [x.category, x.verdict])).toEqual([
      ['Belief', 'mixed'],
      ['Intention', 'A'],
      ['Desire', 'A'],
      ['Emotion', 'A'],
      ['Knowledge', 'A'],
    ]);
    expect(v[0]!.reason).toBe('2 of 3 pairs gain; no significant change for ToMBench ~ CogToM');
    expect(v[0]!.pairs.map((p) => p.outcome)).toEqual(['gain', 'no change', 'gain']);
  });

  it('B when no pair gains (the divergence persists) or one reverses; a p that is a bound counts at alpha', () => {
    const cells = [
      { pair: PAIRS[0]!, category: 'x', meanDelta: 0.01, pHolm: 0.3 },
      { pair: PAIRS[1]!, category: 'x', meanDelta: -0.02, pHolm: 0.4 },
      { pair: PAIRS[0]!, category: 'y', meanDelta: 0.05, pHolm: 0.001 },
      { pair: PAIRS[1]!, category: 'y', meanDelta: -0.04, pHolm: 0.01 },
    ];
    const v = scenarioVerdicts(cells);
    expect(v.map((x) => x.verdict)).toEqual(['B', 'B']);
    expect(v[0]!.reason).toContain('no pair gains after filtering: the divergence persists');
    expect(v[1]!.reason).toBe('agreement falls after filtering (reversed) for ToMBench ~ CogToM');
    expect(cellOutcome({ meanDelta: 0.1, pHolm: 0.05, pHolmUpperBound: true })).toBe('gain');
    expect(cellOutcome({ meanDelta: 0.1, pHolm: 0.05 })).toBe('no change');
  });

  it('the audit and its CLI print a verdict per category', async () => {
    const panel = simulatePanel({
      models: 20,
      benchmarks: [
        { name: 'A', items: { belief: 40, desire: 40 } },
        { name: 'B', items: { belief: 40, desire: 40 } },
      ],
      structure: 'single',
      seed: 5,
    });
    const a = await auditMatrices(panel.matrices, {
      convergence: { iterations: 200 },
      crossFit: { iterations: 200, seeds: 2 },
      structure: 'pca',
    });
    expect(a.scenarios.map((s) => s.category)).toEqual(['belief', 'desire']);
    expect(a.scenarios).toEqual(scenarioVerdicts(a.crossFit.cells));
  });
});

describe("the first factor's share of the common variance", () => {
  it('is its squared loadings over the communalities; over the items, its share of the total', () => {
    const c = commonShareOf(
      [
        [0.8, 0.1],
        [0.6, -0.3],
        [0.5, 0.4],
      ],
      3,
    );
    expect(c.factors).toBe(2);
    expect(c.totalShare).toBeCloseTo((0.64 + 0.36 + 0.25) / 3, 12);
    expect(c.commonShare).toBeCloseTo(1.25 / (1.25 + 0.01 + 0.09 + 0.16), 12);
    expect(c.communality).toBeCloseTo(1.51 / 3, 12);
  });

  it("equals psych's Proportion Var and Proportion Explained of PA1 with one factor per category (240 models, 20 items, 5 categories)", async () => {
    const ref = JSON.parse(readFileSync(join(DIR, 'common_share_psych.json'), 'utf8'));
    const m = readMatrixCsv(join(DIR, ref.file));
    const items = m.items.map((it, i) => ({ category: it.category, responses: Uint8Array.from(m.cells[i]! as number[]) }));
    const s = structureOf('items', items, m.subjects.length, { iterations: 5 });
    expect(s.commonVariance!.factors).toBe(5);
    expect(s.commonVariance!.totalShare).toBeCloseTo(ref.proportion_var, 4);
    expect(s.commonVariance!.commonShare).toBeCloseTo(ref.proportion_explained, 4);
    expect(s.commonVariance!.communality).toBeCloseTo(ref.communality, 4);
    const cli = await runCli(['audit', '--matrix', `items=${join(DIR, ref.file)}`, '--bootstrap', '10', '--seeds', '1']);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/items +20 .* 17\.7% \/ 59\.5% \(5 factors\)/);
  });

  it('on wide data (items outnumber models) through principal axes on the Gram matrix, as the dense computation gives', () => {
    const panel = simulatePanel({
      models: 15,
      benchmarks: [{ name: 'A', items: { belief: 12, desire: 12 } }],
      structure: 'independent',
      seed: 2,
    });
    const m = panel.matrices[0]!.matrix;
    const items = m.items.map((it, i) => ({ category: it.category, responses: Uint8Array.from(m.cells[i]! as number[]) }));
    const s = structureOf('A', items, m.subjects.length, { iterations: 5 });
    expect(s.method).toBe('wide');
    const varying = items.filter((it) => it.responses.some((v) => v !== it.responses[0]));
    const rows = Array.from({ length: m.subjects.length }, (_, r) => varying.map((it) => it.responses[r]!));
    // The dense p x p principal axes (from squared multiple correlations), iterated to a tight
    // tolerance: the same fixed point as the wide path's (started from component communalities).
    const dense = commonShareOf(paf(correlationMatrix(rows), 2, { maxIter: 5000, minErr: 1e-9 }).loadings, varying.length);
    expect(s.commonVariance!.factors).toBe(2);
    expect(s.commonVariance!.commonShare).toBeCloseTo(dense.commonShare, 4);
    expect(s.commonVariance!.totalShare).toBeCloseTo(dense.totalShare, 4);
    expect(s.commonVariance!.commonShare).toBeCloseTo(0.7558, 3);
  });

  it('is not fitted, and says why, when there are as many categories as models (a stored run of reference agents)', () => {
    const panel = simulatePanel({
      models: 4,
      benchmarks: [{ name: 'A', items: { belief: 6, desire: 6, intention: 6, emotion: 6, knowledge: 6 } }],
      structure: 'independent',
      seed: 3,
    });
    const m = panel.matrices[0]!.matrix;
    const items = m.items.map((it, i) => ({ category: it.category, responses: Uint8Array.from(m.cells[i]! as number[]) }));
    const s = structureOf('A', items, m.subjects.length, { iterations: 5 });
    expect(s.commonVariance).toBeNull();
    expect(s.note).toMatch(/the share of common variance needs fewer categories \(5\) than models \(4\)/);
  });
});
