// Embodied ToM (EnactToM): the released sample and template load and verify; bad task files
// are rejected with the reason; the world answers impossible actions; generated tasks verify at
// their depth; reference teams separate (planner solves every task three times out of three,
// silent none); episodes run through a real local HTTP server.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import {
  generateTasks,
  summarizeEpisodes,
  formatAction,
  formatFormula,
  kDepth,
  parseAction,
  parseGoal,
  readEnactTomTask,
  readEnactTomTasks,
  stripEpistemic,
  trivialKNodes,
  verifyTask,
  World,
} from '../src/studies/enacttom/index.js';
import { evaluate } from './helpers/evaluate.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';
import { runCli } from './helpers/run-cli.js';

// The EnactToM release's sample task and template, whole (tests/fixtures/data/README.md).
const DATA = join(__dirname, 'fixtures', 'data', 'enacttom');
const readTasks = (file: string) => readEnactTomTasks(JSON.parse(readFileSync(join(DATA, file), 'utf8')), file);

describe('EnactToM task files', () => {
  it('the released sample loads (scene derived, noted) and verifies: K-depth 0, ToM level 0, two rounds', () => {
    const task = readTasks('sample_tasks.json')[0]!;
    expect(task.id).toBe('1512_laptop_on_table_19');
    expect(task.objects).toEqual([{ id: 'laptop_0', at: { rel: 'in', furniture: 'cabinet_35' } }]);
    expect(task.source.notes.join('\n')).toMatch(/scene 107734449_176000403 is not available/);
    expect(task.agents.map((a) => a.actions.includes('Pick'))).toEqual([false, true]);
    const v = verifyTask(task);
    expect(v).toMatchObject({ kDepth: 0, solvable: true, minToMLevel: 0, calibrates: true, needsCommunication: false, rounds: 2 });
    // cabinet_35 is inverse_state: the plan closes it to open it.
    expect(v.plan!.map((p) => `${p.agent} ${formatAction(p.action)}`)).toContain('agent_0 Close[cabinet_35]');
  });

  it('the template loads from its PDDL problem and is reported unsolvable with reasons', () => {
    const task = readTasks('template.json')[0]!;
    expect(formatFormula(task.goal)).toBe(
      '(and (K agent_0 (is_open REPLACE_CONTAINER)) (is_open REPLACE_FURNITURE) (is_on_top REPLACE_OBJECT_A REPLACE_FURNITURE))',
    );
    const v = verifyTask(task);
    expect(v.solvable).toBe(false);
    expect(v.explanations.join('\n')).toMatch(/no agent knows that the goal needs \(is_open REPLACE_FURNITURE\)/);
  });

  it('bad task files are rejected with the reason', () => {
    const good = generateTasks({ n: 1, seed: 3, depth: 1, agents: 2 })[0]!.json;
    // biome-ignore lint/suspicious/noExplicitAny: the patches edit arbitrary task fields
    type Loose = Record<string, any>;
    const bad = (patch: (t: Loose) => void) => {
      const t = structuredClone(good) as Loose;
      patch(t);
      return () => readEnactTomTask(t, 'bad.json');
    };
    const problem = good.problem_pddl as string;
    expect(bad((t) => (t.problem_pddl = problem.replace('(:goal (and', '(:goal (and (is_on_top ghost_1 table_99)')))).toThrow(
      /bad\.json \(gen-3-0000\): the goal names the unknown object "ghost_1"/,
    );
    expect(bad((t) => (t.problem_pddl = problem.replace('(:goal (and', '(:goal (and (K agent_7 (is_open cabinet_10))')))).toThrow(
      /unknown agent "agent_7"/,
    );
    expect(bad((t) => (t.problem_pddl = problem.replace('(:goal (and', '(:goal (and (and')))).toThrow(/missing "\)"|unbalanced/);
    expect(bad((t) => (t.problem_pddl = problem.replace('(:goal (and', '(:goal (and (is_floating x)')))).toThrow(
      /unknown predicate "is_floating"/,
    );
    expect(
      bad((t) =>
        t.mechanic_bindings.push({
          mechanic_type: 'remote_control',
          trigger_object: 'lever_404',
          target_object: 'cabinet_1',
          target_state: 'open',
        }),
      ),
    ).toThrow(/bound to the missing object "lever_404"/);
    expect(bad((t) => t.mechanic_bindings.push({ mechanic_type: 'teleport' }))).toThrow(/unknown mechanic_type "teleport"/);
    expect(bad((t) => (t.private_goals = { agent_9: '(is_open x)' }))).toThrow(/private_goals names the undefined agent "agent_9"/);
    expect(bad((t) => (t.num_agents = 5))).toThrow(/num_agents is 5 but 2 agents are named/);
    expect(
      bad((t) => {
        t.problem_pddl = undefined;
        t.scene_id = '123_456';
      }),
    ).toThrow(/names scene 123_456, which is not available here, and carries neither/);
  });
});

