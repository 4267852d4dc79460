// The Director Task's floor control (the VLM paper's Appendix C): per subject, control (b) at
// letter level on the no-occluder and same-side arms against the pre-registered criterion of at
// least 11 of 12, with canonical (b) beside it; in the text and JSON of `analyze director` and in
// the run report. Subjects are canned on a real local server from an answer key the test writes.

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directorItems, directorView, meetsFloor, targetBlock, type DirectorScene } from '../src/studies/vision/index.js';
import { runCli } from './helpers/run-cli.js';
import { startScriptServer, type ScriptServer } from './helpers/script-server.js';

describe('the floor criterion', () => {
  it('is a share of 11/12: 11 of 12 and 22 of 24 pass, 10 of 12 and 21 of 24 do not', () => {
    expect([meetsFloor(12, 12), meetsFloor(11, 12), meetsFloor(10, 12)]).toEqual([true, true, false]);
    expect([meetsFloor(22, 24), meetsFloor(21, 24), meetsFloor(0, 0)]).toEqual([true, false, false]);
  });
});

describe('the floor control from a run', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mindscope-floor-'));
  let server: ScriptServer;
  beforeAll(async () => {
    // Two subjects: "slips" acts egocentrically on canonical scenes and misses one no-occluder
    // and two same-side scenes; "sound" is right everywhere.
    const say = (s: DirectorScene, letters: string[]) =>
      letters.map((l) => `${s.blocks.find((b) => b.letter === l)!.color} ${l}`).join(', ');
    const models: Record<string, Record<string, { a: string; b: string }>> = { slips: {}, sound: {} };
    const seen: Record<string, number> = {};
    for (const item of directorItems({ perArm: 12, seed: 0 })) {
      const s = item.payload.scene;
      const arm = String(item.meta.arm);
      const n = (seen[arm] = (seen[arm] ?? 0) + 1);
      const right = targetBlock(s, 'director').letter;
      const other = s.blocks.find((b) => b.letter !== right)!.letter;
      const slip =
        arm === 'canonical'
          ? targetBlock(s, 'addressee').letter
          : (arm === 'no-occluder' && n === 1) || (arm === 'same-side' && n <= 2)
            ? other
            : right;
      const hash = createHash('sha256').update(item.payload.picture).digest('hex');
      const a = say(s, directorView(s));
      models.slips![hash] = { a, b: say(s, [slip]) };
      models.sound![hash] = { a, b: say(s, [right]) };
    }
    expect(Object.keys(models.sound!)).toHaveLength(48);
    writeFileSync(join(dir, 'key.json'), JSON.stringify({ models }));
    server = await startScriptServer('director-key-server.mjs', { KEY_FILE: join(dir, 'key.json') });
  });
  afterAll(() => server.stop());

  it('reports the floor per subject in text, JSON and the run report', async () => {
    const db = join(dir, 'm.db');
    const m = (name: string) => `openai-compatible:${server.url}/v1#${name}`;
    const run = await runCli([
      'run',
      'director',
      '--model',
      m('slips'),
      m('sound'),
      '--limit',
      '48',
      '--db',
      db,
      '--run-id',
      'd',
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ done: 96, failed: 0 });
    const json = await runCli(['analyze', 'director', '--run-id', 'd', '--db', db, '--json']);
    expect(json.code, json.stderr).toBe(0);
    const floor = (JSON.parse(json.stdout) as { floor: unknown }).floor;
    expect(floor).toEqual({
      criterion: { right: 11, of: 12 },
      arms: ['no-occluder', 'same-side'],
      subjects: [
        {
          subject: m('slips'),
          canonicalB: { right: 0, scenes: 12 },
          arms: [
            { arm: 'no-occluder', right: 11, scenes: 12, pass: true },
            { arm: 'same-side', right: 10, scenes: 12, pass: false },
          ],
          pass: false,
        },
        {
          subject: m('sound'),
          canonicalB: { right: 12, scenes: 12 },
          arms: [
            { arm: 'no-occluder', right: 12, scenes: 12, pass: true },
            { arm: 'same-side', right: 12, scenes: 12, pass: true },
          ],
          pass: true,
        },
      ],
    });
    const text = await runCli(['analyze', 'director', '--run-id', 'd', '--db', db]);
    expect(text.stdout).toContain('floor control (Appendix C): (b) right at letter level >= 11/12 on each control arm');
    expect(text.stdout).toMatch(/#slips\s+0\/12\s+11\/12 pass\s+10\/12 FAIL\s+FAIL/);
    expect(text.stdout).toMatch(/#sound\s+12\/12\s+12\/12 pass\s+12\/12 pass\s+pass/);
    const report = await runCli(['report', '--run-id', 'd', '--db', db, '--out', join(dir, 'report'), '--json']);
    expect(report.code, report.stderr).toBe(0);
    const html = readFileSync((JSON.parse(report.stdout) as { path: string }).path, 'utf8');
    expect(html).toContain('Floor control (Appendix C): (b) right at letter level on the control arms, pass at &gt;= 11/12 on each');
    expect(html).toMatch(/<td>0\/12<\/td><td>11\/12 pass<\/td><td>10\/12 FAIL<\/td><td>FAIL<\/td>/);
  }, 120_000);

  it('says so when a run has no control arm', async () => {
    const db = join(dir, 'c.db');
    const run = await runCli(['run', 'director', '--model', 'agent:egocentric', '--limit', '1', '--db', db, '--run-id', 'c', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const text = await runCli(['analyze', 'director', '--run-id', 'c', '--db', db]);
    expect(text.stdout).toMatch(/agent:egocentric\s+0\/1\s+-\s+-\s+no control arm/);
  }, 60_000);
});
