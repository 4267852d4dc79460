// Runs at set times of day (the VLM paper's Appendix A spreads its replicates over time windows
// and calendar days): `run --enqueue --repeat-at ... --repeat-days N [--repeat-from DATE]` makes
// each replicate a repetition due at its slot; `mindscope worker` takes the ones that are due
// and leaves the others queued; `analyze time-of-day` groups results by slot (or, without a
// schedule, by the hour trials finished in). The slots are computed from an injected clock or a
// fixed first day, and the queue is a real PostgreSQL one: nothing depends on how fast a test runs.

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { groupByTimeOfDay } from '../src/analysis/index.js';
import { checkRepeatSchedule, parseRepeatAt, repeatSlots } from '../src/runner/index.js';
import { createTestDatabase, dropTestDatabases, pgAvailable, pgQuery, pgSkipNote } from './helpers/postgres.js';
import { runCli } from './helpers/run-cli.js';

const DAY = 24 * 3600 * 1000;
/** The UTC date `offset` days from today. */
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

afterAll(() => dropTestDatabases());

describe('repeat schedules', () => {
  it('slots are the next occurrences of the times from the moment of planning, or from 00:00 UTC of a first day', () => {
    const now = new Date('2025-03-10T10:00:00Z');
    expect(repeatSlots({ at: parseRepeatAt('21:00,09:00,15:00'), days: 1 }, now)).toEqual([
      { replicate: 0, due: '2025-03-10T15:00:00.000Z', timeOfDay: '15:00' },
      { replicate: 1, due: '2025-03-10T21:00:00.000Z', timeOfDay: '21:00' },
      { replicate: 2, due: '2025-03-11T09:00:00.000Z', timeOfDay: '09:00' },
    ]);
    // A time equal to the moment of planning is due at once.
    expect(repeatSlots({ at: ['10:00'], days: 2 }, now).map((s) => s.due)).toEqual([
      '2025-03-10T10:00:00.000Z',
      '2025-03-11T10:00:00.000Z',
    ]);
    expect(repeatSlots({ at: ['09:00', '21:00'], days: 2, from: '2025-03-01' }, now).map((s) => `${s.replicate}@${s.due}`)).toEqual([
      '0@2025-03-01T09:00:00.000Z',
      '1@2025-03-01T21:00:00.000Z',
      '2@2025-03-02T09:00:00.000Z',
      '3@2025-03-02T21:00:00.000Z',
    ]);
  });

  it('refuses malformed times, days and first days, naming the flag', () => {
    expect(() => parseRepeatAt('9:00')).toThrow(/--repeat-at: "9:00" is not a time of day HH:MM/);
    expect(() => parseRepeatAt('24:00')).toThrow(/"24:00" is not a time of day/);
    expect(() => parseRepeatAt('09:00, 09:00')).toThrow(/--repeat-at: 09:00 is given twice/);
    expect(() => checkRepeatSchedule({ at: ['09:00'], days: 0 })).toThrow(/--repeat-days must be a whole number from 1 to 366, not 0/);
    expect(() => checkRepeatSchedule({ at: ['09:00'], days: 1, from: '2025-02-30' })).toThrow(
      /--repeat-from must be a date YYYY-MM-DD, not "2025-02-30"/,
    );
  });

  it('groups trials by their slot, or by the hour they finished in', () => {
    const t = (subject: string, replicate: number, score: number | null, finishedAt: string) => ({ subject, replicate, score, finishedAt });
    const trials = [
      t('a', 0, 1, '2025-03-01T09:00:05Z'),
      t('a', 1, 0, '2025-03-01T21:00:07Z'),
      t('a', 2, 1, '2025-03-02T09:01:00Z'),
      t('b', 0, 0, '2025-03-01T09:00:09Z'),
      t('b', 2, null, '2025-03-02T09:02:00Z'),
    ];
    const slots = [
      { replicate: 0, due: '2025-03-01T09:00:00.000Z', timeOfDay: '09:00' },
      { replicate: 1, due: '2025-03-01T21:00:00.000Z', timeOfDay: '21:00' },
      { replicate: 2, due: '2025-03-02T09:00:00.000Z', timeOfDay: '09:00' },
    ];
    const r = groupByTimeOfDay(trials, slots);
    expect(r.groupedBy).toBe('schedule');
    expect(r.rows.map((x) => [x.timeOfDay, x.subject, x.replicates.join(','), x.trials, x.scored, x.mean])).toEqual([
      ['09:00', 'a', '0,2', 2, 2, 1],
      ['09:00', 'b', '0,2', 2, 1, 0],
      ['09:00', null, '0,2', 4, 3, 2 / 3],
      ['21:00', 'a', '1', 1, 1, 0],
      ['21:00', null, '1', 1, 1, 0],
    ]);
    expect(r.rows[2]).toMatchObject({ firstFinished: '2025-03-01T09:00:05Z', lastFinished: '2025-03-02T09:02:00Z' });
    const byHour = groupByTimeOfDay(trials);
    expect(byHour.groupedBy).toBe('finished');
    expect(byHour.rows.filter((x) => x.subject === null).map((x) => [x.timeOfDay, x.trials])).toEqual([
      ['09:00', 4],
      ['21:00', 1],
    ]);
  });
});

