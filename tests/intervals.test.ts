// Intervals over items: the design-effect Wilson interval of clustered proportions (accuracy
// and StoryTurn rates with replicates) and Newcombe's paired interval (compare), against reference values computed
// independently (tests/fixtures/vectors/generated/intervals/make_intervals.py, scipy) and a published
// worked example, and as properties: an interval contains its estimate or says why not, has
// positive width, and does not depend on the order of items or of subjects.

import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accuracyTable, comparePaired, type AccuracyCell, type PairedCell } from '../src/analysis/index.js';
import { accuracyTextTable } from '../src/report/index.js';
import { clusteredWilsonInterval, newcombePairedInterval, wilsonInterval } from '../src/stats/index.js';
import type { ResponseMatrix, ResponseRow } from '../src/store/index.js';
import { storyTurnMetrics, type StoredStory } from '../src/studies/storyturn/index.js';

const vectors = JSON.parse(
  readFileSync(join(__dirname, 'fixtures', 'vectors', 'generated', 'intervals', 'intervals.expected.json'), 'utf8'),
);
const close = (actual: number, expected: number, tol = 1e-12) => expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tol);
const RUNS = { seed: 42, numRuns: 300 };
/** Equal as numbers, 0 and -0 alike (a mirrored 0 is -0). */
const same = (actual: number, expected: number) => expect(actual + 0).toBe(expected + 0);

describe('clusteredWilsonInterval', () => {
  it('matches the reference computation for both weightings', () => {
    for (const v of vectors.clustered) {
      for (const weighting of ['cluster', 'trial'] as const) {
        const ci = clusteredWilsonInterval(v.clusters, { weighting });
        const e = v[weighting];
        for (const k of ['estimate', 'lower', 'upper', 'effectiveN'] as const) close(ci[k], e[k]);
      }
    }
  });

  const clusters = fc.array(
    fc.integer({ min: 1, max: 5 }).chain((trials) => fc.record({ sum: fc.integer({ min: 0, max: trials }), trials: fc.constant(trials) })),
    { minLength: 1, maxLength: 30 },
  );

  it('contains its estimate with positive width, between the widths of one trial per cluster and of independent trials', () => {
    fc.assert(
      fc.property(clusters, fc.constantFrom('cluster' as const, 'trial' as const), (cs, weighting) => {
        const ci = clusteredWilsonInterval(cs, { weighting });
        expect(ci.lower).toBeLessThanOrEqual(ci.estimate);
        expect(ci.upper).toBeGreaterThanOrEqual(ci.estimate);
        expect(ci.upper).toBeGreaterThan(ci.lower);
        expect(ci.note).toBeUndefined();
        expect(ci.lower).toBeGreaterThanOrEqual(0);
        expect(ci.upper).toBeLessThanOrEqual(1);
        const trials = cs.reduce((s, c) => s + c.trials, 0);
        expect(ci.effectiveN).toBeGreaterThanOrEqual(
          weighting === 'cluster' ? cs.length - 1e-9 : trials ** 2 / cs.reduce((s, c) => s + c.trials ** 2, 0) - 1e-9,
        );
        expect(ci.effectiveN).toBeLessThanOrEqual(trials + 1e-9);
      }),
      RUNS,
    );
  });

  it('does not depend on the order of the clusters', () => {
    fc.assert(
      fc.property(
        clusters.chain((cs) => fc.tuple(fc.constant(cs), fc.shuffledSubarray(cs, { minLength: cs.length, maxLength: cs.length }))),
        ([cs, shuffled]) => {
          for (const weighting of ['cluster', 'trial'] as const) {
            const a = clusteredWilsonInterval(cs, { weighting });
            const b = clusteredWilsonInterval(shuffled, { weighting });
            for (const k of ['estimate', 'lower', 'upper', 'effectiveN'] as const) close(b[k], a[k]);
          }
        },
      ),
      RUNS,
    );
  });

  it('is the Wilson interval with one trial per cluster, for 0/1 and for fractional scores', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(0, 1), fc.double({ min: 0, max: 1, noNaN: true })), { minLength: 1, maxLength: 40 }),
        (scores) => {
          const ci = clusteredWilsonInterval(scores.map((sum) => ({ sum, trials: 1 })));
          const w = wilsonInterval(
            scores.reduce((s, x) => s + x, 0),
            scores.length,
          );
          expect(ci.estimate).toBe(w.estimate);
          // The plain interval's bounds exactly, but where rounding leaves an estimate of 0 or 1 a hair outside them.
          expect(ci.lower).toBe(Math.min(w.lower, w.estimate));
          expect(ci.upper).toBe(Math.max(w.upper, w.estimate));
          expect(ci).toMatchObject({ effectiveN: scores.length, method: 'wilson' });
        },
      ),
      RUNS,
    );
  });

  it('replicates that repeat the same 0/1 answer give the interval of one trial per item', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(0, 1), { minLength: 1, maxLength: 30 }), fc.integer({ min: 2, max: 6 }), (answers, k) => {
        const once = clusteredWilsonInterval(answers.map((a) => ({ sum: a, trials: 1 })));
        const repeated = clusteredWilsonInterval(answers.map((a) => ({ sum: a * k, trials: k })));
        close(repeated.lower, once.lower);
        close(repeated.upper, once.upper);
        close(repeated.effectiveN, answers.length);
      }),
      RUNS,
    );
  });

  it('scores outside [0, 1]: the normal interval of item means, and a note where no item varies', () => {
    const varied = clusteredWilsonInterval([
      { sum: 4, trials: 2 },
      { sum: 6, trials: 2 },
      { sum: 3, trials: 1 },
    ]);
    // Item means 2, 3, 3: mean 8/3, sd sqrt(1/3), half-width z * sd / sqrt(3) = z / 3.
    expect(varied).toMatchObject({ estimate: 8 / 3, method: 'normal', effectiveN: 3 });
    close(varied.lower, 8 / 3 - 1.959963984540054 / 3);
    close(varied.upper, 8 / 3 + 1.959963984540054 / 3);
    expect(varied.note).toBeUndefined();
    expect(
      clusteredWilsonInterval([
        { sum: 4, trials: 2 },
        { sum: 2, trials: 1 },
      ]),
    ).toMatchObject({
      estimate: 2,
      lower: 2,
      upper: 2,
      note: 'no item varies: every item has the same mean score',
    });
    expect(clusteredWilsonInterval([{ sum: 5, trials: 2 }]).note).toBe('one item: the spread between items cannot be estimated');
    expect(clusteredWilsonInterval([]).note).toBe('no trials');
  });
});

