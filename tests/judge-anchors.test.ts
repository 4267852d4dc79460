// The VLM paper's 14-anchor rubric validation battery (Appendix M) for the Castelli rubric, run
// with `mindscope judge validate` against Castelli judges on a real local server: a faithful
// judge passes both gates; one that over-attributes Intent fails recovery; one whose Approp
// wavers fails the SD gate. Recovery counts only the fields an anchor gives an interval for.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { loadAnchors, loadRubric } from '../src/judges/index.js';
import '../src/index.js';
import { runCli } from './helpers/run-cli.js';
import { startScriptServer, type ScriptServer } from './helpers/script-server.js';

const root = join(__dirname, '..');
const BATTERY = join(root, 'rubrics', 'castelli-anchors-paper.yaml');

interface Validation {
  rubric: { name: string };
  results: Array<{
    judge: string;
    recovery: number;
    recoveryByField: Record<string, number | null>;
    failures: number;
    anchors: Array<{ id: string; sd: Record<string, number>; mean: Record<string, number> }>;
    pass: boolean;
    reasons: string[];
  }>;
}

describe('the 14-anchor battery', () => {
  it('holds T1-T5 with Intent and Approp targets and the nine exemplars A0a-A5b stepping through the Intent levels', () => {
    const anchors = loadAnchors(BATTERY, loadRubric('castelli-triangles'));
    expect(anchors.map((a) => a.id)).toEqual(['T1', 'T2', 'T3', 'T4', 'T5', 'A0a', 'A0b', 'A1a', 'A2a', 'A2b', 'A3a', 'A4a', 'A5a', 'A5b']);
    const t = anchors.slice(0, 5);
    expect(t.every((a) => a.vars?.condition === 'tom' && a.expected.intent && a.expected.approp)).toBe(true);
    // The exemplars' Intent targets are the level their id names.
    for (const a of anchors.slice(5)) expect(a.expected.intent, a.id).toEqual([Number(a.id[1]), Number(a.id[1])]);
    expect(anchors.filter((a) => a.expected.approp).map((a) => a.id)).toEqual(['T1', 'T2', 'T3', 'T4', 'T5', 'A0b']);
    expect(new Set(anchors.map((a) => a.vars?.condition))).toEqual(new Set(['tom', 'goal-directed', 'random']));
  });

  it('refuses an interval for a field the rubric does not have, and an anchor with none', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-anchors-bad-'));
    const rubric = loadRubric('castelli-triangles');
    writeFileSync(join(dir, 'a.json'), JSON.stringify([{ id: 'x', text: 't', expected: { intnet: [1, 2] } }]));
    expect(() => loadAnchors(join(dir, 'a.json'), rubric)).toThrow(
      /a\.json: anchor 0: expected\.intnet is not a field of rubric "castelli-triangles" \(intent, approp\)/,
    );
    writeFileSync(join(dir, 'b.json'), JSON.stringify([{ id: 'x', text: 't', expected: {} }]));
    expect(() => loadAnchors(join(dir, 'b.json'), rubric)).toThrow(/b\.json: anchor 0: "expected" intervals are missing/);
  });
});

describe('judge validate on the battery', () => {
  let server: ScriptServer;
  beforeAll(async () => {
    server = await startScriptServer('castelli-judge-server.mjs', { ANCHORS_FILE: BATTERY });
  });
  afterAll(() => server.stop());

  it('passes a faithful judge, fails an over-attributing one on recovery and a wavering one on its Approp SD', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-anchors-'));
    const judge = (m: string) => `openai-compatible:${server.url}/v1#${m}`;
    const args = ['judge', 'validate', '--rubric', 'castelli-triangles', '--anchors', BATTERY, '--k', '5', '--db', join(dir, 'm.db')];
    const r = await runCli([...args, '--judge', judge('faithful'), judge('over'), judge('unstable'), '--json']);
    // A judge that fails its gates makes the command exit 3.
    expect(r.code, r.stderr).toBe(3);
    const out = JSON.parse(r.stdout) as Validation;
    expect(out.rubric.name).toBe('castelli-triangles');
    const [faithful, over, unstable] = out.results;
    // 14 anchors x 5 repetitions x 3 judges: 210 calls, as the paper's Phase 1.
    expect((await server.stats<{ calls: Record<string, number> }>()).calls).toEqual({ faithful: 70, over: 70, unstable: 70 });
    expect(faithful!.anchors.map((a) => a.id)).toHaveLength(14);
    expect(faithful).toMatchObject({ recovery: 1, recoveryByField: { intent: 1, approp: 1 }, failures: 0, pass: true, reasons: [] });
    expect(faithful!.anchors.every((a) => a.sd.intent === 0 && a.sd.approp === 0)).toBe(true);
    // Over-attribution (Intent one above the interval, capped at 5) is recovered only where the
    // interval reaches 5: T1-T4, A5a, A5b, 6 of 14; Approp 6 of 6; together 12 of 20 per repetition.
    expect(over!.recoveryByField.intent).toBeCloseTo(6 / 14, 12);
    expect(over!.recoveryByField.approp).toBe(1);
    expect(over!.recovery).toBeCloseTo(0.6, 12);
    expect(over!.pass).toBe(false);
    expect(over!.reasons).toEqual(['recovery 60.0% < 80%']);
    // Wavering Approp (low end, then two above it): T5 [1, 2] and A0b [0, 0] miss on the 2nd and
    // 4th repetition: Approp 26 of 30, all 96 of 100; their SD over 1, 3, 1, 3, 1 is 1.10 > 0.8.
    expect(unstable!.recoveryByField).toEqual({ intent: 1, approp: 26 / 30 });
    expect(unstable!.recovery).toBeCloseTo(0.96, 12);
    expect(unstable!.anchors.find((a) => a.id === 'T5')!.sd.approp).toBeCloseTo(Math.sqrt(1.2), 12);
    expect(unstable!.reasons).toEqual(['approp: SD 1.10 on anchor T5 > 0.8']);
    const text = await runCli([...args, '--judge', judge('faithful'), judge('over')]);
    expect(text.stdout).toMatch(/#faithful\s+100\.0%\s+0\s+pass\s+intent 100\.0%, approp 100\.0%/);
    expect(text.stdout).toMatch(/#over\s+60\.0%\s+0\s+FAIL\s+recovery 60\.0% < 80%\s+intent 42\.9%, approp 100\.0%/);
  }, 120_000);
});

describe('the battery file', () => {
  it('says the texts are written for mindscope, not quoted from the papers', () => {
    const text = readFileSync(BATTERY, 'utf8');
    expect(text).toMatch(/The paper prints none of the 14 texts/);
    expect(YAML.parse(text)).toHaveLength(14);
  });
});
