// A pool with the paper's splits: half standard (seeds failed at rho 0.8), half hard (0.9), the
// same seed giving the same pool, a manifest with each task's split, seed and difficulty; a run
// of the pool by the planner and silent teams gives the paper's Table 2 layout (standard and hard
// side by side); a pool seeded from a stored run takes its labels from the run's failures.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { difficultyRanks, kDepth, readEnactTomTasks, type DifficultyMeasures } from '../src/studies/enacttom/index.js';
import { runCli } from './helpers/run-cli.js';

const read = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('difficulty ranks', () => {
  it('average the mid-rank share of each measure over the set', () => {
    const m = (kDepth: number, agents: number): DifficultyMeasures => ({
      kDepth,
      minToMLevel: kDepth,
      agents,
      objects: 1,
      goalAtoms: 1,
      kNodes: kDepth,
      planRounds: 5,
      planSteps: 6,
      planMessages: 2,
      turnLimit: 10,
      messageBudget: null,
      mechanics: 1,
      restrictedGraph: false,
      barredRooms: 1,
      constrainedAgents: 0,
    });
    // kDepth and kNodes rank 0, 0.5, 1; agents 0.25, 0.25, 1; six more measures tie at 0.5.
    const r = difficultyRanks([m(1, 2), m(2, 2), m(3, 3)]);
    expect(r.map((x) => x.toFixed(4))).toEqual([(3.25 / 9).toFixed(4), (4.25 / 9).toFixed(4), (6 / 9).toFixed(4)]);
  });
});

