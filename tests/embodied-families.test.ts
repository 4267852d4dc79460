// The generator's task families: each verified at its depth (1 and 4), with budgets twice the
// calibrated plan's; every mechanic reachable in a 300-task pool; the pool's composition.
import { describe, expect, it } from 'vitest';
import { createRng } from '../src/core/index.js';
import {
  draftTask,
  formatPoolComposition,
  generateTask,
  poolComposition,
  poolSettings,
  TASK_FAMILIES,
  MECHANICS,
  readEnactTomTask,
} from '../src/studies/enacttom/index.js';

describe('task families', () => {
  for (const family of TASK_FAMILIES) {
    it(`${family}: verified at depth 1 (3 agents) and depth 4 (2 agents); budgets are twice the baseline plan`, () => {
      for (const [depth, agents] of [
        [1, 3],
        [4, 2],
      ] as const) {
        const g = generateTask({ family, depth, agents, category: 'cooperative' }, createRng(`fam:${family}:${depth}`), `t-${family}`);
        expect(g.verify).toMatchObject({
          kDepth: depth,
          minToMLevel: depth,
          solvable: true,
          calibrates: true,
          needsCommunication: true,
          trivialK: [],
        });
        expect(g.task.agents).toHaveLength(agents);
        expect(g.task.source.generator).toMatchObject({ family });
        // The turn limit is twice the rounds of the plan verified with open limits; the final plan fits it.
        expect(g.task.turnLimit % 2).toBe(0);
        expect(g.verify.rounds!).toBeLessThanOrEqual(g.task.turnLimit);
        for (const a of g.task.agents) if (a.messageBudget !== null) expect(a.messageBudget % 2).toBe(0);
      }
    }, 60_000);
  }

  it('mixed-motive tasks carry a private goal that conflicts with the shared goal', () => {
    const g = generateTask({ family: 'mixed-motive', depth: 2, agents: 3, category: 'cooperative' }, createRng('mm'), 'mm');
    expect(g.task.category).toBe('mixed');
    const tempted = g.task.agents.find((a) => a.privateGoal)!;
    expect(tempted.privateGoal).toMatchObject({ op: 'pred', name: 'is_closed' });
    const box = tempted.privateGoal!.op === 'pred' ? tempted.privateGoal!.args[0] : '';
    expect(JSON.stringify(g.task.goal)).toContain(`"is_open","args":["${box}"]`);
  });

  it('a 300-task pool reaches every mechanic, family, depth 1-4 and 2-6 agents; composition counts add up', () => {
    const rng = createRng('pool');
    const tasks = Array.from({ length: 300 }, (_, i) => readEnactTomTask(draftTask(poolSettings(i), rng, `p${i}`), `p${i}`));
    const c = poolComposition(tasks);
    expect(c.tasks).toBe(300);
    expect(Object.keys(c.byMechanic).sort()).toEqual([...MECHANICS].sort());
    expect(Object.keys(c.byFamily).sort()).toEqual([...TASK_FAMILIES].sort());
    expect(Object.keys(c.byDepth)).toEqual(['1', '2', '3', '4']);
    expect(Object.keys(c.byAgents)).toEqual(['2', '3', '4', '5', '6']);
    expect(Object.values(c.byCategory).reduce((a, b) => a + b, 0)).toBe(300);
    expect(Object.values(c.byAgents).reduce((a, b) => a + b, 0)).toBe(300);
    expect(c.byCategory.mixed).toBeGreaterThan(50);
    expect(formatPoolComposition(c)).toMatch(/^300 tasks; mean \d\.\d agents/);
  });
});
