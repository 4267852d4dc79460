// `mindscope embodied author`: drafts from a model on a real local HTTP server, gated by the
// verifier, calibration, the secret checks and a two-judge council; ablations change acceptance;
// failed drafts are revised with the gates' feedback (--revisions).

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  draftFeedback,
  revisionMessages,
  councilPrompt,
  councilVerdict,
  parseCouncilReply,
  taskCriteria,
} from '../src/studies/enacttom/index.js';
import { runCli } from './helpers/run-cli.js';

const SERVER = fileURLToPath(new URL('./servers/author-server.mjs', import.meta.url));

// The verifier's reason for the one-turn draft: the turn limit binds.
const UNSOLVABLE = 'verifier: not solvable within 1 turns (turn limit too short: a plan needs 5 round(s), the limit is 1)';

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

  it('asks for a required fix per criterion below the floor and reads fixes as a list, a criterion map or not at all', () => {
    expect(councilPrompt('{}', 'cooperative')).toContain('For every criterion you score below 0.5, give a short required fix');
    const scores = { ...Object.fromEntries(taskCriteria('cooperative').map((c) => [c, 0.8])), secret_quality: 0.3 };
    const keyed = parseCouncilReply(
      'j',
      JSON.stringify({ ...scores, fixes: { secret_quality: 'add a fact', goal_relevance: '' } }),
      'cooperative',
    );
    expect(keyed.fixes).toEqual(['secret_quality: add a fact']);
    expect(councilVerdict([keyed], 'cooperative').reasons).toContain('judge j fixes: secret_quality: add a fact');
    expect(parseCouncilReply('j', JSON.stringify({ ...scores, fixes: ['x'] }), 'cooperative').fixes).toEqual(['x']);
    const none = parseCouncilReply('j', JSON.stringify(scores), 'cooperative');
    expect(none.error).toBeUndefined();
    expect(none.fixes).toEqual([]);
  });
});

describe('revision feedback', () => {
  it("holds every reason, the verifier's diagnostics and each judge's scores and fixes, after the previous reply", () => {
    const scores = { ...Object.fromEntries(taskCriteria('cooperative').map((c) => [c, 0.8])), secret_quality: 0.3 };
    const judge = parseCouncilReply('j1', JSON.stringify({ ...scores, fixes: { secret_quality: 'add a fact' } }), 'cooperative');
    const council = councilVerdict([judge], 'cooperative');
    const attempt = {
      revision: 0,
      accepted: false,
      reasons: council.reasons.map((r) => `council: ${r}`),
      task: {},
      reply: '{"task_id": "t"}',
      verify: {
        kDepth: 1,
        solvable: true,
        minToMLevel: 1,
        calibrates: true,
        needsCommunication: true,
        trivialK: [],
        explanations: ['agent_0 must learn where plate_28 is'],
      },
      council,
      judges: [judge],
    };
    const text = draftFeedback(attempt);
    expect(text).toContain('- council: judge j1: secret_quality 0.30 < 0.5');
    expect(text).toContain('Verifier: goal K-depth 1; solvable true; calibrates (every secret revealed) true');
    expect(text).toContain('- agent_0 must learn where plate_28 is');
    expect(text).toContain('- judge j1 (mean 0.74): agent_necessity 0.80, secret_quality 0.30 (below the floor)');
    expect(text).toContain('  required fix: secret_quality: add a fact');
    const messages = revisionMessages('first prompt', attempt, 1, 3, 2, 2);
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(messages[1]!.content).toBe('{"task_id": "t"}');
    expect(messages[2]!.content).toContain('(Draft 2 of 3, revision 2 of 2.)');
  });
});

