// `mindscope embodied author`: drafts from a model on a real local HTTP server, gated by the
// verifier, calibration, the secret checks and a two-judge council; ablations change acceptance.

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { councilVerdict, parseCouncilReply, taskCriteria } from '../src/judges/index.js';

const SERVER = fileURLToPath(new URL('./servers/author-server.mjs', import.meta.url));
const bin = fileURLToPath(new URL('../bin/mindscope.js', import.meta.url));

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
});

describe('embodied author against a real model server', () => {
  let child: ChildProcess;
  let base: string;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ms-author-'));
    child = spawn(process.execPath, [SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    const port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l).port));
      child.once('exit', (code) => reject(new Error(`author server exited with ${code}`)));
    });
    base = `openai-compatible:http://127.0.0.1:${port}/v1`;
  });
  afterAll(() => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  const author = (name: string, judges: string[], ...extra: string[]) => {
    const out = join(dir, `${name}.json`);
    const rejected = join(dir, `${name}-rejected.json`);
    const r = spawnSync(
      process.execPath,
      [
        bin,
        'embodied',
        'author',
        '--model',
        `${base}#author`,
        '--judges',
        judges.map((j) => `${base}#${j}`).join(','),
        '--n',
        '3',
        '--depth',
        '1',
        '--db',
        join(dir, `${name}.db`),
        '--out',
        out,
        '--rejected',
        rejected,
        '--json',
        ...extra,
      ],
      { encoding: 'utf8', cwd: dir },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    return {
      summary: JSON.parse(r.stdout) as {
        accepted: number;
        acceptanceRate: number;
        acceptedUnsolvable: number;
        rejected: Array<{ draft: number; reasons: string[] }>;
      },
      accepted: JSON.parse(readFileSync(out, 'utf8')) as Array<{ task_id: string }>,
      rejected: JSON.parse(readFileSync(rejected, 'utf8')) as Array<{ draft: number; reasons: string[]; reply: string }>,
    };
  };

  it('accepts the valid draft and rejects the unsolvable and the unreadable ones with reasons', () => {
    const r = author('base', ['judge-good', 'judge-good']);
    expect(r.accepted.map((t) => t.task_id)).toEqual(['authored-valid-1']);
    expect(r.summary.acceptanceRate).toBeCloseTo(1 / 3, 10);
    const [unsolvable, broken] = r.rejected;
    expect(unsolvable!.draft).toBe(2);
    expect(unsolvable!.reasons).toContain('verifier: not solvable within 1 turns');
    expect(unsolvable!.reasons).toContain('calibration: the physical goal is not solvable even with every secret revealed');
    expect(broken!.draft).toBe(3);
    expect(broken!.reasons[0]).toMatch(/^invalid JSON: /);
    expect(broken!.reply).toContain('"task_id": "broken"');
  });

  it('rejects a draft a judge scores below 0.5 on a criterion, naming the judge and criterion', () => {
    const r = author('harsh', ['judge-good', 'judge-harsh']);
    expect(r.summary.accepted).toBe(0);
    const first = r.rejected.find((x) => x.draft === 1)!;
    expect(first.reasons).toContain(`council: judge ${base}#judge-harsh: secret_quality 0.30 < 0.5`);
    expect(first.reasons.some((x) => x.includes('fixes: add a secret'))).toBe(true);
  });

  it('ablations: relaxed secrets pass the harsh council; no calibration admits the unsolvable draft; no seeds changes the drafts', () => {
    const relaxed = author('relaxed', ['judge-good', 'judge-harsh'], '--relaxed-secrets');
    expect(relaxed.accepted.map((t) => t.task_id)).toEqual(['authored-valid-1']);
    const noCal = author('nocal', ['judge-good', 'judge-good'], '--no-calibration');
    expect(noCal.accepted.map((t) => t.task_id)).toEqual(['authored-valid-1', 'authored-unsolvable-2']);
    expect(noCal.summary.acceptanceRate).toBeCloseTo(2 / 3, 10);
    expect(noCal.summary.acceptedUnsolvable).toBe(1);
    // Without seeds the server's author claims depth 2 for a depth-1 goal: the K-depth gate rejects it.
    const noSeeds = author('noseeds', ['judge-good', 'judge-good'], '--no-icl-seeds');
    expect(noSeeds.summary.accepted).toBe(0);
    expect(noSeeds.rejected[0]!.reasons).toContain('K-depth: the goal nests K to depth 1 but the task claims 2');
  });
});
