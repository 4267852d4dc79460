// Calibration by model teams (`mindscope embodied calibrate`): each task played with secrets
// private and with every secret revealed to every agent. The silent team (acts on what it knows,
// never messages) fails relay tasks with secrets private and passes them with every secret
// revealed; a task whose turn limit is too short for the physical goal fails for every team even
// so, and is flagged.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { episodeOptions, generateTasks, modelCalibration, readEnactTomTask, revealSecrets } from '../src/studies/enacttom/index.js';
import { evaluate, openStore } from '../src/index.js';
import { runCli } from './helpers/run-cli.js';

let dir: string;
let good: Array<Record<string, unknown>>;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ms-calibrate-'));
  good = generateTasks({
    n: 2,
    seed: 1,
    depth: 1,
    family: 'relay',
    agents: 2,
    pick: () => ({ knowledge: 'chain', parts: [], capabilities: 'full' }),
  }).map((t) => t.json);
  const bad = {
    ...generateTasks({
      n: 1,
      seed: 2,
      depth: 1,
      family: 'relay',
      agents: 2,
      pick: () => ({ knowledge: 'chain', parts: [], capabilities: 'full' }),
    })[0]!.json,
    task_id: 'bad-1',
    turn_limit: 1,
  };
  writeFileSync(join(dir, 'tasks.json'), JSON.stringify([...good, bad]));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('every secret revealed', () => {
  it("gives each agent every partner's secrets, named, and every fact they convey; rules stay each agent's own", () => {
    const task = readEnactTomTask(good[0]!, 'good[0]');
    const r = revealSecrets(task);
    const [a0, a1] = task.agents;
    expect(r.agents[0]!.secrets).toEqual([...a0!.secrets, ...a1!.secrets.map((s) => `${a1!.id}'s secret: ${s}`)]);
    expect(r.agents[1]!.secrets).toEqual([...a1!.secrets, ...a0!.secrets.map((s) => `${a0!.id}'s secret: ${s}`)]);
    const union = [...task.knowledge.private[a0!.id]!, ...task.knowledge.private[a1!.id]!];
    for (const a of task.agents) {
      expect(r.knowledge.private[a.id]).toHaveLength(new Set(union.map((f) => JSON.stringify(f))).size);
      for (const f of union) expect(r.knowledge.private[a.id]).toContainEqual(f);
    }
    expect(r.agents.map((a) => [a.barredRooms, a.messageBudget, a.messageTargets])).toEqual(
      task.agents.map((a) => [a.barredRooms, a.messageBudget, a.messageTargets]),
    );
    expect(revealSecrets(task)).toBe(r);
  });

  it('reads options.episode and names a wrong key or value', () => {
    expect(episodeOptions(undefined)).toEqual({ secrets: 'private' });
    expect(episodeOptions({ episode: { secrets: 'revealed' } })).toEqual({ secrets: 'revealed' });
    expect(() => episodeOptions({ episode: { secret: 'revealed' } })).toThrow('options.episode.secret: unknown option (known: secrets)');
    expect(() => episodeOptions({ episode: { secrets: 'all' } })).toThrow('options.episode.secrets must be private or revealed, got "all"');
  });
});

