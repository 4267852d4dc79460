// The generator's breadth: goal shapes (canonical up to renaming and argument order), per-agent
// action sets and secrets, 1-6 objects, knowledge chains of every depth, fans, conjunctions,
// disjunctive and conditional goals, no parameter constant, every task verified at its depth;
// the same seed gives the same tasks; `embodied diversity` prints the report.
import { describe, expect, it } from 'vitest';
import { entityKinds, formatDiversity, generateTasks, goalShape, parseGoal, taskDiversity } from '../src/studies/enacttom/index.js';
import { runCli } from './helpers/run-cli.js';

const kinds = (name: string) => (name.startsWith('agent_') ? 'a' : /^(cup|bowl|vase)_/.test(name) ? 'o' : 'f') as 'a' | 'o' | 'f';

describe('goal shapes', () => {
  it('are the same up to renaming and the order of and/or arguments, and keep who is who', () => {
    const a = goalShape(
      parseGoal('(and (is_on_top cup_1 table_2) (is_open box_3) (K agent_0 (K agent_1 (is_on_top cup_1 table_2))))'),
      kinds,
    );
    const b = goalShape(
      parseGoal('(and (K agent_2 (K agent_0 (is_on_top bowl_7 shelf_8))) (and (is_open chest_9) (is_on_top bowl_7 shelf_8)))'),
      kinds,
    );
    expect(a).toBe(b);
    expect(a).toBe('(and (K a1 (K a2 (is_on_top o1 f1))) (is_on_top o1 f1) (is_open f2))');
    // The same agent twice in a chain, a chain over another atom, a disjunction: other shapes.
    const shapes = [
      '(and (is_on_top cup_1 table_2) (K agent_0 (K agent_1 (K agent_0 (is_on_top cup_1 table_2)))))',
      '(and (is_on_top cup_1 table_2) (K agent_0 (K agent_1 (K agent_2 (is_on_top cup_1 table_2)))))',
      '(and (is_on_top cup_1 table_2) (K agent_0 (is_on_top vase_4 table_2)))',
      '(and (is_on_top cup_1 table_2) (K agent_0 (is_on_top cup_1 table_2)))',
      '(and (or (is_on_top cup_1 table_2) (is_inside cup_1 box_3)) (K agent_0 (is_open box_3)))',
      '(and (or (is_inside cup_1 box_3) (is_on_top cup_1 table_2)) (K agent_1 (is_open box_3)))',
    ].map((g) => goalShape(parseGoal(g), kinds));
    expect(new Set(shapes).size).toBe(5);
    expect(shapes[4]).toBe(shapes[5]);
  });
});

describe('generated tasks are structurally varied', () => {
  const generated = generateTasks({ n: 48, seed: 7 });
  const report = taskDiversity(generated.map((g) => g.task));

  it('each verified solvable at exactly its depth, calibrated, needing communication', () => {
    for (const g of generated) {
      expect(g.verify).toMatchObject({ solvable: true, calibrates: true, needsCommunication: true, trivialK: [] });
      expect(g.verify.minToMLevel).toBe((g.json.generator as { depth: number }).depth);
      expect(g.verify.rounds!).toBeLessThanOrEqual(g.task.turnLimit);
    }
  });

  it('no parameter is constant; goal shapes, objects, actions, secrets and knowledge all vary', () => {
    const p = report.parameters;
    expect(report.tasks).toBe(48);
    expect(report.constant).toEqual([]);
    // 100 shapes in 500 tasks is the target; a smaller set has proportionally more.
    expect(report.distinctGoalShapes).toBeGreaterThanOrEqual(40);
    expect(Object.keys(p.objects!)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(Object.keys(p['K-depth']!)).toEqual(['1', '2', '3', '4']);
    expect(Object.keys(p['chain depth']!)).toEqual(['1', '2', '3', '4']);
    expect(Object.keys(p.family!)).toHaveLength(6);
    expect(Object.keys(p['knowledge shape']!)).toEqual(['chain', 'fan', 'multi', 'nested']);
    expect(Object.keys(p['chain subject']!)).toEqual(expect.arrayContaining(['conjunction', 'placement', 'state']));
    expect(p['fan-out']!['2']).toBeGreaterThan(0);
    expect(p.chains!['2']).toBeGreaterThan(0);
    expect(p.disjunctions!['1']).toBeGreaterThan(0);
    expect(p.conditionals!['1']).toBeGreaterThan(0);
    expect(Object.keys(p['actions per agent']!).length).toBeGreaterThanOrEqual(4);
    expect(Object.keys(p['secrets per agent']!).length).toBeGreaterThanOrEqual(5);
    expect(Object.keys(p['distinct action sets']!).length).toBeGreaterThanOrEqual(3);
    // Every agent with a constraint or a part in the task has a secret saying so.
    expect(report.agentsWithoutSecret / report.agents).toBeLessThan(0.03);
    for (const g of generated)
      for (const a of g.task.agents) {
        if (a.barredRooms.length) expect(a.secrets).toContain(`You may not enter ${a.barredRooms.join(', ')}.`);
        if (a.messageBudget !== null) expect(a.secrets).toContain(`You can send at most ${a.messageBudget} messages in the whole task.`);
        if (!a.actions.includes('Communicate'))
          expect(a.secrets).toContain('You cannot send messages; you only read what others send you.');
        if (!a.actions.includes('Pick')) expect(a.secrets).toContain('You cannot pick up or place objects.');
      }
    expect(formatDiversity(report)).toMatch(/^48 tasks, \d+ agents; \d+ distinct goal shapes; agents without a secret: \d+/);
    expect(formatDiversity(report)).toContain('constant: none');
  });

  it('the same seed gives the same tasks; another seed other ones', () => {
    const again = generateTasks({ n: 4, seed: 7 });
    expect(again.map((g) => g.json)).toEqual(generated.slice(0, 4).map((g) => g.json));
    const other = generateTasks({ n: 4, seed: 8 });
    expect(other.map((g) => goalShape(g.task.goal, entityKinds(g.task)))).not.toEqual(
      generated.slice(0, 4).map((g) => goalShape(g.task.goal, entityKinds(g.task))),
    );
  });

  it('embodied diversity prints the report, as text or JSON', async () => {
    const r = await runCli(['embodied', 'diversity', '--n', '6', '--seed', '7', '--json']);
    expect(r.stderr).toBe('');
    const json = JSON.parse(r.stdout);
    const six = taskDiversity(generated.slice(0, 6).map((g) => g.task));
    expect(json).toMatchObject({ tasks: 6, distinctGoalShapes: six.distinctGoalShapes, parameters: six.parameters });
    const text = await runCli(['embodied', 'diversity', '--n', '6', '--seed', '7', '--top', '3']);
    expect(text.stdout).toContain(`6 tasks, ${six.agents} agents; ${six.distinctGoalShapes} distinct goal shapes`);
    expect(text.stdout.match(/^ {2,}\d+ {2}\(and /gm)).toHaveLength(3);
  }, 60_000);
});
