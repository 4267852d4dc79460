// Pass@k and Pass^k over k planned attempts per task, a missing attempt (failed, or never run) a
// non-pass, with the estimate over the attempts made beside them and the scope flagged partial:
// worked by hand on a small plan, then on real runs through the runner: one interrupted part-way
// (three tasks, --trials 3, stopped after four episodes), one whose every trial fails at a local
// HTTP server, and one of a single trial read with --k 3; the CLI prints the starred figures
// and the table over the attempts made.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluate, openStore } from '../src/index.js';
import { episodeMetrics, generateTasks, passOverPlanned, summarizeEpisodes, type EpisodeTrial } from '../src/studies/enacttom/index.js';
import { runCli } from './helpers/run-cli.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

describe('Pass@k over k planned attempts', () => {
  it('counts a missing attempt as a non-pass and gives the estimate over the attempts made', () => {
    // Task a: 3 of 3 made, all pass. Task b: replicates 0 and 2 made (pass, fail), 1 failed.
    // Task c: replicate 0 made (pass). One more task planned that no trial reached.
    const r = passOverPlanned(
      [
        { taskId: 'a', attempts: [0, 1, 2].map((replicate) => ({ replicate, pass: true })) },
        {
          taskId: 'b',
          attempts: [
            { replicate: 0, pass: true },
            { replicate: 2, pass: false },
          ],
        },
        { taskId: 'c', attempts: [{ replicate: 0, pass: true }] },
      ],
      3,
      { unstarted: 1, failed: (t, rep) => t === 'b' && rep === 1 },
    );
    expect(r).toEqual({
      passAtK: 3 / 4,
      passHatK: 1 / 4,
      avgPlanned: 5 / 12,
      attempts: { k: 3, tasks: 4, planned: 12, made: 6, failed: 1, notRun: 5 },
      partial: true,
      overAttemptsMade: { passAtK: 1, passHatK: 2 / 3, tasks: 3, attempts: 6 },
    });
    // Replicates past k are not among the planned attempts; a complete plan is not partial.
    const full = passOverPlanned([{ taskId: 'a', attempts: [0, 1, 2, 3].map((replicate) => ({ replicate, pass: replicate < 3 })) }], 3);
    expect(full).toMatchObject({ passAtK: 1, passHatK: 1, partial: false, attempts: { planned: 3, made: 3, notRun: 0 } });
    expect(() => passOverPlanned([], 0)).toThrow(/k must be a whole number >= 1, got 0/);
  });

  it('episodeMetrics without a stored plan counts the tasks its episodes ran, k attempts each', () => {
    const t = (taskId: string, replicate: number, functional: boolean): EpisodeTrial => ({
      subject: 's',
      taskId,
      replicate,
      category: 'cooperative',
      kDepth: 1,
      functional,
      literal: false,
      probesCorrect: 0,
      probesTotal: 1,
    });
    const overall = episodeMetrics([t('a', 0, true), t('a', 1, true), t('a', 2, true), t('b', 0, true)], 3)[0]!.scopes[0]!;
    expect(overall.functional).toMatchObject({ avg: 1, passAtK: 1, passHatK: 0.5, partial: true });
    expect(overall.functional.overAttemptsMade).toEqual({ passAtK: 1, passHatK: 1, tasks: 2, attempts: 4 });
    expect(overall.literal).toMatchObject({ avg: 0, passAtK: 0, passHatK: 0, partial: true });
  });
});

