// `mindscope embodied author` as a tool-using agent: a model on a real local HTTP server
// (tests/servers/tool-author-server.mjs) plays the author through the JSON action protocol:
// it inspects the scene, tests a broken task, reads the verifier's verdict, fixes it, is refused
// a submission before the council passed it, has it judged, and submits. The transcript, the
// accepted task (with budgets twice the baseline plan's) and the recorded calls are checked;
// then the ablations, the model-team calibration inside test_task, and seeds drawn from a stored
// run with a share rho of failed tasks.

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  generateTasks,
  planSeeds,
  readEnactTomTask,
  readEnactTomTasks,
  readToolCall,
  writeEnactTomTask,
  type PoolTask,
} from '../src/studies/enacttom/index.js';
import { evaluate, openStore } from '../src/index.js';
import { runCli } from './helpers/run-cli.js';

const SERVER = fileURLToPath(new URL('./servers/tool-author-server.mjs', import.meta.url));
const drafts = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'embodied-author-drafts.json'), 'utf8'));

describe('the tool-call protocol', () => {
  it("reads a reply's last JSON object as the call, with its arguments nested or not", () => {
    expect(
      readToolCall('notes\n```json\n{"tool": "inspect_scene"}\n```\nthen\n```json\n{"tool": "judge", "args": {"task": {"a": 1}}}\n```'),
    ).toEqual({
      tool: 'judge',
      args: { task: { a: 1 } },
    });
    expect(readToolCall('I will test it: {"tool": "test_task", "task": {"a": 1}}')).toEqual({
      tool: 'test_task',
      args: { task: { a: 1 } },
    });
    expect(readToolCall('thinking, no call yet')).toBe('no tool call: the reply holds no JSON object');
    expect(readToolCall('{"tool": "bash", "args": {}}')).toBe(
      'no tool call: "tool" must be one of inspect_scene, new_scene, test_task, judge, submit_task, got "bash"',
    );
    expect(readToolCall('```json\n{"tool": "judge",}\n```')).toMatch(/^no tool call: the JSON does not parse/);
  });
});

describe('pool tasks as seeds', () => {
  it('writes a task back as EnactToM JSON that reads back to the same task', () => {
    const sample = readEnactTomTasks(
      JSON.parse(readFileSync(join(__dirname, 'fixtures', 'data', 'enacttom', 'sample_tasks.json'), 'utf8')),
      'sample',
    );
    const generated = generateTasks({ n: 6, seed: 4 }).map((g) => g.task);
    for (const task of [...generated, ...sample.slice(0, 4), readEnactTomTask(drafts.valid, 'valid')]) {
      const back = readEnactTomTask(writeEnactTomTask(task), task.id);
      expect({ ...back, source: { ...back.source, notes: [] } }).toEqual({ ...task, source: { ...task.source, notes: [] } });
    }
  });

  it('shows a share rho of failed tasks over all drafts, spread evenly, no task twice in a draft', () => {
    const pool = (ids: string[], failed: boolean): PoolTask[] =>
      ids.map((taskId) => ({ taskId, json: { task_id: taskId }, failureRatio: failed ? 1 : 0, failed }));
    const p = { failed: pool(['f1', 'f2', 'f3', 'f4'], true), passed: pool(['p1', 'p2', 'p3'], false) };
    const std = planSeeds(p, 10, 3, 0.8, 0);
    expect(std.failedShare).toBe(0.8);
    expect(std.perDraft.flat().filter((s) => s.failed)).toHaveLength(24);
    expect(std.perDraft.map((d) => d.filter((s) => s.failed).length).sort()).toEqual([2, 2, 2, 2, 2, 2, 3, 3, 3, 3]);
    for (const d of std.perDraft) expect(new Set(d.map((s) => s.json.task_id)).size).toBe(3);
    expect(planSeeds(p, 10, 3, 0.9, 0).failedShare).toBe(0.9);
    expect(planSeeds(p, 4, 3, 0, 0).failedShare).toBe(0);
    // No passed task to show: every place goes to a failed one.
    expect(planSeeds({ ...p, passed: [] }, 2, 3, 0.5, 0).failedShare).toBe(1);
  });
});