describe('embodied author against a real model server', () => {
  let child: ChildProcess;
  let base: string;
  let port: number;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ms-author-'));
    child = spawn(process.execPath, [SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l).port));
      child.once('exit', (code) => reject(new Error(`author server exited with ${code}`)));
    });
    base = `openai-compatible:http://127.0.0.1:${port}/v1`;
  });
  afterAll(() => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  const authorWith = async (model: string, name: string, judges: string[], ...extra: string[]) => {
    const out = join(dir, `${name}.json`);
    const rejected = join(dir, `${name}-rejected.json`);
    const r = await runCli(
      [
        'embodied',
        'author',
        '--model',
        `${base}#${model}`,
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
      { cwd: dir },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return {
      summary: JSON.parse(r.stdout) as {
        revisions: number;
        accepted: number;
        acceptanceRate: number;
        acceptedFirstTry: number;
        firstTryRate: number;
        acceptedUnsolvable: number;
        attempts: Array<{
          draft: number;
          acceptedAt: number | null;
          versions: Array<{ revision: number; accepted: boolean; reasons: string[] }>;
        }>;
        rejected: Array<{ draft: number; revision: number; reasons: string[] }>;
      },
      accepted: JSON.parse(readFileSync(out, 'utf8')) as Array<{
        task_id: string;
        tom_level: number;
        agent_secrets: Record<string, string[]>;
      }>,
      rejected: JSON.parse(readFileSync(rejected, 'utf8')) as Array<{
        draft: number;
        revision: number;
        reasons: string[];
        task: { task_id: string } | null;
        reply: string;
      }>,
      stdout: r.stdout,
    };
  };
  // The one-try tests pin --revisions 0 (the behaviour before revisions).
  const author = (name: string, judges: string[], ...extra: string[]) => authorWith('author', name, judges, '--revisions', '0', ...extra);
  const requests = async (model: string) =>
    ((await (await fetch(`http://127.0.0.1:${port}/stats`)).json()) as { byModel: Record<string, number> }).byModel[model] ?? 0;

  it('accepts the valid draft and rejects the unsolvable and the unreadable ones with reasons', async () => {
    const r = await author('base', ['judge-good', 'judge-good']);
    expect(r.accepted.map((t) => t.task_id)).toEqual(['authored-valid-1']);
    expect(r.summary.acceptanceRate).toBeCloseTo(1 / 3, 10);
    const [unsolvable, broken] = r.rejected;
    expect(unsolvable!.draft).toBe(2);
    expect(unsolvable!.reasons).toContain(UNSOLVABLE);
    expect(unsolvable!.reasons).toContain('calibration: the physical goal is not solvable even with every secret revealed');
    expect(broken!.draft).toBe(3);
    expect(broken!.reasons[0]).toMatch(/^invalid JSON: /);
    expect(broken!.reply).toContain('"task_id": "broken"');
  });

  it('rejects a draft a judge scores below 0.5 on a criterion, naming the judge and criterion', async () => {
    const r = await author('harsh', ['judge-good', 'judge-harsh']);
    expect(r.summary.accepted).toBe(0);
    const first = r.rejected.find((x) => x.draft === 1)!;
    expect(first.reasons).toContain(`council: judge ${base}#judge-harsh: secret_quality 0.30 < 0.5`);
    expect(first.reasons.some((x) => x.includes('fixes: add a secret'))).toBe(true);
  });

  it('ablations: relaxed secrets pass the harsh council; no calibration admits the unsolvable draft; no seeds changes the drafts', async () => {
    const relaxed = await author('relaxed', ['judge-good', 'judge-harsh'], '--relaxed-secrets');
    expect(relaxed.accepted.map((t) => t.task_id)).toEqual(['authored-valid-1']);
    const noCal = await author('nocal', ['judge-good', 'judge-good'], '--no-calibration');
    expect(noCal.accepted.map((t) => t.task_id)).toEqual(['authored-valid-1', 'authored-unsolvable-2']);
    expect(noCal.summary.acceptanceRate).toBeCloseTo(2 / 3, 10);
    expect(noCal.summary.acceptedUnsolvable).toBe(1);
    // Without seeds the server's author claims depth 2 for a depth-1 goal: the K-depth gate rejects it.
    const noSeeds = await author('noseeds', ['judge-good', 'judge-good'], '--no-icl-seeds');
    expect(noSeeds.summary.accepted).toBe(0);
    expect(noSeeds.rejected[0]!.reasons).toContain('K-depth: the goal nests K to depth 1 but the task claims 2');
  });

  it('--revisions 0 rejects each flawed draft at its first try', async () => {
    const r = await authorWith('author-fix', 'fix0', ['judge-good', 'judge-good'], '--revisions', '0');
    expect(r.summary.revisions).toBe(0);
    expect(r.summary.accepted).toBe(0);
    expect(r.summary.firstTryRate).toBe(0);
    expect(r.rejected.map((x) => [x.draft, x.revision])).toEqual([
      [1, 0],
      [2, 0],
      [3, 0],
    ]);
    expect(r.rejected[0]!.reasons).toContain('secrets: agent_1 has no secret');
    expect(r.rejected[2]!.reasons).toContain('K-depth: the task claims 2 but depth 1 was requested');
  });

  it('--revisions 2: the author fixes what the feedback names at revision 1; the unfixable draft stops after 2 revisions with every version kept', async () => {
    const before = await requests('author-fix');
    const r = await authorWith('author-fix', 'fix2', ['judge-good', 'judge-good'], '--revisions', '2');
    // Draft 1 (missing secret) and draft 3 (wrong depth) pass at revision 1; draft 2 never does.
    expect(r.summary.attempts.map((d) => [d.draft, d.acceptedAt, d.versions.length])).toEqual([
      [1, 1, 2],
      [2, null, 3],
      [3, 1, 2],
    ]);
    expect(r.accepted.map((t) => [t.task_id, t.tom_level, t.agent_secrets.agent_1!.length])).toEqual([
      ['authored-fix-1', 1, 1],
      ['authored-fix-3', 1, 1],
    ]);
    expect(r.summary.acceptedFirstTry).toBe(0);
    expect(r.summary.firstTryRate).toBe(0);
    expect(r.summary.accepted).toBe(2);
    expect(r.summary.acceptanceRate).toBeCloseTo(2 / 3, 10);
    // The rejected file holds every failed version, also of the drafts a revision fixed.
    expect(r.rejected.map((x) => [x.draft, x.revision])).toEqual([
      [1, 0],
      [2, 0],
      [2, 1],
      [2, 2],
      [3, 0],
    ]);
    expect(r.rejected[0]!.reasons).toContain('secrets: agent_1 has no secret');
    expect(r.rejected[0]!.task!.task_id).toBe('authored-fix-1');
    for (const x of r.rejected.filter((y) => y.draft === 2)) expect(x.reasons).toContain(UNSOLVABLE);
    expect(r.rejected[4]!.reasons).toContain('K-depth: the goal nests K to depth 1 but the task claims 2');
    // 2 + 3 + 2 author calls, each its own request; a rerun on the same store answers all from the cache.
    expect((await requests('author-fix')) - before).toBe(7);
    const again = await authorWith('author-fix', 'fix2', ['judge-good', 'judge-good'], '--revisions', '2');
    expect((await requests('author-fix')) - before).toBe(7);
    expect(again.stdout).toBe(r.stdout);
  });

  it("by default (2 revisions) the council's required fix reaches the author: accepted at revision 2", async () => {
    const r = await authorWith('author-fix', 'fixcouncil', ['judge-good', 'judge-fact']);
    expect(r.summary.revisions).toBe(2);
    expect(r.summary.attempts.map((d) => d.acceptedAt)).toEqual([2, null, 2]);
    const councilVersion = r.rejected.find((x) => x.draft === 1 && x.revision === 1)!;
    expect(councilVersion.reasons).toContain(`council: judge ${base}#judge-fact: secret_quality 0.30 < 0.5`);
    expect(councilVersion.reasons).toContain(
      `council: judge ${base}#judge-fact fixes: secret_quality: state a fact agent_0 knows, not an instruction`,
    );
    expect(r.accepted.map((t) => t.agent_secrets.agent_0!.at(-1))).toEqual([
      'Fact: table_23 is in hallway_1.',
      'Fact: table_23 is in hallway_1.',
    ]);
  });
});
