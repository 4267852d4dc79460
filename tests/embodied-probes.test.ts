// Literal probes of embodied episodes ask an agent, in words, what a partner thinks or knows,
// and grade the answer against the partner's tracked belief, not the world: on a hand-built
// false-belief episode (agent_0 leaves, agent_1 moves the cup) an answer that reports the world
// is wrong; messages pass on false beliefs; the questions show no goal language; the reference
// teams separate (planner reports every partner right, reality reports the world and misses
// every probe where the two part, silent reports well and acts badly); records of the earlier
// probe form still read and are left out of the literal rates; and, over random action
// sequences, whoever the knowledge tracking says knows where an object is believes the truth.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { openStore } from '../src/index.js';
import { readRecord, type ChatMessage, type TrialModel } from '../src/core/index.js';
import {
  EPISODE_RECORDS,
  goalProbes,
  runEpisode,
  generateTasks,
  episodeMetrics,
  episodeOutcome,
  summarizeEpisodes,
  EpisodeMinds,
  KnowledgeUniverse,
  NO_PLACE,
  parseGoal,
  readEnactTomTask,
  World,
  type Action,
  type EmbodiedTask,
} from '../src/studies/enacttom/index.js';
import { renderEpisodeSection } from '../src/studies/enacttom/index.js';
import { evaluate } from './helpers/evaluate.js';

// Sally and Anne in a household: agent_0 sees cup_1 on table_1 and goes to the hall; agent_1
// puts the cup inside fridge_3 and leaves the fridge open; agent_2 stays in the hall throughout.
const sally = readEnactTomTask(
  {
    task_id: 'sally',
    title: 'the moved cup',
    category: 'cooperative',
    task: 'Put cup_1 inside fridge_3 and leave fridge_3 open.',
    agent_secrets: { agent_0: [], agent_1: [], agent_2: [] },
    problem_pddl: `(define (problem sally) (:domain enacttom)
      (:objects agent_0 agent_1 agent_2 - agent kitchen_1 hall_1 - room cup_1 - object table_1 fridge_3 bench_2 - furniture)
      (:init (agent_in_room agent_0 kitchen_1) (agent_in_room agent_1 kitchen_1) (agent_in_room agent_2 hall_1)
        (is_in_room table_1 kitchen_1) (is_in_room fridge_3 kitchen_1) (is_in_room bench_2 hall_1)
        (is_closed fridge_3) (is_on_top cup_1 table_1))
      (:goal (and (is_inside cup_1 fridge_3) (is_open fridge_3) (K agent_0 (is_inside cup_1 fridge_3)) (K agent_2 (is_open fridge_3)))))`,
    turn_limit: 6,
  },
  'sally',
);

// Each agent's action per round (Done once its list runs out).
const MOVE = {
  agent_0: ['Navigate[hall_1]', 'Wait', 'Wait', 'Done'],
  agent_1: ['Wait', 'Pick[cup_1]', 'Open[fridge_3]', 'Place[cup_1, within, fridge_3]', 'Done'],
  agent_2: ['Wait', 'Wait', 'Wait', 'Done'],
};

const text = (m: ChatMessage | undefined) => (typeof m?.content === 'string' ? m.content : '');

/** A subject that plays a fixed script and answers each probe with `answer(question)`. */
function scripted(script: Record<string, string[]>, answer: (question: string) => string): TrialModel {
  return {
    subjectId: 'scripted',
    spec: 'scripted',
    async chat(messages) {
      const agent = /You are (agent_\d+)/.exec(text(messages[0]))![1]!;
      const user = text(messages.at(-1));
      const turn = /^Turn (\d+) of/.exec(user);
      // A probe's question is the prompt's last paragraph (its history and view come before it).
      const reply = turn
        ? (script[agent]?.[Number(turn[1]) - 1] ?? 'Done')
        : JSON.stringify({ answer: answer(user.split('\n\n').at(-1)!) });
      return { text: reply, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, finishReason: 'stop' };
    },
  };
}

