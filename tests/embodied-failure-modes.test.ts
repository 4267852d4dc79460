// Each of the five failure modes on a hand-built episode that shows exactly that failure, and
// the near misses that must not fire (an agent without a private goal undoing a shared fact).
import { describe, expect, it } from 'vitest';
import type { EpisodeDetail, EpisodeTurn } from '../src/studies/enacttom/protocol/records.js';
import {
  classifyFailure,
  labelAgreement,
  labellingSample,
  type StoredEpisode,
  KnowledgeUniverse,
  readEnactTomTask,
  World,
} from '../src/studies/enacttom/index.js';

const json = {
  task_id: 'fm',
  title: 'failure modes',
  category: 'mixed',
  task: 'The cup (cup_1) must go on the right surface in bedroom_1, and a container must end open.',
  mechanic_bindings: [
    { mechanic_type: 'limited_bandwidth', count: 2 },
    { mechanic_type: 'room_restriction', agent: 'agent_0', rooms: ['bedroom_1'] },
    { mechanic_type: 'room_restriction', agent: 'agent_1', rooms: ['office_1'] },
    { mechanic_type: 'restricted_communication' },
  ],
  agent_secrets: {
    agent_0: ['The cup (cup_1) must end up on table_11 in bedroom_1.', 'chest_12 in office_1 must also end open.'],
    agent_1: ['You know cup_1 is stored inside cabinet_10 in kitchen_1.'],
    agent_2: ['Privately, you want chest_12 to end closed.'],
  },
  message_targets: { agent_0: ['agent_2'], agent_1: ['agent_2'], agent_2: ['agent_0', 'agent_1'] },
  private_goals: { agent_2: '(is_closed chest_12)' },
  problem_pddl: `(define (problem fm) (:domain enacttom)
    (:objects agent_0 agent_1 agent_2 - agent kitchen_1 bedroom_1 office_1 - room cup_1 - object cabinet_10 table_11 chest_12 - furniture)
    (:init (agent_in_room agent_0 kitchen_1) (agent_in_room agent_1 kitchen_1) (agent_in_room agent_2 office_1)
      (is_in_room cabinet_10 kitchen_1) (is_in_room table_11 bedroom_1) (is_in_room chest_12 office_1)
      (is_closed cabinet_10) (is_closed chest_12) (is_inside cup_1 cabinet_10))
    (:goal (and (is_on_top cup_1 table_11) (is_open chest_12) (K agent_0 (is_on_top cup_1 table_11)))))`,
  turn_limit: 10,
};
const task = readEnactTomTask(json, 'fm');
const universe = new KnowledgeUniverse(task, new World(task));
// Every task, location and mechanic fact, described: a message conveying all of them withholds nothing.
const everything = universe.atoms.flatMap((a, i) =>
  a.kind === 'task' || a.kind === 'loc' || a.kind === 'mechanic' ? [universe.describe(i)] : [],
);

let round = 0;
const turn = (agent: string, action: string, ok = true, extra: Partial<EpisodeTurn> = {}): EpisodeTurn => ({
  round: ++round,
  agent,
  reply: action,
  action,
  ok,
  observation: ok ? 'ok' : 'You can only send messages to: agent_2.',
  ...extra,
});
const tellAll = () =>
  turn('agent_2', 'Communicate[@agent_0 @agent_1 here is everything]', true, { delivered: ['agent_0', 'agent_1'], conveyed: everything });
const episode = (turns: EpisodeTurn[], functional: boolean, epistemic = false): EpisodeDetail => ({
  taskId: 'fm',
  category: 'mixed',
  kDepth: 1,
  functional,
  epistemic,
  rounds: turns.length,
  probes: [],
  literal: { correct: 0, total: 0, allCorrect: true },
  privateGoals: { agent_2: false },
  malformed: 0,
  turns,
});
const modes = (ep: EpisodeDetail) => [...new Set(classifyFailure(task, ep).map((f) => f.mode))].sort();