describe('embodied author against a real model server', () => {
  let child: ChildProcess;
  let base: string;
  let port: number;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ms-author-agent-'));
    child = spawn(process.execPath, [SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    port = await new Promise<number>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once('line', (l) => resolve(JSON.parse(l).port));
      child.once('exit', (code) => reject(new Error(`tool author server exited with ${code}`)));
    });
    base = `openai-compatible:http://127.0.0.1:${port}/v1`;
  });
  afterAll(() => {
    child.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  interface Summary {
    accepted: number;
    acceptanceRate: number;
    acceptedUnsolvable: number;
    maxSteps: number;
    seeds: {
      source: string;
      rho?: number;
      failedShare?: number;
      targets?: string[];
      pool?: { failed: string[]; passed: string[] };
      perDraft: Array<Array<{ taskId: string; failed?: boolean }>>;
    };
    attempts: Array<{
      draft: number;
      category: string;
      depth: number;
      accepted: boolean;
      toolCalls: number;
      tools: string[];
      reasons: string[];
    }>;
  }
  const author = async (model: string, name: string, judges: string[], ...extra: string[]) => {
    const file = (x: string) => join(dir, `${name}-${x}.json`);
    const r = await runCli(
      [
        'embodied',
        'author',
        '--model',
        `${base}#${model}`,
        '--judges',
        judges.map((j) => `${base}#${j}`).join(','),
        '--n',
        '1',
        '--depth',
        '1',
        '--category',
        'cooperative',
        '--db',
        join(dir, `${name}.db`),
        '--out',
        file('out'),
        '--rejected',
        file('rejected'),
        '--transcripts',
        file('transcripts'),
        '--json',
        ...extra,
      ],
      { cwd: dir },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return {
      summary: JSON.parse(r.stdout) as Summary,
      accepted: JSON.parse(readFileSync(file('out'), 'utf8')) as Array<
        Record<string, unknown> & { agent_secrets: Record<string, string[]> }
      >,
      rejected: JSON.parse(readFileSync(file('rejected'), 'utf8')) as Array<{
        draft: number;
        reasons: string[];
        task: Record<string, unknown> | null;
      }>,
      transcripts: JSON.parse(readFileSync(file('transcripts'), 'utf8')) as Array<{
        steps: Array<{ step: number; reply: string; tool: string | null; ok: boolean; result: string }>;
        messages: Array<{ role: string; content: string }>;
      }>,
      stdout: r.stdout,
    };
  };
  const requests = async (model: string) =>
    ((await (await fetch(`http://127.0.0.1:${port}/stats`)).json()) as { byModel: Record<string, number> }).byModel[model] ?? 0;

  it('inspects, tests a broken task, fixes it from the verdict, is refused before the council passed it, and submits', async () => {
    const before = await requests('tool-author');
    const r = await author('tool-author', 'loop', ['judge-good', 'judge-fact']);
    expect(r.summary.attempts[0]!.tools).toEqual([
      'Scene 1',
      'test_task: FAIL',
      'test_task: PASS',
      'submit_task: REFUSED',
      'judge: FAIL',
      'test_task: PASS',
      'submit_task: REFUSED',
      'judge: PASS',
      'submit_task: ACCEPTED',
    ]);
    expect(r.summary).toMatchObject({ accepted: 1, acceptanceRate: 1, acceptedUnsolvable: 0, maxSteps: 30 });
    const { steps, messages } = r.transcripts[0]!;
    // The stored transcript: system prompt, request, then each reply and each tool result in turn.
    expect(messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      ...steps.flatMap((_, i) => (i < 8 ? ['assistant', 'user'] : ['assistant'])),
    ]);
    expect(messages[0]!.content).toContain(
      "write the formal PDDL goal first, then derive the public task description and each agent's secrets from it",
    );
    expect(messages[0]!.content).toContain(
      'Secrets carry only constraints, target IDs, and mechanic hints. Never encode coordination strategy in a secret',
    );
    expect(messages[1]!.content).toContain('Write one new cooperative task whose goal nests K to depth 1 (tom_level 1).');
    expect(steps[0]!.result).toMatch(/^Scene 1\nRooms: /);
    expect(steps[0]!.result).toContain('"problem_pddl": "(define (problem REPLACE_WITH_TASK_ID)');
    expect(steps[1]!.result).toContain('- verifier: not solvable within 1 turns');
    expect(steps[1]!.result).toContain('- calibration: the physical goal is not solvable even with every secret revealed');
    expect(JSON.parse(/```json\n([\s\S]*?)\n```/.exec(steps[2]!.reply)![1]!).args.task.turn_limit).toBe(12);
    expect(steps[2]!.result).toContain(
      'solvable true in 5 round(s); minimal ToM level 1; calibrates (every secret revealed) true; needs messages true.',
    );
    expect(steps[2]!.result).toContain("On acceptance: turn_limit 10 (twice the baseline plan's 5 rounds); message budgets agent_0 2");
    expect(steps[3]!.result).toBe(
      'submit_task: REFUSED: judge has not passed on this exact version of the task (call them with it first).',
    );
    expect(steps[4]!.result).toContain('secret_quality 0.30');
    expect(steps[4]!.result).toContain('  required fix: secret_quality: state a fact agent_0 knows, not an instruction');
    expect(messages[11]!.content).toMatch(/\n\(25 tool call\(s\) left\.\)$/);
    // The accepted task: the version both passed, with budgets from the baseline plan.
    expect(r.accepted).toHaveLength(1);
    const task = r.accepted[0]!;
    expect(task.task_id).toBe('tool-authored-1');
    expect(task.turn_limit).toBe(10);
    expect(task.mechanic_bindings).toContainEqual({ mechanic_type: 'limited_bandwidth', agent: 'agent_0', count: 2 });
    expect(task.agent_secrets.agent_0!.at(-1)).toBe('Fact: table_23 is in hallway_1.');
    expect(r.rejected).toEqual([]);
    // Every call was recorded: the same command answers from the store's cache.
    expect((await requests('tool-author')) - before).toBe(9);
    const again = await author('tool-author', 'loop', ['judge-good', 'judge-fact']);
    expect((await requests('tool-author')) - before).toBe(9);
    expect(again.stdout).toBe(r.stdout);
  });

  it('--category mixed: the author is told, test_task names the category and the private goal, the task comes out mixed', async () => {
    const r = await author('tool-author', 'mixed', ['judge-good'], '--category', 'mixed');
    const fail = r.transcripts[0]!.steps[1]!.result;
    expect(fail).toContain('- category: the task is cooperative but mixed was requested');
    expect(fail).toContain('- category: a mixed task needs a private goal (private_goals) for at least one agent');
    expect(r.summary.attempts[0]).toMatchObject({ category: 'mixed', accepted: true, toolCalls: 6 });
    expect(r.accepted[0]).toMatchObject({ category: 'mixed', private_goals: { agent_1: '(is_open drawer_20)' } });
  });

  it('ablations: no calibration admits the unsolvable task; relaxed secrets pass the harsh council; no seeds leaves the depth unfixed', async () => {
    const hasty = await author('tool-author-hasty', 'hasty', ['judge-good'], '--steps', '5');
    expect(hasty.summary.attempts[0]!.tools).toEqual([
      'no tool call',
      'test_task: FAIL',
      'test_task: FAIL',
      'test_task: FAIL',
      'test_task: FAIL',
    ]);
    expect(hasty.transcripts[0]!.steps[0]!.result).toContain('End your reply with one JSON object {"tool": NAME, "args": {...}}');
    expect(hasty.rejected[0]!.reasons).toEqual([
      'no task accepted within 5 tool call(s)',
      'last test_task: verifier: not solvable within 1 turns (turn limit too short: a plan needs 5 round(s), the limit is 1)',
      'last test_task: calibration: the physical goal is not solvable even with every secret revealed',
    ]);
    expect(hasty.rejected[0]!.task!.turn_limit).toBe(1);
    const noCal = await author('tool-author-hasty', 'nocal', ['judge-good'], '--steps', '5', '--no-calibration');
    expect(noCal.summary.attempts[0]!.tools).toEqual(['no tool call', 'test_task: PASS', 'judge: PASS', 'submit_task: ACCEPTED']);
    expect(noCal.summary).toMatchObject({ accepted: 1, acceptedUnsolvable: 1 });
    expect(noCal.accepted[0]!.turn_limit).toBe(1);
    const harsh = await author('tool-author', 'harsh', ['judge-good', 'judge-harsh'], '--steps', '8');
    expect(harsh.summary.accepted).toBe(0);
    expect(harsh.rejected[0]!.reasons).toContain(`last judge: judge ${base}#judge-harsh: secret_quality 0.30 < 0.5`);
    const relaxed = await author('tool-author', 'relaxed', ['judge-good', 'judge-harsh'], '--steps', '8', '--relaxed-secrets');
    expect(relaxed.summary.accepted).toBe(1);
    const noSeeds = await author('tool-author', 'noseeds', ['judge-good'], '--steps', '4', '--no-icl-seeds');
    expect(noSeeds.transcripts[0]!.messages[1]!.content).not.toContain('Seed task 1');
    expect(noSeeds.rejected[0]!.reasons).toContain('last test_task: K-depth: the goal nests K to depth 1 but the task claims 2');
  });

  it('--calibration-team: test_task has the team play the task with every secret revealed; a team that fails it keeps the task out', async () => {
    const silent = await author('tool-author', 'cal-silent', ['judge-good'], '--calibration-team', 'agent:silent');
    expect(silent.summary.accepted).toBe(1);
    expect(silent.transcripts[0]!.steps[2]!.result).toContain(
      'Calibration (team agent:silent, every secret revealed): PASS after 5 round(s) of 10.',
    );
    const random = await author('tool-author', 'cal-random', ['judge-good'], '--calibration-team', 'agent:random', '--steps', '4');
    expect(random.summary.accepted).toBe(0);
    expect(random.transcripts[0]!.steps[2]!.result).toMatch(
      /Calibration \(team agent:random, every secret revealed\): FAIL after 10 round\(s\) of 10\.\nLast turns:/,
    );
    expect(random.rejected[0]!.reasons).toContain('last test_task: calibration: the team failed the task even with every secret revealed');
  });

  it('--seeds-from-run: the seeds are the pool tasks themselves, a share rho of them failed by the target models', async () => {
    const easy = generateTasks({ n: 2, seed: 1, depth: 1, family: 'relay', agents: 2 }).map((t) => t.json);
    const hard = generateTasks({ n: 2, seed: 2, depth: 1, family: 'relay', agents: 2 }).map((t) => ({
      ...t.json,
      task_id: `hard-${t.json.task_id}`,
      turn_limit: 1,
    }));
    writeFileSync(join(dir, 'pool.json'), JSON.stringify([...easy, ...hard]));
    const store = await openStore(join(dir, 'seeds.db'));
    try {
      await evaluate(
        { suites: ['enacttom'], data: join(dir, 'pool.json'), models: ['agent:planner', 'agent:silent'] },
        { store, runId: 'pool' },
      );
    } finally {
      await store.close();
    }
    const r = await author(
      'tool-author',
      'seeds',
      ['judge-good'],
      '--n',
      '2',
      '--seeds-from-run',
      'pool',
      '--targets',
      'agent:planner',
      '--rho',
      '0.5',
      '--seeds-per-draft',
      '2',
    );
    const s = r.summary.seeds;
    expect(s).toMatchObject({ source: 'run', rho: 0.5, failedShare: 0.5, targets: ['agent:planner'] });
    expect(s.pool).toEqual({ failed: hard.map((t) => t.task_id).sort(), passed: easy.map((t) => t.task_id).sort() });
    for (const d of s.perDraft) expect(d.map((x) => x.failed)).toEqual([true, false]);
    // The prompt holds the pool's tasks as they were run (the failed ones with their turn limit of 1), labelled.
    const request = r.transcripts[0]!.messages[1]!.content;
    const shown = s.perDraft[0]!.map((x) => x.taskId);
    expect(request).toContain(
      `Seed task 1 (the target models failed it):\n${JSON.stringify(writeEnactTomTask(readEnactTomTask(hard.find((t) => t.task_id === shown[0])!, 'h')), null, 2)}`,
    );
    expect(request).toContain(
      `Seed task 2 (the target models passed it):\n${JSON.stringify(writeEnactTomTask(readEnactTomTask(easy.find((t) => t.task_id === shown[1])!, 'e')), null, 2)}`,
    );
    // With both teams as targets, the easy tasks fail half the time: at --failed-at 0.5 every task counts as failed.
    const both = await author('tool-author', 'seeds', ['judge-good'], '--seeds-from-run', 'pool', '--rho', '0.5');
    expect(both.summary.seeds).toMatchObject({ targets: ['agent:planner', 'agent:silent'], failedShare: 1 });
    const bad = await runCli([
      'embodied',
      'author',
      '--model',
      `${base}#tool-author`,
      '--judges',
      `${base}#judge-good`,
      '--db',
      join(dir, 'seeds.db'),
      '--seeds-from-run',
      'pool',
      '--targets',
      'gpt-x',
    ]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('run pool has no episodes of gpt-x (its subjects: agent:planner, agent:silent)');
  });
});