describe('embodied pool and splits', () => {
  it('writes a reproducible pool with standard and hard splits; Table 2 from a run of it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ms-pool-'));
    const run = (...args: string[]) => runCli(args, { cwd: dir });
    const p = await run('embodied', 'pool', '--n', '6', '--seed', '5', '--out', 'pool', '--json');
    expect(p.stderr).toBe('');
    const m = JSON.parse(p.stdout);
    expect(m).toMatchObject({
      n: 6,
      seed: 5,
      rho: { standard: 0.8, hard: 0.9 },
      seeds: { tasks: 6, failed: 3, passed: 3 },
      // round(0.8 * 3) = 2 of the standard split's seeds failed, round(0.9 * 3) = 3 of the hard split's.
      splits: { standard: { tasks: 3, fromFailed: 2, fromPassed: 1 }, hard: { tasks: 3, fromFailed: 3, fromPassed: 0 } },
    });
    expect(m.labels).toMatch(/^difficulty rank: the harder half of a base round of 6 generated tasks \(seed 5\) failed$/);
    expect({ out: 'pool', ...read(join(dir, 'pool', 'manifest.json')) }).toEqual(m);
    const tasks = readEnactTomTasks(read(join(dir, 'pool', 'tasks.json')), 'tasks.json');
    expect(tasks.map((t) => t.id)).toEqual(m.tasks.map((e: { id: string }) => e.id));
    tasks.forEach((t, i) => {
      const e = m.tasks[i];
      expect(t.source.generator).toMatchObject({ split: e.split, seedTask: e.seedTask });
      expect(e.difficulty).toMatchObject({
        kDepth: kDepth(t.goal),
        minToMLevel: kDepth(t.goal),
        agents: t.agents.length,
        turnLimit: t.turnLimit,
      });
      expect(e.difficulty.planRounds * 2).toBe(t.turnLimit);
      expect(e.difficulty.rank).toBeGreaterThanOrEqual(0);
      expect(e.difficulty.rank).toBeLessThanOrEqual(1);
      // Hard tasks come from failed seeds only here; the seed is a task of the base round.
      if (e.split === 'hard') expect(e.seedFailed).toBe(true);
      expect(e.seedTask).toMatch(/^gen-5-000[0-5]$/);
    });
    expect(read(join(dir, 'pool', 'standard.json')).map((t: { task_id: string }) => t.task_id)).toEqual(
      m.tasks.filter((e: { split: string }) => e.split === 'standard').map((e: { id: string }) => e.id),
    );
    expect(read(join(dir, 'pool', 'hard.json'))).toHaveLength(3);
    // The same seed, the same pool.
    await run('embodied', 'pool', '--n', '6', '--seed', '5', '--out', 'again');
    expect(readFileSync(join(dir, 'again', 'tasks.json'), 'utf8')).toBe(readFileSync(join(dir, 'pool', 'tasks.json'), 'utf8'));
    expect(read(join(dir, 'again', 'manifest.json'))).toEqual(read(join(dir, 'pool', 'manifest.json')));

    const r = await run(
      'run',
      'enacttom',
      '--data',
      'pool/tasks.json',
      '--model',
      'agent:planner',
      'agent:silent',
      '--trials',
      '3',
      '--db',
      'm.db',
      '--run-id',
      'pool-run',
    );
    expect(r.code).toBe(0);
    const s = await run('embodied', 'splits', '--db', 'm.db', '--run-id', 'pool-run', '--json');
    expect(s.stderr).toBe('');
    const t2 = JSON.parse(s.stdout);
    expect(t2).toMatchObject({ runId: 'pool-run', k: 3, splits: ['standard', 'hard'], unassigned: 0 });
    const cell = (subject: string, scope: string, split: string) =>
      t2.rows.find((x: { subject: string; scope: string }) => x.subject === subject && x.scope === scope).splits[split];
    for (const split of ['standard', 'hard']) {
      expect(cell('agent:planner', 'overall', split)).toMatchObject({
        tasks: 3,
        runs: 9,
        functional: { avg: 1, se: 0, passAtK: 1, passHatK: 1 },
        literal: { avg: 1, passHatK: 1 },
      });
      // Silent acts on its own knowledge only (every task needs communication) but reports its partners well.
      expect(cell('agent:silent', 'overall', split)).toMatchObject({ tasks: 3, runs: 9, functional: { avg: 0, passAtK: 0, passHatK: 0 } });
      expect(t2.best[split].functional).toEqual(['agent:planner']);
      const coop = cell('agent:planner', 'cooperative', split);
      const mixed = cell('agent:planner', 'mixed', split);
      expect((coop?.tasks ?? 0) + (mixed?.tasks ?? 0)).toBe(3);
    }
    const text = await run('embodied', 'splits', '--db', 'm.db', '--run-id', 'pool-run');
    expect(text.stdout).toMatch(/^run pool-run: standard 3 task\(s\), hard 3 task\(s\)/);
    expect(text.stdout).toMatch(/subject +scope +standard func Avg +Pass@3 +Pass\^3 +standard lit Avg +Pass@3 +Pass\^3 +hard func Avg/);
    expect(text.stdout).toMatch(/agent:planner +overall +100\.0 ± 0\.0 \[\d+\.\d, 100\.0\] +100\.0 +100\.0 \*/);
    expect(text.stdout).toMatch(/agent:silent +overall +0\.0 ± 0\.0 \[0\.0, \d+\.\d\] +0\.0 +0\.0 /);

    // Seeds from the stored run: planner passes, silent fails every task, so each task's failure ratio is 0.5.
    const f = await run(
      'embodied',
      'pool',
      '--n',
      '4',
      '--seed',
      '6',
      '--out',
      'evolved',
      '--from-run',
      'pool-run',
      '--db',
      'm.db',
      '--json',
    );
    expect(f.stderr).toBe('');
    const fm = JSON.parse(f.stdout);
    expect(fm.labels).toBe('run pool-run: failed when the failure ratio across agent:planner, agent:silent is >= 0.5');
    expect(fm).toMatchObject({
      seeds: { tasks: 6, failed: 6, passed: 0 },
      splits: { standard: { fromFailed: 2 }, hard: { fromFailed: 2 } },
    });
    const seedIds = new Set(m.tasks.map((e: { id: string }) => e.id));
    for (const e of fm.tasks) expect(seedIds.has(e.seedTask)).toBe(true);
    const bad = await run('embodied', 'splits', '--db', 'm.db', '--run-id', 'nope');
    expect(bad.code).toBe(1);
  }, 120_000);
});