describe('newcombePairedInterval', () => {
  it('matches the reference computation and the worked example of Fagerland, Lydersen & Laake', () => {
    for (const v of vectors.paired) {
      const ci = newcombePairedInterval(v.counts);
      close(ci.estimate, v.estimate);
      close(ci.lower, v.lower);
      close(ci.upper, v.upper);
    }
    // Statistical Analysis of Contingency Tables (2017), Chapter 8: complete response before and
    // after consolidation therapy (Cavo et al., 2012), Newcombe square-and-add: -0.0621 (-0.1186 to -0.0046).
    const cavo = newcombePairedInterval({ both: 59, onlyFirst: 6, onlySecond: 16, neither: 80 });
    expect(cavo.estimate.toFixed(4)).toBe('-0.0621');
    expect(cavo.lower.toFixed(4)).toBe('-0.1186');
    expect(cavo.upper.toFixed(4)).toBe('-0.0046');
  });

  const table = fc.record({
    both: fc.integer({ min: 0, max: 30 }),
    onlyFirst: fc.integer({ min: 0, max: 30 }),
    onlySecond: fc.integer({ min: 0, max: 30 }),
    neither: fc.integer({ min: 0, max: 30 }),
  });

  it('contains its estimate with positive width inside [-1, 1], and mirrors when the two are swapped', () => {
    fc.assert(
      fc.property(table, (t) => {
        const n = t.both + t.onlyFirst + t.onlySecond + t.neither;
        const ci = newcombePairedInterval(t);
        if (n === 0) {
          expect(ci.note).toBe('no units');
          return;
        }
        expect(ci.estimate).toBe((t.onlyFirst - t.onlySecond) / n);
        expect(ci.lower).toBeLessThanOrEqual(ci.estimate);
        expect(ci.upper).toBeGreaterThanOrEqual(ci.estimate);
        expect(ci.upper).toBeGreaterThan(ci.lower);
        expect(ci.lower).toBeGreaterThanOrEqual(-1);
        expect(ci.upper).toBeLessThanOrEqual(1);
        const swapped = newcombePairedInterval({ ...t, onlyFirst: t.onlySecond, onlySecond: t.onlyFirst });
        same(swapped.estimate, -ci.estimate);
        same(swapped.lower, -ci.upper);
        same(swapped.upper, -ci.lower);
      }),
      RUNS,
    );
  });
});

const CATEGORIES = ['belief', 'desire', 'knowledge'];

