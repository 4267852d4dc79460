// Evolution by failure ratio: a stored run whose failures follow a known pattern (the planner
// fails only the depth-3 joint-placement tasks, whose turn limit is cut to 1; the silent team
// fails everything) evolves a pool made of the failed settings once rho is above 0.5.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { evolutionPool, generateTasks } from '../src/studies/enacttom/index.js';
import { evaluate, openStore } from '../src/index.js';
import { runCli } from './helpers/run-cli.js';

describe('embodied evolve', () => {
  it('takes failure ratios over the judged subjects and shifts the next round toward the failed settings', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ms-evolve-'));
    const easy = generateTasks({ n: 4, seed: 1, depth: 1, family: 'relay', agents: 2 }).map((t) => t.json);
    const hard = generateTasks({ n: 4, seed: 2, depth: 3, family: 'joint-placement', agents: 3 }).map(
      (t): Record<string, unknown> => ({
        ...t.json,
        turn_limit: 1,
      }),
    );
    writeFileSync(join(dir, 'tasks.json'), JSON.stringify([...easy, ...hard]));
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate(
        { suites: ['enacttom'], data: join(dir, 'tasks.json'), models: ['agent:planner', 'agent:silent'], trials: 1 },
        { store, runId: 'round0' },
      );
      const pool = await evolutionPool(store, 'round0', 0.8);
      // Only reference agents ran, so both are judged: easy tasks fail for one of two (0.5), hard ones for both (1).
      expect(pool.judged).toEqual(['agent:planner', 'agent:silent']);
      const byId = new Map(pool.ratios.map((r) => [r.taskId, r.ratio]));
      for (const t of easy) expect(byId.get(t.task_id as string)).toBe(0.5);
      for (const t of hard) expect(byId.get(t.task_id as string)).toBe(1);
      expect(pool.failed).toHaveLength(4);
      expect(pool.failed.every((s) => s.depth === 3 && s.family === 'joint-placement')).toBe(true);
      expect((await evolutionPool(store, 'round0', 0.5)).failed).toHaveLength(8);
    } finally {
      await store.close();
    }
    const r = await runCli([
      'embodied',
      'evolve',
      '--db',
      join(dir, 'm.db'),
      '--from-run',
      'round0',
      '--out',
      join(dir, 'r1.json'),
      '--n',
      '6',
      '--failed-at',
      '0.8',
      '--json',
    ]);
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout);
    // rho 0.8 of six new tasks: round(4.8) = 5 seeded from the four failed tasks, one from a passed one.
    expect(out).toMatchObject({ runId: 'round0', rho: 0.8, failedAt: 0.8, fromFailed: 5 });
    expect(out.failedShare).toBeCloseTo(5 / 6, 12);
    expect(out.rounds[0].pool).toMatchObject({ tasks: 8, byDepth: { 1: 4, 3: 4 }, byFamily: { relay: 4, 'joint-placement': 4 } });
    expect(out.rounds[0].failed).toMatchObject({ tasks: 4, byDepth: { 3: 4 }, byAgents: { 3: 4 } });
    // The new round: five tasks take the failed settings (depth 3, joint placement), one a passed task's (depth 1, relay).
    expect(out.rounds[1].pool).toMatchObject({ tasks: 6, byDepth: { 1: 1, 3: 5 }, byFamily: { relay: 1, 'joint-placement': 5 } });
    const text = await runCli([
      'embodied',
      'evolve',
      '--db',
      join(dir, 'm.db'),
      '--out',
      join(dir, 'r1b.json'),
      '--n',
      '2',
      '--split',
      'hard',
    ]);
    // The default threshold 0.5: the easy tasks (one of two subjects failed) count as failed too.
    expect(text.stdout).toMatch(/8 of 8 task\(s\) failed \(ratio >= 0.5\); 2 of 2 new task\(s\) seeded from them \(rho 0.9\)/);
    expect(text.stdout).toMatch(/round 1 \(/);
    // Round 1 evaluated: the evolved (harder) pool; rounds reads both runs and draws the figure.
    const store1 = await openStore(join(dir, 'm.db'));
    try {
      await evaluate(
        { suites: ['enacttom'], data: join(dir, 'r1.json'), models: ['agent:planner', 'agent:silent'], trials: 1 },
        { store: store1, runId: 'round1' },
      );
    } finally {
      await store1.close();
    }
    const rounds = await runCli([
      'embodied',
      'rounds',
      'round0',
      'round1',
      '--db',
      join(dir, 'm.db'),
      '--chart',
      join(dir, 'rounds.svg'),
      '--json',
    ]);
    expect(rounds.stderr).toBe('');
    const rr = JSON.parse(rounds.stdout) as Array<{
      round: number;
      tasks: number;
      subjects: Array<{ subject: string; functional: number }>;
    }>;
    expect(rr.map((r) => [r.round, r.tasks])).toEqual([
      [0, 8],
      [1, 6],
    ]);
    // The planner solved the 4 easy tasks of round 0 (4/8) and all 6 evolved ones (their turn limits are calibrated again).
    expect(rr[0]!.subjects.find((s) => s.subject === 'agent:planner')!.functional).toBe(0.5);
    expect(rr[1]!.subjects.find((s) => s.subject === 'agent:planner')!.functional).toBe(1);
    expect(readFileSync(join(dir, 'rounds.svg'), 'utf8')).toMatch(/^<svg[\s\S]*Functional success over evolution rounds/);
    // Authoring seeded from a run's tasks is tested in embodied-author-agent.test.ts (--seeds-from-run).
    // The run report carries the depth figures.
    const rep = await runCli(['report', '--db', join(dir, 'm.db'), '--run-id', 'round0', '--out', join(dir, 'rep')]);
    expect(rep.code).toBe(0);
    const html = readFileSync(join(dir, 'rep', 'index.html'), 'utf8');
    expect(html).toContain('Functional success by ToM depth');
    expect(html).toContain('Literal − functional gap by ToM depth');
  }, 120_000);
});