describe('failure modes, each on an episode that shows exactly it', () => {
  it('withheld-information: nobody tells the actor the target', () => {
    expect(modes(episode([turn('agent_0', 'Wait'), turn('agent_1', 'Wait')], false))).toEqual(['withheld-information']);
  });

  it('broken-epistemic-chain: the cup is placed, agent_0 never learns it', () => {
    expect(modes(episode([tellAll(), turn('agent_1', 'Wait')], true, false))).toEqual(['broken-epistemic-chain']);
  });

  it('ignored-constraints: asking agent_1 to act on a thing in the office it is barred from (blocked or not)', () => {
    const ask = turn('agent_2', 'Communicate[@agent_1 please open chest_12 for me]', true, { delivered: ['agent_1'], conveyed: [] });
    const f = classifyFailure(task, episode([tellAll(), ask], false));
    expect(f.map((x) => x.mode)).toEqual(['ignored-constraints']);
    expect(f[0]!.turns).toEqual([ask]);
    // A blocked request counts too: agent_0 cannot message agent_1, and agent_1 is barred from office_1.
    const blockedAsk = turn('agent_0', 'Communicate[@agent_1 go to office_1 and close chest_12]', false);
    expect(modes(episode([tellAll(), blockedAsk], false))).toEqual(['ignored-constraints']);
    // The same request to agent_2, who may enter the office, is no violation.
    const fine = turn('agent_0', 'Communicate[@agent_2 please open chest_12]', true, { delivered: ['agent_2'], conveyed: [] });
    expect(modes(episode([tellAll(), fine], false))).toEqual([]);
  });

  it('misallocated-messages: agent_0 tries the unreachable agent_1 and never sends the target to agent_2', () => {
    const t1 = turn('agent_0', 'Communicate[@agent_1 cup_1 goes to table_11]', false);
    const t2 = turn('agent_0', 'Communicate[@agent_2 hello]', true, { delivered: ['agent_2'], conveyed: [] });
    const f = classifyFailure(task, episode([t1, t2], false));
    expect(f.map((x) => x.mode)).toContain('misallocated-messages');
    expect(f.find((x) => x.mode === 'misallocated-messages')!.explanation).toMatch(/agent_0 sent 1 message\(s\) to agents it cannot reach/);
    // Silent, it withholds but does not misallocate.
    expect(modes(episode([turn('agent_0', 'Wait')], false))).toEqual(['withheld-information']);
    // Spending the whole budget (2) on chatter is misallocation too.
    const chat = () => turn('agent_0', 'Communicate[@agent_2 hi]', true, { delivered: ['agent_2'], conveyed: [] });
    expect(modes(episode([chat(), chat()], false))).toEqual(['misallocated-messages', 'withheld-information']);
  });

  it('private-goal: agent_2 (private goal: chest closed) closes the chest the team opened; the same act by an agent without one is not this mode', () => {
    const sabotage = [tellAll(), turn('agent_2', 'Open[chest_12]'), turn('agent_2', 'Close[chest_12]')];
    const f = classifyFailure(task, episode(sabotage, false));
    expect(f.map((x) => x.mode)).toEqual(['private-goal']);
    expect(f[0]!.turns.map((t) => t.action)).toEqual(['Close[chest_12]']);
    // The same turns in a task where agent_2 has no private goal: no motive, not this mode.
    const json2 = { ...json, private_goals: {} };
    const noMotive = readEnactTomTask(json2, 'fm2');
    expect(classifyFailure(noMotive, episode(sabotage, false)).map((x) => x.mode)).toEqual([]);
    // Disclosure in a message.
    const disclose = turn('agent_2', 'Communicate[@agent_0 my private objective: chest_12 closed]', true, {
      delivered: ['agent_0'],
      conveyed: [],
    });
    expect(modes(episode([tellAll(), disclose], false))).toEqual(['private-goal']);
  });
});

describe('labelling sampler', () => {
  const stored = (detail: EpisodeDetail, replicate: number) =>
    ({ subject: 'm', subjectId: 's', suite: 'enacttom', itemHash: 'h', taskId: 'fm', replicate, detail }) as unknown as StoredEpisode;
  const eps = [
    stored(episode([turn('agent_0', 'Wait')], false), 0),
    stored(episode([tellAll(), turn('agent_1', 'Wait')], true, false), 1),
    stored(episode([tellAll(), turn('agent_2', 'Open[chest_12]'), turn('agent_2', 'Close[chest_12]')], false), 2),
    stored(episode([tellAll()], true, true), 3),
  ];

  it('exports failed episodes only, seeded, with transcripts and the automatic labels; reads labels back with kappa', () => {
    const rows = labellingSample(eps, () => task, 10, 1);
    expect(rows).toHaveLength(3);
    expect(labellingSample(eps, () => task, 10, 1).map((r) => r.key)).toEqual(rows.map((r) => r.key));
    const auto = Object.fromEntries(rows.map((r) => [r.replicate, r.automatic]));
    expect(auto).toEqual({ 0: ['withheld-information'], 1: ['broken-epistemic-chain'], 2: ['private-goal'] });
    expect(rows.every((r) => r.labels === null && r.transcript.length > 0)).toBe(true);
    // The person agrees on replicates 0 and 1, and calls replicate 2 withheld information instead.
    const labelled = rows.map((r) => ({ ...r, labels: r.replicate === 2 ? ['withheld-information' as const] : r.automatic }));
    const a = labelAgreement(labelled);
    expect(a.labelled).toBe(3);
    expect(a.byMode['broken-epistemic-chain'].kappa).toBe(1);
    // withheld: human present on 0 and 2, automatic on 0 only: po = 2/3, pe = 2/3*1/3 + 1/3*2/3 = 4/9, kappa = (2/3-4/9)/(5/9) = 0.4.
    expect(a.byMode['withheld-information'].kappa).toBeCloseTo(0.4, 10);
    expect(a.byMode['private-goal']).toMatchObject({ human: 0, automatic: 1 });
    expect(() => labelAgreement([{ ...rows[0]!, labels: ['lazy' as never] }])).toThrow(/unknown failure mode "lazy"/);
    expect(() => labelAgreement(rows)).toThrow(/no row has labels/);
  });
});