/** Scored rows: subjects x items x replicates (1 to 3 per item), each item in a category. */
const responseRows = fc
  .record({
    subjects: fc.integer({ min: 1, max: 3 }),
    items: fc.array(fc.record({ category: fc.constantFrom(...CATEGORIES), replicates: fc.integer({ min: 1, max: 3 }) }), {
      minLength: 1,
      maxLength: 10,
    }),
  })
  .chain(({ subjects, items }) => {
    const keys = Array.from({ length: subjects }, (_, s) =>
      items.flatMap((it, i) => Array.from({ length: it.replicates }, (_, r) => ({ s, i, r }))),
    );
    return fc.tuple(...keys.flat().map(() => fc.constantFrom(0, 1))).map((values) =>
      keys.flat().map(
        (k, j): ResponseRow => ({
          subjectId: `s${k.s}`,
          spec: `agent:s${k.s}`,
          suite: 'generated-tom',
          itemId: `item-${k.i}`,
          itemHash: `h${k.i}`,
          category: items[k.i]!.category,
          ability: null,
          replicate: k.r,
          value: values[j]!,
          parseFailed: false,
          meta: {},
        }),
      ),
    );
  });

const byKey = (cells: AccuracyCell[]) => new Map(cells.map((c) => [`${c.subject}\u0000${c.group}`, c]));

describe('accuracyTable intervals', () => {
  it('contain the accuracy with positive width, one trial per item giving the Wilson interval over items', () => {
    fc.assert(
      fc.property(responseRows, (rows) => {
        const t = accuracyTable(rows);
        for (const c of t.cells) {
          expect(c.lower).toBeLessThanOrEqual(c.accuracy);
          expect(c.upper).toBeGreaterThanOrEqual(c.accuracy);
          expect(c.upper).toBeGreaterThan(c.lower);
          expect(c.note).toBeUndefined();
          expect(c.effectiveN).toBeGreaterThanOrEqual(c.items - 1e-9);
          expect(c.effectiveN).toBeLessThanOrEqual(c.trials + 1e-9);
        }
        // Replicate 0 alone: one trial per item, the plain Wilson interval of the items right.
        const first = accuracyTable(rows.filter((r) => r.replicate === 0));
        for (const c of first.cells) {
          const w = wilsonInterval(c.accuracy * c.items, c.items);
          expect(c.method).toBe('wilson');
          close(c.lower, Math.min(w.lower, c.accuracy));
          close(c.upper, Math.max(w.upper, c.accuracy));
        }
      }),
      RUNS,
    );
  });

  it('do not depend on the order of the rows, so of items and of subjects', () => {
    fc.assert(
      fc.property(
        responseRows.chain((rows) =>
          fc.tuple(fc.constant(rows), fc.shuffledSubarray(rows, { minLength: rows.length, maxLength: rows.length })),
        ),
        ([rows, shuffled]) => {
          const a = accuracyTable(rows);
          const b = accuracyTable(shuffled);
          expect(b.subjects).toEqual(a.subjects);
          expect(b.groups).toEqual(a.groups);
          const bCells = byKey(b.cells);
          expect(bCells.size).toBe(a.cells.length);
          for (const c of a.cells) {
            const d = bCells.get(`${c.subject}\u0000${c.group}`)!;
            expect({ ...d, accuracy: 0, lower: 0, upper: 0, effectiveN: 0 }).toEqual({
              ...c,
              accuracy: 0,
              lower: 0,
              upper: 0,
              effectiveN: 0,
            });
            for (const k of ['accuracy', 'lower', 'upper', 'effectiveN'] as const) close(d[k], c[k]);
          }
        },
      ),
      RUNS,
    );
  });

  it('scores outside [0, 1] that do not vary get a zero-width interval that says why, in the text table too', () => {
    const rows = [0, 1, 2].map(
      (i): ResponseRow => ({
        subjectId: 's',
        spec: 'plugin:scaled',
        suite: 'x',
        itemId: `i${i}`,
        itemHash: `h${i}`,
        category: 'belief',
        ability: null,
        replicate: 0,
        value: 3,
        parseFailed: false,
        meta: {},
      }),
    );
    const t = accuracyTable(rows);
    expect(t.cells.find((c) => c.group === 'all')).toMatchObject({
      accuracy: 3,
      lower: 3,
      upper: 3,
      method: 'normal',
      note: 'no item varies: every item has the same mean score',
    });
    const text = accuracyTextTable(t);
    expect(text).toContain('[300.0, 300.0] **');
    expect(text).toContain('\n** no item varies: every item has the same mean score');
  });
});