describe('goal language and world', () => {
  it('K-depth, stripping, probes and trivial K goals', () => {
    const g = parseGoal(
      '(and (is_open fridge_1) (K agent_0 (K agent_1 (is_on_top cup_1 table_1))) (or (is_closed box_1) (B agent_1 (is_open box_1))))',
    );
    expect(kDepth(g)).toBe(2);
    expect(formatFormula(stripEpistemic(g))).toBe(
      '(and (is_open fridge_1) (is_on_top cup_1 table_1) (or (is_closed box_1) (is_open box_1)))',
    );
    const task = readTasks('sample_tasks.json')[0]!;
    const trivial = { ...task, goal: parseGoal('(and (is_on_top laptop_0 table_19) (K agent_0 (is_on_top laptop_0 table_19)))') };
    expect(trivialKNodes(trivial)).toEqual(['(K agent_0 (is_on_top laptop_0 table_19))']);
  });

  it('answers impossible actions with the reason, and enforces budgets and the graph', () => {
    const { task } = generateTasks({
      n: 1,
      seed: 5,
      depth: 1,
      agents: 3,
      family: 'joint-placement',
      pick: () => ({ graph: 'chain', capabilities: 'full' }),
    })[0]!;
    const w = new World(task);
    const s = w.initialState();
    const barred = task.agents[0]!.barredRooms[0]!;
    expect(w.apply(s, 0, { type: 'Navigate', target: barred })).toMatchObject({ ok: false, text: `You cannot enter ${barred}.` });
    expect(w.apply(s, 0, { type: 'Pick', object: 'nothing_1' })).toMatchObject({ ok: false, text: 'There is no object called nothing_1.' });
    // agent_0 heads a chain agent_0 - agent_2 - agent_1: it may message agent_2 only.
    expect(w.apply(s, 0, { type: 'Communicate', to: ['agent_1'], text: 'hi' })).toMatchObject({
      ok: false,
      text: 'You can only send messages to: agent_2.',
    });
    const budget = task.agents[0]!.messageBudget!;
    for (let i = 0; i < budget; i++) expect(w.apply(s, 0, { type: 'Communicate', to: 'all', text: 'hi' }).ok).toBe(true);
    expect(w.apply(s, 0, { type: 'Communicate', to: 'all', text: 'hi' })).toMatchObject({ ok: false, text: 'You have no messages left.' });
    expect(parseAction('I think so.\nPlace[cup_1, within, cabinet_2, None, None]')).toEqual({
      ok: true,
      action: { type: 'Place', object: 'cup_1', rel: 'in', furniture: 'cabinet_2' },
    });
    expect(parseAction('Communicate[@agent_1 @agent_2 the cup is in cabinet_2]')).toEqual({
      ok: true,
      action: { type: 'Communicate', to: ['agent_1', 'agent_2'], text: 'the cup is in cabinet_2' },
    });
    expect(parseAction('I will think about it').ok).toBe(false);
  });
});