describe.skipIf(!pgAvailable)(`scheduled repetitions on PostgreSQL${pgSkipNote}`, () => {
  it('a worker takes the repetitions that are due, leaves the later ones queued, and the results group by time of day', async () => {
    const url = await createTestDatabase();
    // The days, taken once (a test running over midnight keeps the same ones).
    const d = Object.fromEntries([-3, -2, 2, 3].map((k) => [k, day(k)])) as Record<number, string>;
    const base = [
      'run',
      'director',
      '--model',
      'agent:egocentric',
      'agent:allocentric',
      '--limit',
      '4',
      '--db',
      url,
      '--enqueue',
      '--json',
    ];
    // Run a: 00:00 and 06:00 UTC on the two days from three days ago: four repetitions, all due.
    const a = await runCli([...base, '--run-id', 'a', '--repeat-at', '06:00,00:00', '--repeat-days', '2', '--repeat-from', d[-3]!]);
    expect(a.code, a.stderr).toBe(0);
    const qa = JSON.parse(a.stdout) as {
      planned: number;
      queued: number;
      schedule: Array<{ replicate: number; due: string; timeOfDay: string }>;
    };
    // 4 scenes x 2 subjects x 4 repetitions.
    expect(qa).toMatchObject({ planned: 32, queued: 32 });
    expect(qa.schedule.map((s) => `${s.replicate}@${s.due}`)).toEqual([
      `0@${d[-3]!}T00:00:00.000Z`,
      `1@${d[-3]!}T06:00:00.000Z`,
      `2@${d[-2]!}T00:00:00.000Z`,
      `3@${d[-2]!}T06:00:00.000Z`,
    ]);
    // Run b: 12:00 UTC on the two days from the day after tomorrow: nothing due yet.
    const b = await runCli([...base, '--run-id', 'b', '--repeat-at', '12:00', '--repeat-days', '2', '--repeat-from', d[2]!]);
    expect(b.code, b.stderr).toBe(0);
    expect(JSON.parse(b.stdout)).toMatchObject({ planned: 16, queued: 16 });
    const w = await runCli(['worker', '--db', url, '--until-idle', '--json', '--quiet']);
    expect(w.code, w.stderr).toBe(0);
    expect(JSON.parse(w.stdout)).toMatchObject({ done: 32, failed: 0, errors: 0, scheduled: 16, nextDue: `${d[2]!}T12:00:00.000Z` });
    const done = await pgQuery<{ run_id: string; replicate: number; n: number }>(
      url,
      "SELECT run_id, replicate, count(*)::int AS n FROM trials WHERE status = 'done' GROUP BY run_id, replicate ORDER BY run_id, replicate",
    );
    expect(done).toEqual([0, 1, 2, 3].map((replicate) => ({ run_id: 'a', replicate, n: 8 })));
    // Run b's trials wait in the queue until their day.
    const waiting = await pgQuery<{ due: Date; n: number }>(
      url,
      "SELECT start_after AS due, count(*)::int AS n FROM mindscope_queue.job WHERE name = 'mindscope-trials' AND state = 'created' GROUP BY start_after ORDER BY start_after",
    );
    expect(waiting.map((x) => [new Date(x.due).toISOString(), x.n])).toEqual([
      [`${d[2]!}T12:00:00.000Z`, 8],
      [`${d[3]!}T12:00:00.000Z`, 8],
    ]);
    // Run a by time of day: replicates 1 and 3 at 00:00, 2 and 4 at 06:00; egocentric is right on the
    // two control scenes of 4, allocentric on all.
    const t = await runCli(['analyze', 'time-of-day', '--run-id', 'a', '--db', url, '--json']);
    expect(t.code, t.stderr).toBe(0);
    const r = JSON.parse(t.stdout) as { groupedBy: string; schedule: { at: string[]; days: number }; rows: Array<Record<string, unknown>> };
    expect(r.groupedBy).toBe('schedule');
    expect(r.schedule).toMatchObject({ timeZone: 'UTC', at: ['00:00', '06:00'], days: 2, from: d[-3]! });
    expect(r.rows.map((x) => [x.timeOfDay, x.subject, (x.replicates as number[]).join(','), x.trials, x.mean])).toEqual([
      ['00:00', 'agent:allocentric', '0,2', 8, 1],
      ['00:00', 'agent:egocentric', '0,2', 8, 0.5],
      ['00:00', null, '0,2', 16, 0.75],
      ['06:00', 'agent:allocentric', '1,3', 8, 1],
      ['06:00', 'agent:egocentric', '1,3', 8, 0.5],
      ['06:00', null, '1,3', 16, 0.75],
    ]);
    const text = await runCli(['analyze', 'time-of-day', '--run-id', 'a', '--db', url]);
    expect(text.stdout).toContain('run a by scheduled time of day (UTC)');
    expect(text.stdout).toMatch(/06:00\s+all\s+2,4\s+16\s+16\s+0\.750/);
  }, 180_000);

  it('refuses a schedule without --enqueue, or one whose slots are not the trials', async () => {
    const url = await createTestDatabase();
    const noQueue = await runCli(['run', 'director', '--model', 'agent:egocentric', '--limit', '1', '--db', url, '--repeat-at', '09:00']);
    expect(noQueue.stderr).toMatch(/--repeat-at needs --enqueue and a PostgreSQL store/);
    const stray = await runCli(['run', 'director', '--model', 'agent:egocentric', '--db', url, '--enqueue', '--repeat-days', '2']);
    expect(stray.stderr).toMatch(/--repeat-days need --repeat-at TIMES/);
    const mismatch = await runCli([
      'run',
      'director',
      '--model',
      'agent:egocentric',
      '--limit',
      '1',
      '--db',
      url,
      '--enqueue',
      '--repeat-at',
      '09:00,21:00',
      '--trials',
      '3',
    ]);
    expect(mismatch.stderr).toMatch(/the repeat schedule has 2 slot\(s\) \(times x days\) and the run 3 trial\(s\) per item/);
  }, 60_000);
});

describe('a run without a schedule', () => {
  it('groups by the UTC hour its trials finished in', async () => {
    const db = join(mkdtempSync(join(tmpdir(), 'mindscope-tod-')), 'm.db');
    const run = await runCli([
      'run',
      'director',
      '--model',
      'agent:egocentric',
      '--limit',
      '4',
      '--trials',
      '2',
      '--db',
      db,
      '--run-id',
      'h',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const t = await runCli(['analyze', 'time-of-day', '--run-id', 'h', '--db', db, '--json']);
    const r = JSON.parse(t.stdout) as {
      groupedBy: string;
      schedule: null;
      rows: Array<{ timeOfDay: string; subject: string | null; trials: number; firstFinished: string }>;
    };
    expect(r.groupedBy).toBe('finished');
    expect(r.schedule).toBeNull();
    const all = r.rows.filter((x) => x.subject === null);
    expect(all.reduce((s, x) => s + x.trials, 0)).toBe(8);
    for (const x of all) expect(x.timeOfDay).toBe(`${x.firstFinished.slice(11, 13)}:00`);
  }, 60_000);
});