// An agent that reports the world: where cup_1 is and what state fridge_3 is in, at the end.
const reportsTheWorld = (q: string) => (q.includes('cup_1') ? 'fridge_3' : 'open');
// An agent that tracked what each partner saw: agent_0 last saw the cup on table_1 and the
// fridge closed; agent_2 saw neither.
const SAW: Record<string, Record<string, string>> = {
  agent_0: { cup_1: 'table_1', fridge_3: 'closed' },
  agent_2: { cup_1: 'unknown', fridge_3: 'unknown' },
};
const reportsThePartner = (q: string) => {
  const about = /does (agent_\d+) think/.exec(q)![1]!;
  return SAW[about]![q.includes('cup_1') ? 'cup_1' : 'fridge_3']!;
};

const PDDL =
  /\((?:K|B|and|or|not)\s|\b(?:is_on_top|is_inside|is_in_room|is_open|is_closed|is_locked|is_unlocked|is_held_by|agent_in_room)\b/;

describe('literal probes ask about a partner, graded against its belief', () => {
  it('a partner who did not see the move: reporting the world is wrong, reporting its belief is right', async () => {
    const world = await runEpisode(sally, scripted(MOVE, reportsTheWorld), { replicate: 0, seed: 1 });
    expect(world.functional).toBe(true);
    const asked = world.probes.map((p) => `${p.agent}->${p.about} ${p.kind} ${p.source} ${p.expected} (world ${p.worldAnswer})`);
    expect(asked).toEqual([
      'agent_1->agent_0 location goal table_1 (world fridge_3)',
      'agent_2->agent_0 location goal table_1 (world fridge_3)',
      'agent_0->agent_2 state goal unknown (world open)',
      'agent_1->agent_2 state goal unknown (world open)',
      // agent_2 never saw the cup: asked of the next agent, agent_0.
      'agent_0->agent_2 location contrast unknown (world fridge_3)',
    ]);
    expect(world.probes.map((p) => p.answer)).toEqual(['fridge_3', 'fridge_3', 'open', 'open', 'fridge_3']);
    expect(world.probes.every((p) => !p.correct)).toBe(true);
    expect(world.literal).toMatchObject({
      correct: 0,
      total: 5,
      allCorrect: false,
      form: 'partner-belief',
      divergent: { correct: 0, total: 5 },
    });

    const partner = await runEpisode(sally, scripted(MOVE, reportsThePartner), { replicate: 0, seed: 1 });
    expect(partner.probes.map((p) => p.answer)).toEqual(['table_1', 'table_1', 'unknown', 'unknown', 'unknown']);
    expect(partner.literal).toMatchObject({ correct: 5, total: 5, allCorrect: true, divergent: { correct: 5, total: 5 } });
    // The formal node stays in the record; the question is in words, to another agent, about the partner.
    expect(partner.probes[0]).toMatchObject({ formula: '(K agent_0 (is_inside cup_1 fridge_3))', agent: 'agent_1', about: 'agent_0' });
    expect(partner.probes[0]!.question).toMatch(/^Where does agent_0 think cup_1 is\?/);
    expect(partner.probes[2]!.question).toMatch(/^What state does agent_2 think fridge_3 is in: open or closed\?/);
    for (const p of partner.probes) {
      expect(p.question).not.toMatch(PDDL);
      expect(p.agent).not.toBe(p.about);
    }
  });

  it('a message passes on a false belief: agent_2, told the cup is on table_1, thinks so', async () => {
    const told = { ...MOVE, agent_0: ['Navigate[hall_1]', 'Wait', 'Wait', 'Communicate[@agent_2 cup_1 is on table_1]', 'Done'] };
    const ep = await runEpisode(sally, scripted(told, reportsTheWorld), { replicate: 0, seed: 1 });
    const probe = ep.probes.find((p) => p.about === 'agent_2' && p.kind === 'location')!;
    expect(probe).toMatchObject({ agent: 'agent_0', expected: 'table_1', worldAnswer: 'fridge_3', answer: 'fridge_3', correct: false });
    // It was told a belief, not knowledge: the knowledge tracking conveyed nothing.
    expect(ep.turns.find((t) => t.action?.startsWith('Communicate'))!.conveyed).toEqual([]);
  });

  it('a stale report does not overwrite a fresher one, whichever comes first', () => {
    // agent_0 leaves (it last saw cup_1 on table_1); agent_1 picks the cup up; both tell agent_2.
    const fresh: [number, Action] = [1, { type: 'Communicate', to: ['agent_2'], text: 'cup_1 is held by agent_1' }];
    const stale: [number, Action] = [0, { type: 'Communicate', to: ['agent_2'], text: 'cup_1 is on table_1' }];
    for (const order of [
      [fresh, stale],
      [stale, fresh],
    ]) {
      const world = new World(sally);
      const state = world.initialState();
      const minds = new EpisodeMinds(new KnowledgeUniverse(sally, world), state);
      const steps: Array<[number, Action]> = [
        [0, { type: 'Navigate', target: 'hall_1' }],
        [1, { type: 'Pick', object: 'cup_1' }],
        ...order,
      ];
      for (const [a, action] of steps) expect(minds.act(state, a, action).ok).toBe(true);
      expect([0, 1, 2].map((a) => minds.beliefs.placeName(a, 0))).toEqual(['table_1', 'agent_1', 'agent_1']);
    }
  });

  it('words nested knowledge and compound facts, with "you" for the agent asked', () => {
    const world = new World(sally);
    const probes = goalProbes(
      {
        ...sally,
        goal: parseGoal(
          '(and (K agent_0 (K agent_1 (is_held_by cup_1 agent_1))) (B agent_2 (or (is_open fridge_3) (not (is_on_top cup_1 table_1)))))',
        ),
      },
      world,
    );
    expect(probes.map((p) => `${p.asked}: ${p.question.split('\n')[0]}`)).toEqual([
      'agent_1: Does agent_0 know that you know that you are holding cup_1?',
      'agent_2: Does agent_0 know that agent_1 knows that agent_1 is holding cup_1?',
      'agent_0: Where does agent_1 think cup_1 is? Name the furniture it is on or inside, or the agent holding it. If agent_1 has neither seen it nor been told, answer "unknown".',
      'agent_2: Where does agent_1 think cup_1 is? Name the furniture it is on or inside, or the agent holding it. If agent_1 has neither seen it nor been told, answer "unknown".',
      'agent_0: Does agent_2 think that either fridge_3 is open, or it is not the case that cup_1 is on table_1? Answer "yes" if agent_2 thinks so, "no" if agent_2 thinks not, "unknown" if agent_2 has no belief either way.',
      'agent_1: Does agent_2 think that either fridge_3 is open, or it is not the case that cup_1 is on table_1? Answer "yes" if agent_2 thinks so, "no" if agent_2 thinks not, "unknown" if agent_2 has no belief either way.',
    ]);
    expect(probes.map((p) => p.kind)).toEqual(['knows', 'knows', 'location', 'location', 'fact', 'fact']);
  });

  it('reads answers in words or JSON, and refuses a reply that names two places', async () => {
    const replies = ['{"answer": "agent_0 thinks it is on table_1"}', 'table_1 or fridge_3', 'I think agent_0 does not know.'];
    let i = 0;
    const model = scripted(MOVE, () => '');
    const varied: TrialModel = {
      ...model,
      async chat(messages, settings, context) {
        const r = await model.chat(messages, settings, context);
        return /^Turn \d+/.test(text(messages.at(-1))) ? r : { ...r, text: replies[i++ % replies.length]! };
      },
    };
    const ep = await runEpisode(sally, varied, { replicate: 0, seed: 1 });
    expect(ep.probes.slice(0, 2).map((p) => [p.answer, p.correct])).toEqual([
      ['table_1', true],
      [null, false],
    ]);
    // "does not know" on a state probe is the answer unknown.
    expect(ep.probes[2]).toMatchObject({ kind: 'state', answer: 'unknown', correct: true });
  });
});

describe('reference teams on literal probes', () => {
  it('planner reports every partner right; reality reports the world and misses every probe where they part; silent reports well, acts badly', async () => {
    const generated = generateTasks({ n: 8, seed: 11 });
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-embodied-probes-'));
    const file = join(dir, 'tasks.json');
    writeFileSync(file, JSON.stringify(generated.map((g) => g.json)));
    const store = await openStore(join(dir, 'm.db'));
    try {
      await evaluate({
        store,
        suites: ['enacttom'],
        data: file,
        models: ['agent:planner', 'agent:reality', 'agent:silent'],
        runId: 'probes',
      });
      const { metrics, episodes } = await summarizeEpisodes(store, 'probes', 1);
      const overall = (s: string) => metrics.find((m) => m.subject === s)!.scopes.find((x) => x.scope === 'overall')!;
      expect(overall('agent:planner')).toMatchObject({ probeAccuracy: 1, divergentAccuracy: 1, legacyRuns: 0 });
      expect(overall('agent:planner').functional.avg).toBe(1);
      expect(overall('agent:planner').literal.avg).toBe(1);
      // reality acts as planner does, so the partners' beliefs are the same; it reports the world.
      const reality = overall('agent:reality');
      expect(reality.functional.avg).toBe(1);
      expect(reality.divergentProbes).toBe(overall('agent:planner').divergentProbes);
      expect(reality.divergentProbes).toBeGreaterThan(0);
      expect(reality.divergentAccuracy).toBe(0);
      expect(reality.probeAccuracy!).toBeLessThan(1);
      expect(reality.literal.avg).toBeLessThan(1);
      // Where the partner's belief is the world's, reporting the world is right.
      const realityProbes = episodes.filter((e) => e.subject === 'agent:reality').flatMap((e) => e.detail.probes);
      expect(realityProbes.every((p) => p.correct === (p.expected === p.worldAnswer))).toBe(true);
      expect(realityProbes.some((p) => p.source === 'contrast')).toBe(true);
      // silent: the act-report gap at its widest.
      expect(overall('agent:silent')).toMatchObject({ probeAccuracy: 1, gap: 1 });
      for (const p of episodes.flatMap((e) => e.detail.probes)) {
        expect(p.question).not.toMatch(PDDL);
        expect(p.question).toContain(p.about!);
        expect(p.agent).not.toBe(p.about);
      }
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe('stored records of the earlier probe form', () => {
  // As the earlier protocol wrote it: the agent named by the K goal asked whether the fact held.
  const earlier = {
    taskId: 'sally',
    category: 'cooperative',
    kDepth: 1,
    functional: true,
    epistemic: false,
    rounds: 4,
    probes: [
      {
        agent: 'agent_0',
        formula: '(K agent_0 (is_inside cup_1 fridge_3))',
        question: 'Does (is_inside cup_1 fridge_3) hold now, as far as you know? Answer in JSON: {"answer": "yes" | "no" | "unknown"}',
        reply: '{"answer": "yes"}',
        answer: 'yes',
        expected: 'yes',
        correct: true,
      },
    ],
    literal: { correct: 1, total: 1, allCorrect: true },
    privateGoals: {},
    malformed: 0,
    turns: [],
  };

  it('still read; keep their functional outcome; their literal one is left out and the report says so', () => {
    const detail = readRecord(EPISODE_RECORDS, { protocol: 'episode', calls: [], detail: earlier }, 'sally')!;
    expect(episodeOutcome(detail)).toMatchObject({ functional: true, literal: false, probesTotal: 0, legacyProbes: true });
    const now = {
      ...detail,
      literal: { correct: 0, total: 2, allCorrect: false, form: 'partner-belief' as const, divergent: { correct: 0, total: 1 } },
    };
    const trials = [
      { subject: 'm', taskId: 'a', replicate: 0, ...episodeOutcome(detail) },
      { subject: 'm', taskId: 'b', replicate: 0, ...episodeOutcome(now) },
    ];
    const overall = episodeMetrics(trials, 1)[0]!.scopes[0]!;
    expect(overall).toMatchObject({ runs: 2, legacyRuns: 1, probeAccuracy: 0, divergentAccuracy: 0, divergentProbes: 1 });
    expect(overall.functional.avg).toBe(1);
    expect(overall.literal.avg).toBe(0);
    const html = renderEpisodeSection({ metrics: episodeMetrics(trials, 1), failures: [], episodes: [] });
    expect(html).toContain('1 run(s) were stored with the earlier literal probes');
  });
});

describe('beliefs and knowledge agree', () => {
  it('over random action sequences, an agent the knowledge tracking says knows where an object is believes the truth', () => {
    const tasks: EmbodiedTask[] = [sally, ...generateTasks({ n: 2, seed: 7, agents: 3 }).map((g) => g.task)];
    // Kinds of step (see `actions` below), weighted towards moving things and telling beliefs.
    const kind = fc.oneof(
      { arbitrary: fc.constantFrom(0, 2, 3), weight: 2 },
      { arbitrary: fc.constant(1), weight: 1 },
      { arbitrary: fc.constant(4), weight: 3 },
      { arbitrary: fc.constantFrom(5, 6), weight: 1 },
    );
    const step = fc.record({ agent: fc.nat(5), kind, x: fc.nat(5), y: fc.nat(5), on: fc.boolean() });
    fc.assert(
      fc.property(fc.nat(tasks.length - 1), fc.array(step, { maxLength: 60 }), (t, steps) => {
        const task = tasks[t]!;
        const world = new World(task);
        const state = world.initialState();
        const minds = new EpisodeMinds(new KnowledgeUniverse(task, world), state);
        const { knowledge, beliefs } = minds;
        const pick = <T>(xs: readonly T[], i: number) => xs[i % xs.length]!;
        for (const s of steps) {
          const a = s.agent % world.agents.length;
          const [object, furniture] = [pick(world.objects, s.x), pick(world.furniture, s.y)];
          const actions: Action[] = [
            { type: 'Navigate', target: pick(world.rooms, s.x) },
            { type: s.on ? 'Open' : 'Close', furniture },
            { type: 'Pick', object },
            {
              type: 'Place',
              object: state.holding[a]! >= 0 ? world.objects[state.holding[a]!]! : object,
              rel: s.on ? 'on' : 'in',
              furniture,
            },
            // What the sender thinks (true or stale), or a claim picked at random.
            {
              type: 'Communicate',
              to: [world.agents[(a + 1 + (s.y % (world.agents.length - 1))) % world.agents.length]!],
              text: `${object} is at ${beliefs.placeName(a, world.objects.indexOf(object)) ?? 'unknown'}`,
            },
            {
              type: 'Communicate',
              to: 'all',
              text: `${object} is ${s.on ? 'on' : 'inside'} ${furniture}, and ${furniture} is ${s.on ? 'open' : 'closed'}`,
            },
            { type: 'Wait' },
          ];
          minds.act(state, a, actions[s.kind]!);
          for (let b = 0; b < world.agents.length; b++) {
            for (let o = 0; o < world.objects.length; o++) {
              const i = knowledge.u.tables.locAtom[o]!;
              if (i >= 0 && knowledge.knows(b, i)) expect(beliefs.place[b]![o]).toBe(state.objLoc[o]);
              // What an agent sees in its room, it believes.
              if (world.objectRoom(state, o) === state.agentRoom[b] && world.visible(state, o))
                expect(beliefs.place[b]![o]).toBe(state.objLoc[o]);
              expect(beliefs.place[b]![o] === NO_PLACE || beliefs.placeName(b, o) !== null).toBe(true);
            }
            for (let f = 0; f < world.furniture.length; f++)
              if (world.furnitureRoom[f] === state.agentRoom[b]) expect(beliefs.open[b]![f]).toBe(state.open[f]);
          }
        }
      }),
      { seed: 42, numRuns: 150 },
    );
  });
});