describe('generated tasks and reference teams', () => {
  it('every generated task verifies at its depth, calibrates and needs communication; planner Pass^3 = 1, silent 0', async () => {
    const generated = generateTasks({ n: 12, seed: 11 });
    for (const g of generated) {
      expect(g.verify).toMatchObject({ solvable: true, calibrates: true, needsCommunication: true, trivialK: [] });
      expect(g.verify.kDepth).toBe(g.json.generator && (g.json.generator as { depth: number }).depth);
      expect(g.verify.minToMLevel).toBe(g.verify.kDepth);
    }
    expect(new Set(generated.map((g) => `${g.task.category}/${g.task.agents.length}`)).size).toBeGreaterThanOrEqual(4);
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-embodied-'));
    const file = join(dir, 'tasks.json');
    writeFileSync(file, JSON.stringify(generated.map((g) => g.json)));
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate({
        store,
        suites: ['enacttom'],
        data: file,
        models: ['agent:planner', 'agent:silent', 'agent:broadcast'],
        trials: 3,
        runId: 'teams',
      });
      const { metrics, failures } = await summarizeEpisodes(store, 'teams');
      const overall = (s: string) => metrics.find((m) => m.subject === s)!.scopes.find((x) => x.scope === 'overall')!;
      expect(overall('agent:planner').functional).toMatchObject({ avg: 1, passAtK: 1, passHatK: 1 });
      expect(overall('agent:planner').literal.passHatK).toBe(1);
      expect(overall('agent:silent').functional).toMatchObject({ avg: 0, passAtK: 0, passHatK: 0 });
      expect(failures.find((f) => f.subject === 'agent:silent')!.counts['withheld-information']).toBe(36);
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe('episodes through a real local server', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.stop());

  it('runs every turn and probe over HTTP; malformed replies are counted, not fatal', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-embodied-http-'));
    const file = join(dir, 'tasks.json');
    const g = generateTasks({ n: 1, seed: 2, depth: 2, agents: 2, pick: () => ({ knowledge: 'chain', parts: [] }) })[0]!;
    writeFileSync(file, JSON.stringify([{ ...g.json, turn_limit: 3 }]));
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate({
        store,
        suites: ['enacttom'],
        data: file,
        models: [`openai-compatible:${server.url}/v1#ok`, `openai-compatible:${server.url}/v1#garbage`],
        runId: 'http',
      });
      const { episodes } = await summarizeEpisodes(store, 'http', 1);
      const ok = episodes.find((e) => e.subject.endsWith('#ok'))!;
      const garbage = episodes.find((e) => e.subject.endsWith('#garbage'))!;
      expect(ok.detail).toMatchObject({ functional: false, rounds: 3, malformed: 0 });
      expect(ok.detail.turns.every((t) => t.action === 'Wait')).toBe(true);
      expect(ok.detail.probes.map((p) => p.answer)).toEqual(['unknown', 'unknown']);
      expect(garbage.detail.malformed).toBe(6);
      expect(garbage.detail.turns[0]!.observation).toMatch(/No action found/);
      const stats = await server.stats();
      const prompts = stats.bodies.map((b) => JSON.stringify(b.body));
      // Each agent's system prompt carries its own secrets and no other agent's.
      const informerSecret = g.task.agents[0]!.secrets[0]!;
      expect(prompts.some((p) => p.includes('You are agent_0') && p.includes(informerSecret))).toBe(true);
      expect(prompts.some((p) => p.includes('You are agent_1') && p.includes(informerSecret))).toBe(false);
    } finally {
      await store.close();
    }
  }, 60_000);
});