describe('embodied calibrate', () => {
  it('flags the task no team passes with every secret revealed; the silent team passes relay tasks only so', async () => {
    const db = join(dir, 'c.db');
    const args = ['embodied', 'calibrate', join(dir, 'tasks.json'), '--model', 'agent:planner', '--model', 'agent:silent', '--trials', '2'];
    const r = await runCli([...args, '--db', db, '--out', join(dir, 'kept.json'), '--flagged', join(dir, 'flagged.json'), '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const c = JSON.parse(r.stdout);
    expect(c.flagged).toEqual(['bad-1']);
    const pass = (taskId: string, subject: string) => {
      const t = c.tasks.find((x: { taskId: string }) => x.taskId === taskId).teams.find((x: { subject: string }) => x.subject === subject);
      return [t.private.passed, t.private.runs, t.revealed.passed, t.revealed.runs, t.failsRevealed];
    };
    for (const t of good) {
      expect(pass(String(t.task_id), 'agent:planner')).toEqual([2, 2, 2, 2, false]);
      expect(pass(String(t.task_id), 'agent:silent')).toEqual([0, 2, 2, 2, false]);
    }
    expect(pass('bad-1', 'agent:planner')).toEqual([0, 2, 0, 2, true]);
    expect(pass('bad-1', 'agent:silent')).toEqual([0, 2, 0, 2, true]);
    expect(c.teams).toEqual([
      { subject: 'agent:planner', tasks: 3, privateRate: 4 / 6, revealedRate: 4 / 6, failsRevealed: 1 },
      { subject: 'agent:silent', tasks: 3, privateRate: 0, revealedRate: 4 / 6, failsRevealed: 1 },
    ]);
    expect(JSON.parse(readFileSync(join(dir, 'kept.json'), 'utf8')).map((t: { task_id: string }) => t.task_id)).toEqual(
      good.map((t) => t.task_id),
    );
    expect(JSON.parse(readFileSync(join(dir, 'flagged.json'), 'utf8')).map((t: { taskId: string }) => t.taskId)).toEqual(['bad-1']);
    // The revealed run's episodes say so, and their agents read their partners' secrets.
    const store = await openStore(db);
    try {
      const runs = await store.listRuns();
      expect(runs.map((x) => x.name).sort()).toEqual(['calibration: every secret revealed', 'calibration: secrets private']);
      const again = await modelCalibration(store, c.privateRunId, c.revealedRunId);
      expect(again.flagged).toEqual(['bad-1']);
      await expect(modelCalibration(store, c.revealedRunId, c.privateRunId)).rejects.toThrow(
        `run ${c.privateRunId} was not run with every secret revealed`,
      );
      const rows = [];
      for await (const row of store.responses(c.revealedRunId)) rows.push(row);
      const key = { runId: c.revealedRunId, subjectId: rows[0]!.subjectId, suite: 'enacttom', itemId: rows[0]!.itemId, replicate: 0 };
      const system = (await store.transcript(key))!.transcript.calls[0]!.messages![0]!.content as string;
      expect(system).toMatch(/agent_\d's secret: /);
    } finally {
      await store.close();
    }
    // The same command continues the same two runs; the text form tabulates the verdicts.
    const text = await runCli([...args, '--db', db]);
    expect(text.stdout).toContain(`runs: ${c.privateRunId} (secrets private), ${c.revealedRunId} (every secret revealed)`);
    expect(text.stdout).toMatch(/bad-1 +agent:silent +0\/2 +0\/2 +flagged: fails even with every secret revealed/);
    expect(text.stdout).toMatch(/agent:silent +3 +0\.0 +66\.7 +1/);
    expect(text.stdout).toContain('1 of 3 task(s) flagged: bad-1');
  });

  it('the condition is a run option any run can take, for any team', async () => {
    const store = await openStore(join(dir, 'o.db'));
    try {
      const spec = { suites: ['enacttom'], data: join(dir, 'tasks.json'), models: ['team:agent:planner+agent:silent'], limit: 1 };
      const priv = await evaluate(spec, { store });
      const rev = await evaluate({ ...spec, options: { episode: { secrets: 'revealed' } } }, { store });
      expect(rev.runId).not.toBe(priv.runId);
      const c = await modelCalibration(store, priv.runId, rev.runId);
      // The silent member (agent_1) never says what its secret holds: the team fails with secrets
      // private and passes once every secret is revealed.
      expect(c.tasks.map((t) => [t.taskId, t.teams[0]!.private.passed, t.teams[0]!.revealed.passed])).toEqual([[good[0]!.task_id, 0, 1]]);
      await expect(evaluate({ ...spec, options: { episode: { secrets: 'shared' } } }, { store })).rejects.toThrow(
        'options.episode.secrets must be private or revealed',
      );
    } finally {
      await store.close();
    }
  });
});
