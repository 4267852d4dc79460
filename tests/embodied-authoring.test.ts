// The judge council of `mindscope embodied author` (the author agent and its tools are tested in
// embodied-author-agent.test.ts): scores, thresholds and required fixes.

import { describe, expect, it } from 'vitest';
import { councilPrompt, councilVerdict, parseCouncilReply, taskCriteria } from '../src/studies/enacttom/index.js';

describe('judge council verdict', () => {
  it('needs every judge to reach a mean of 0.65 with no criterion below 0.5', () => {
    const all = (v: number) => JSON.stringify(Object.fromEntries(taskCriteria('cooperative').map((c) => [c, v])));
    const good = parseCouncilReply('a', all(0.7), 'cooperative');
    expect(councilVerdict([good, good], 'cooperative').approved).toBe(true);
    // Mean 0.6 < 0.65 with every criterion above the floor.
    const lowMean = parseCouncilReply('b', all(0.6), 'cooperative');
    expect(councilVerdict([good, lowMean], 'cooperative').reasons).toEqual(['judge b: mean 0.60 < 0.65']);
    // High mean but one criterion under the floor.
    const floor = parseCouncilReply('c', JSON.stringify({ ...JSON.parse(all(0.9)), mechanic_utilization: 0.4 }), 'cooperative');
    const v = councilVerdict([good, floor], 'cooperative');
    expect(v.approved).toBe(false);
    expect(v.reasons).toEqual(['judge c: mechanic_utilization 0.40 < 0.5']);
    expect(v.means.c).toBeCloseTo((0.9 * 7 + 0.4) / 8, 10);
    // Mixed tasks are scored on subgoal tension instead of interdependence.
    expect(parseCouncilReply('d', all(0.9), 'mixed').error).toBe('no score in [0, 1] for subgoal_tension');
    expect(parseCouncilReply('e', 'no json here', 'mixed').error).toMatch(/unreadable reply/);
  });

  it('asks for a required fix per criterion below the floor and reads fixes as a list, a criterion map or not at all', () => {
    expect(councilPrompt('{}', 'cooperative')).toContain('For every criterion you score below 0.5, give a short required fix');
    const scores = { ...Object.fromEntries(taskCriteria('cooperative').map((c) => [c, 0.8])), secret_quality: 0.3 };
    const keyed = parseCouncilReply(
      'j',
      JSON.stringify({ ...scores, fixes: { secret_quality: 'add a fact', goal_relevance: '' } }),
      'cooperative',
    );
    expect(keyed.fixes).toEqual(['secret_quality: add a fact']);
    expect(councilVerdict([keyed], 'cooperative').reasons).toContain('judge j fixes: secret_quality: add a fact');
    expect(parseCouncilReply('j', JSON.stringify({ ...scores, fixes: ['x'] }), 'cooperative').fixes).toEqual(['x']);
    const none = parseCouncilReply('j', JSON.stringify(scores), 'cooperative');
    expect(none.error).toBeUndefined();
    expect(none.fixes).toEqual([]);
  });
});