/** A 0/1 matrix of subjects by items (some cells missing), items in categories. */
const matrices = fc
  .record({
    subjects: fc.integer({ min: 2, max: 3 }),
    items: fc.array(fc.constantFrom(...CATEGORIES), { minLength: 1, maxLength: 14 }),
  })
  .chain(({ subjects, items }) =>
    fc
      .array(fc.array(fc.constantFrom<number | null>(0, 1, 1, 0, null), { minLength: subjects, maxLength: subjects }), {
        minLength: items.length,
        maxLength: items.length,
      })
      .map(
        (cells): ResponseMatrix => ({
          subjects: Array.from({ length: subjects }, (_, s) => `agent:s${s}`),
          items: items.map((category, i) => ({ suite: 's', itemId: `i${i}`, category, originalLabel: '' })),
          cells,
        }),
      ),
  );

const cellKey = (c: PairedCell) => `${c.a}\u0000${c.b}\u0000${c.group}`;

describe('comparePaired intervals', () => {
  it('contain the difference with positive width, or say why there is none', () => {
    fc.assert(
      fc.property(matrices, (m) => {
        for (const c of comparePaired(m)) {
          if (c.n === 0) {
            expect(c.note).toBe('no item answered by both subjects');
            continue;
          }
          expect(c.note).toBeUndefined();
          close(c.difference, c.accuracyA - c.accuracyB);
          expect(c.lower).toBeLessThanOrEqual(c.difference);
          expect(c.upper).toBeGreaterThanOrEqual(c.difference);
          expect(c.upper).toBeGreaterThan(c.lower);
        }
      }),
      RUNS,
    );
  });

  it('do not depend on the order of items or of the matrix columns, and mirror when the pair is swapped', () => {
    fc.assert(
      fc.property(
        matrices.chain((m) =>
          fc.tuple(
            fc.constant(m),
            fc.shuffledSubarray(
              m.items.map((_, i) => i),
              { minLength: m.items.length, maxLength: m.items.length },
            ),
            fc.shuffledSubarray(
              m.subjects.map((_, i) => i),
              { minLength: m.subjects.length, maxLength: m.subjects.length },
            ),
          ),
        ),
        ([m, itemOrder, subjectOrder]) => {
          const base = comparePaired(m);
          const reordered: ResponseMatrix = {
            subjects: subjectOrder.map((s) => m.subjects[s]!),
            items: itemOrder.map((i) => m.items[i]!),
            cells: itemOrder.map((i) => subjectOrder.map((s) => m.cells[i]![s]!)),
          };
          // The same pairs in the same order: only the matrix's rows and columns moved.
          expect(comparePaired(reordered, { subjects: m.subjects })).toEqual(base);
          const [a, b] = m.subjects as [string, string];
          const forward = new Map(base.filter((c) => c.a === a && c.b === b).map((c) => [c.group, c]));
          for (const c of comparePaired(m, { subjects: [b, a] })) {
            const f = forward.get(c.group)!;
            expect(cellKey(c)).toBe(`${b}\u0000${a}\u0000${c.group}`);
            if (f.n === 0) continue;
            same(c.difference, -f.difference);
            same(c.lower, -f.upper);
            same(c.upper, -f.lower);
          }
        },
      ),
      RUNS,
    );
  });
});

describe('StoryTurn rates', () => {
  const story = (item: string, questions: boolean[]): StoredStory => ({
    subject: 'agent:x',
    item,
    scorer: 'exact',
    state: 'belief',
    category: 'belief',
    task: '-',
    setting: 'text-complete',
    withImages: false,
    correct: questions.every(Boolean),
    questions,
    why: questions.map(() => false),
    feedbackEvents: [],
  });

  it('count stories, not replicates or questions: 3 stories right twice with 2 questions each give the interval of 3', () => {
    const stories = ['s1', 's2', 's3'].flatMap((id) => [story(id, [true, true]), story(id, [true, true])]);
    const [m] = storyTurnMetrics(stories);
    const three = wilsonInterval(3, 3);
    expect(m!.stories).toMatchObject({ k: 6, n: 6, items: 3, rate: 1, upper: 1 });
    close(m!.stories.lower, three.lower);
    expect(m!.questions).toMatchObject({ k: 12, n: 12, items: 3, rate: 1 });
    close(m!.questions.lower, three.lower);
    // One trial per story and one question each: the Wilson interval of the stories, as before.
    const once = storyTurnMetrics(['s1', 's2', 's3', 's4'].map((id, i) => story(id, [i > 0])))[0]!;
    const w = wilsonInterval(3, 4);
    expect(once.stories).toMatchObject({ k: 3, n: 4, items: 4, lower: w.lower, upper: w.upper });
  });
});
