// Embodied success rates: beside the paper's binomial SE over runs, a 95% interval that counts
// tasks (a task's runs are not independent). Properties: it holds the rate, has width whenever
// a rate is not certain, equals Wilson over tasks with one run each, and k identical runs of
// every task give the interval of one run per task (replicates add no information then).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { episodeMetrics, type EpisodeTrial } from '../src/studies/enacttom/index.js';
import { wilsonInterval } from '../src/stats/index.js';

const trial = (taskId: string, replicate: number, functional: boolean): EpisodeTrial => ({
  subject: 's',
  taskId,
  replicate,
  category: 'cooperative',
  kDepth: 1,
  functional,
  literal: functional,
  probesCorrect: 1,
  probesTotal: 1,
});
const overall = (trials: EpisodeTrial[]) => episodeMetrics(trials, 1)[0]!.scopes.find((s) => s.scope === 'overall')!.functional;

const runs = fc.array(fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 12 });
const trialsOf = (tasks: boolean[][]) => tasks.flatMap((rs, t) => rs.map((ok, r) => trial(`t${t}`, r, ok)));

describe('embodied rates count tasks in their interval', () => {
  it('hold their rate, always with width (no rate over finite runs is certain)', () => {
    fc.assert(
      fc.property(runs, (tasks) => {
        const r = overall(trialsOf(tasks));
        expect(r.lower).toBeLessThanOrEqual(r.avg + 1e-12);
        expect(r.upper).toBeGreaterThanOrEqual(r.avg - 1e-12);
        expect(r.upper - r.lower).toBeGreaterThan(0);
      }),
      { seed: 42, numRuns: 300 },
    );
  });

  it('are Wilson over tasks with one run each, and k identical runs per task change nothing', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 1, maxLength: 20 }), fc.integer({ min: 2, max: 5 }), (outcomes, k) => {
        const one = overall(outcomes.map((ok, t) => trial(`t${t}`, 0, ok)));
        const w = wilsonInterval(outcomes.filter(Boolean).length, outcomes.length);
        expect(one.lower).toBeCloseTo(w.lower, 12);
        expect(one.upper).toBeCloseTo(w.upper, 12);
        const repeated = overall(outcomes.flatMap((ok, t) => Array.from({ length: k }, (_, r) => trial(`t${t}`, r, ok))));
        expect(repeated.lower).toBeCloseTo(one.lower, 12);
        expect(repeated.upper).toBeCloseTo(one.upper, 12);
        // The paper's SE over runs shrinks with k though nothing new was learnt.
        if (one.se > 0) expect(repeated.se).toBeLessThan(one.se);
      }),
      { seed: 42, numRuns: 200 },
    );
  });
});