describe('partial runs through the runner', () => {
  let dir: string;
  let server: ModelServer;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mindscope-embodied-partial-'));
    server = await startModelServer();
    writeFileSync(join(dir, 'tasks.json'), JSON.stringify(generateTasks({ n: 3, seed: 21, depth: 1, agents: 2 }).map((g) => g.json)));
  });
  afterAll(async () => server.stop());

  it('a run interrupted part-way: missing attempts are non-passes, the rest is over the attempts made', async () => {
    const db = join(dir, 'cut.db');
    const store = await openStore(db);
    try {
      // Stopped after four episodes: task 1 has its three, task 2 one, task 3 none.
      const stop = new AbortController();
      let done = 0;
      const r = await evaluate(
        { suites: ['enacttom'], data: join(dir, 'tasks.json'), models: ['agent:planner'], trials: 3 },
        {
          store,
          runId: 'cut',
          concurrency: 1,
          signal: stop.signal,
          onEvent: (e) => {
            if (e.type === 'done' && ++done === 4) stop.abort();
          },
        },
      );
      expect(r.interrupted).toBe(true);
      const { metrics, trialsPlanned } = await summarizeEpisodes(store, 'cut', 3);
      expect(trialsPlanned).toBe(3);
      const overall = metrics[0]!.scopes.find((s) => s.scope === 'overall')!;
      expect(overall).toMatchObject({ tasks: 2, runs: 4 });
      expect(overall.functional).toMatchObject({
        avg: 1,
        passAtK: 2 / 3,
        passHatK: 1 / 3,
        avgPlanned: 4 / 9,
        partial: true,
        attempts: { k: 3, tasks: 3, planned: 9, made: 4, failed: 0, notRun: 5 },
        overAttemptsMade: { passAtK: 1, passHatK: 1, tasks: 2, attempts: 4 },
      });
      expect(overall.literal).toMatchObject({ passAtK: 2 / 3, passHatK: 1 / 3, partial: true });
    } finally {
      await store.close();
    }
    const text = await runCli(['embodied', 'results', '--db', db, '--run-id', 'cut']);
    expect(text.code).toBe(0);
    const row = text.stdout.split('\n').find((l) => /agent:planner\s+overall/.test(l))!;
    expect(row).toMatch(/66\.7\*\s+33\.3\*/);
    expect(text.stdout).toContain('* partial: some of the 3 planned attempts per task are missing');
    expect(text.stdout).toMatch(/agent:planner\s+overall\s+4 of 9\s+0\s+5\s+2 of 3\s+100\.0\s+100\.0\s+100\.0\s+100\.0/);
    const json = JSON.parse((await runCli(['embodied', 'results', '--db', db, '--run-id', 'cut', '--json'])).stdout);
    expect(json).toMatchObject({ runId: 'cut', k: 3, trialsPlanned: 3 });
    expect(json.metrics[0].scopes[0].functional.attempts).toEqual({ k: 3, tasks: 3, planned: 9, made: 4, failed: 0, notRun: 5 });
    // Resumed to the end, the same command reports a complete run: nothing starred.
    const resumed = await openStore(db);
    try {
      await evaluate(
        { suites: ['enacttom'], data: join(dir, 'tasks.json'), models: ['agent:planner'], trials: 3 },
        { store: resumed, runId: 'cut' },
      );
    } finally {
      await resumed.close();
    }
    const complete = await runCli(['embodied', 'results', '--db', db, '--run-id', 'cut']);
    expect(complete.stdout.split('\n').find((l) => /agent:planner\s+overall/.test(l))).toMatch(/100\.0\s+100\.0\s+/);
    expect(complete.stdout).not.toContain('partial');
  }, 120_000);

  it('failed trials count as non-passes and are told apart from attempts never run', async () => {
    const db = join(dir, 'failed.db');
    const store = await openStore(db);
    try {
      const r = await evaluate(
        {
          suites: ['enacttom'],
          data: join(dir, 'tasks.json'),
          models: [`openai-compatible:${server.url}/v1#always-500`],
          trials: 3,
          limit: 2,
        },
        { store, runId: 'failed', retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } },
      );
      expect(r.failed).toBe(6);
      const { metrics } = await summarizeEpisodes(store, 'failed', 3);
      const overall = metrics[0]!.scopes.find((s) => s.scope === 'overall')!;
      expect(overall).toMatchObject({ tasks: 0, runs: 0 });
      expect(overall.functional).toMatchObject({
        passAtK: 0,
        passHatK: 0,
        avgPlanned: 0,
        partial: true,
        attempts: { k: 3, tasks: 2, planned: 6, made: 0, failed: 6, notRun: 0 },
        overAttemptsMade: { passAtK: null, passHatK: null, tasks: 0, attempts: 0 },
      });
    } finally {
      await store.close();
    }
    const text = await runCli(['embodied', 'results', '--db', db, '--run-id', 'failed']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/always-500\s+overall\s+0 of 6\s+6\s+0\s+0 of 2\s+-\s+-/);
  }, 60_000);

  it('a run of one trial read with --k 3: two of three attempts never ran, and the text says the run planned one', async () => {
    const db = join(dir, 'one.db');
    const store = await openStore(db);
    try {
      await evaluate(
        { suites: ['enacttom'], data: join(dir, 'tasks.json'), models: ['agent:planner', 'agent:silent'] },
        { store, runId: 'one' },
      );
    } finally {
      await store.close();
    }
    const json = JSON.parse((await runCli(['embodied', 'results', '--db', db, '--run-id', 'one', '--json'])).stdout);
    const planner = json.metrics.find((m: { subject: string }) => m.subject === 'agent:planner').scopes[0].functional;
    expect(planner).toMatchObject({ passAtK: 1, passHatK: 0, partial: true, attempts: { planned: 9, made: 3, notRun: 6 } });
    expect(planner.overAttemptsMade).toEqual({ passAtK: 1, passHatK: 1, tasks: 3, attempts: 3 });
    const text = (await runCli(['embodied', 'results', '--db', db, '--run-id', 'one'])).stdout;
    expect(text).toContain('the run planned 1 trial(s) per task; --k 3 counts 3');
    const k1 = (await runCli(['embodied', 'results', '--db', db, '--run-id', 'one', '--k', '1'])).stdout;
    expect(k1).not.toContain('partial');
  }, 60_000);
});