describe('embodied CLI', () => {
  it("verify prints the sample's K-depth and ToM level; generate writes verified tasks; --evolve reads a run", async () => {
    const run = (...args: string[]) => runCli(args, { cwd: dir });
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-embodied-cli-'));
    const v = await run('embodied', 'verify', join(DATA, 'sample_tasks.json'), '--json');
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout)[0]).toMatchObject({ task: '1512_laptop_on_table_19', kDepth: 0, minToMLevel: 0, solvable: true });
    const g = await run('embodied', 'generate', '--out', 'tasks.json', '--n', '6', '--seed', '4');
    expect(g.code).toBe(0);
    expect(g.stdout).toMatch(/wrote 6 verified task\(s\)/);
    expect((await run('run', 'enacttom', '--data', 'tasks.json', '--model', 'agent:silent', 'agent:planner', '--db', 'm.db')).code).toBe(0);
    const r = await run('embodied', 'results', '--db', 'm.db', '--k', '1', '--json');
    expect(JSON.parse(r.stdout).metrics.map((m: { subject: string }) => m.subject)).toEqual(['agent:planner', 'agent:silent']);
    // The paper's Pass@3 on a run of one trial a task: two of three attempts missing, counted as
    // non-passes and starred, with the figures over the attempts made beside them.
    expect((await run('embodied', 'results', '--db', 'm.db')).stdout).toContain(
      '* partial: some of the 3 planned attempts per task are missing',
    );
    expect((await run('embodied', 'results', '--db', 'm.db', '--k', '1')).stdout).not.toContain('partial');
    const e = await run('embodied', 'generate', '--out', 'evolved.json', '--n', '4', '--evolve', '--db', 'm.db', '--rho', '0.5');
    expect(e.code).toBe(0);
    expect(e.stdout).toMatch(
      /evolved from run run-[0-9a-f]+: 6 task\(s\) failed \(failure ratio >= 0.5\), 0 passed; 4 of 4 seeded from failed ones, rho 0.5\)/,
    );
    expect((await run('embodied', 'generate', '--out', 'x.json', '--evolve', '--db', 'm.db', '--split', 'medium')).stderr).toMatch(
      /--split must be standard or hard/,
    );
    const c = await run('embodied', 'composition', 'evolved.json', '--json');
    expect(JSON.parse(c.stdout)).toMatchObject({ tasks: 4 });
    const bad = await run('embodied', 'verify', join(dir, 'missing.json'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/missing\.json: cannot read as JSON/);
  }, 120_000);
});

describe('failure modes', () => {
  it('reads withheld information, broken chains, ignored constraints, sabotage and disclosure from a trace', async () => {
    const { classifyFailure } = await import('../src/studies/enacttom/index.js');
    const g = generateTasks({ n: 1, seed: 9, depth: 1, agents: 2, category: 'mixed' })[0]!;
    const task = g.task;
    const plan = g.verify.plan!;
    const turn = (round: number, agent: string, action: string, extra: Record<string, unknown> = {}) => ({
      round,
      agent,
      reply: action,
      action,
      ok: true,
      observation: '',
      ...extra,
    });
    const base = {
      taskId: task.id,
      category: task.category,
      kDepth: 1,
      rounds: 9,
      probes: [],
      literal: { correct: 0, total: 1, allCorrect: false },
      privateGoals: {},
      malformed: 0,
    };
    // Nobody talks: the informer's target is never conveyed.
    const silent = classifyFailure(task, {
      ...base,
      functional: false,
      epistemic: false,
      turns: [turn(1, 'agent_0', 'Wait'), turn(1, 'agent_1', 'Wait')],
    });
    expect(silent.map((f) => f.mode)).toEqual(['withheld-information']);
    // The plan's physical steps without its last report: the K goal is missed.
    const physical = plan
      .filter((p) => p.action.type !== 'Communicate' || p.round === 1)
      .map((p) =>
        turn(p.round, p.agent, formatAction(p.action), p.action.type === 'Communicate' ? { delivered: ['agent_1'], conveyed: [] } : {}),
      );
    const broken = classifyFailure(task, { ...base, functional: true, epistemic: false, turns: physical });
    expect(broken.map((f) => f.mode)).toContain('broken-epistemic-chain');
    // After the placement the actor picks the object up again (sabotage), the private-goal
    // holder announces its private goal, and the actor asks the informer to go where it is barred.
    const placed = plan.find((p) => p.action.type === 'Place')!;
    const obj = (placed.action as { object: string }).object;
    const holder = task.agents.find((a) => a.privateGoal)!;
    const barred = task.agents[0]!.barredRooms[0];
    const sidePlaces = formatFormula(holder.privateGoal!).match(/[a-z]+_\d+/g)!;
    const trace = [
      ...physical,
      turn(20, placed.agent, `Pick[${obj}]`),
      turn(20, holder.id, `Communicate[my private goal: I want ${sidePlaces.join(' ')} open]`, { delivered: ['agent_0'], conveyed: [] }),
      turn(21, 'agent_1', `Communicate[@agent_0 please go to ${barred} and place it]`, { delivered: ['agent_0'], conveyed: [] }),
    ];
    const modes = classifyFailure(task, { ...base, functional: false, epistemic: false, turns: trace }).map((f) => f.mode);
    expect(modes).toContain('private-goal');
    expect(modes).toContain('ignored-constraints');
  });
});
