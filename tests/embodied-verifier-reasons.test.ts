// Why the verifier finds no plan, on a hand-built relay task (agent_0 knows the goal but may not
// enter the hall where the plate is nor the office where it goes; agent_1 must be told, carry
// it and report back) broken one way at a time: a missing action, a message that cannot flow,
// a barred room, a lock, the ToM level, the turn limit, the message budget, both, an object no
// agent can hand on, and the node cap. Each reason names its kind and the goal part; the CLI
// prints them as "why not" lines and in --json.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatAction, readEnactTomTask, verifyTask } from '../src/studies/enacttom/index.js';
import { runCli } from './helpers/run-cli.js';

const PDDL = `(define (problem relay) (:domain enacttom)
  (:objects agent_0 agent_1 - agent kitchen_1 hall_1 office_1 - room plate_1 - object table_1 counter_2 desk_3 cabinet_4 - furniture)
  (:init (agent_in_room agent_0 kitchen_1) (agent_in_room agent_1 hall_1) (is_in_room table_1 hall_1) (is_in_room counter_2 office_1)
    (is_in_room desk_3 kitchen_1) (is_in_room cabinet_4 hall_1) (is_closed cabinet_4) (is_on_top plate_1 table_1))
  (:goal (and (is_on_top plate_1 counter_2) (K agent_0 (is_on_top plate_1 counter_2)))))`;
const barred = (agent: string, ...rooms: string[]) => ({ mechanic_type: 'room_restriction', agent, rooms });
const relay = {
  task_id: 'relay',
  title: 'relay',
  category: 'cooperative',
  task: 'Tidy the house.',
  agent_secrets: { agent_0: ['The goal needs plate_1 on counter_2.'], agent_1: [] },
  problem_pddl: PDDL,
  mechanic_bindings: [barred('agent_0', 'hall_1', 'office_1')],
  turn_limit: 14,
};
// The same with a cup as well: agent_0 has two goal atoms to tell.
const two = {
  ...relay,
  agent_secrets: { agent_0: ['The goal needs plate_1 and cup_5 on counter_2.'], agent_1: [] },
  problem_pddl: PDDL.replace('plate_1 - object', 'plate_1 cup_5 - object')
    .replace('(is_on_top plate_1 table_1)', '(is_on_top plate_1 table_1) (is_on_top cup_5 table_1)')
    .replace('(:goal (and', '(:goal (and (is_on_top cup_5 counter_2)'),
};
const verify = (raw: Record<string, unknown>, opts?: Parameters<typeof verifyTask>[1]) =>
  verifyTask(readEnactTomTask(raw, 'relay.json'), opts);
const PART = '(is_on_top plate_1 counter_2)';
const K = '(K agent_0 (is_on_top plate_1 counter_2))';
const ACTIONS = ['Navigate', 'Open', 'Close', 'Pick', 'Place', 'Communicate'];

describe('the verifier says why a task is unsolvable', () => {
  it('solves the relay at ToM level 1 in four rounds, with no reason given', () => {
    const v = verify(relay);
    expect(v).toMatchObject({ solvable: true, minToMLevel: 1, rounds: 4, explanations: [], reasons: [] });
    expect(v.plan!.map((p) => `${p.agent} ${formatAction(p.action)}`)).toEqual([
      'agent_0 Communicate[@agent_1 The goal needs (is_on_top plate_1 counter_2).]',
      'agent_1 Pick[plate_1]',
      'agent_0 Wait',
      'agent_1 Navigate[office_1]',
      'agent_0 Wait',
      'agent_1 Place[plate_1, on, counter_2]',
      'agent_0 Wait',
      'agent_1 Communicate[@agent_0 (is_on_top plate_1 counter_2) holds.]',
    ]);
  });

  it('names the missing action, the blocked flow of knowledge, the barred room and the lock', () => {
    const noPick = verify({
      ...relay,
      agent_actions: { agent_0: ['Navigate', 'Place', 'Communicate'], agent_1: ['Navigate', 'Place', 'Communicate'] },
    });
    expect(noPick.reasons).toEqual([
      { kind: 'capability', part: PART, text: `${PART} cannot be reached: no agent has the Pick action, so plate_1 never moves` },
    ]);
    expect(noPick.explanations).toEqual(noPick.reasons.map((r) => r.text));
    const silent = verify({ ...relay, agent_actions: { agent_0: ACTIONS.slice(0, 5), agent_1: ACTIONS } });
    expect(silent.reasons).toEqual([
      {
        kind: 'knowledge',
        part: PART,
        text: `${PART} cannot be reached: agent_1 can never learn the goal needs ${PART}: only agent_0 can know it, and no message from agent_0 reaches anyone (agent_0 has no Communicate action)`,
      },
    ]);
    const graph = verify({ ...relay, message_targets: { agent_0: [], agent_1: ['agent_0'] } });
    expect(graph.explanations).toEqual([
      `${PART} cannot be reached: agent_1 can never learn the goal needs ${PART}: only agent_0 can know it, and no message from agent_0 reaches anyone (agent_0 may message nobody)`,
    ]);
    const office = verify({ ...relay, mechanic_bindings: [barred('agent_0', 'hall_1', 'office_1'), barred('agent_1', 'office_1')] });
    expect(office.reasons).toEqual([
      {
        kind: 'access',
        part: PART,
        text: `${PART} cannot be reached: no agent with Place may enter office_1, where counter_2 is (agent_0, agent_1 are barred from it)`,
      },
      {
        kind: 'knowledge',
        part: K,
        text: `${K} cannot be reached: no agent can ever observe ${PART} (every agent is barred from where it is)`,
      },
    ]);
    const locked = verify({
      ...relay,
      problem_pddl: PDDL.replace('(is_on_top plate_1 table_1)', '(is_inside plate_1 cabinet_4) (is_locked cabinet_4)'),
    });
    expect(locked.reasons).toEqual([
      {
        kind: 'locked',
        part: PART,
        text: `${PART} cannot be reached: plate_1 is inside cabinet_4, which is closed and locked (no unlock action, no mechanic opens it)`,
      },
    ]);
  });

  it('says when the ToM depth, the turn limit or the message budgets bind, with the numbers', () => {
    const level0 = verify(relay, { maxLevel: 0 });
    expect(level0.reasons.map((r) => r.kind)).toEqual(['depth', 'depth', 'depth']);
    expect(level0.explanations[0]).toBe(
      'depth exceeded: the goal (K-depth 1) needs ToM level 1 or more; the verifier searched levels 0 to 0',
    );
    expect(level0.explanations[1]).toBe(
      `${PART} cannot be reached: agent_1 can never learn the goal needs ${PART}: only agent_0 can know it, and passing it on by message needs ToM level 1, not 0`,
    );
    expect(verify({ ...relay, turn_limit: 3 }).reasons).toEqual([
      { kind: 'turn-limit', text: 'turn limit too short: a plan needs 4 round(s), the limit is 3' },
    ]);
    expect(verify(two)).toMatchObject({ solvable: true, rounds: 8 });
    const oneMessage = {
      ...two,
      mechanic_bindings: [...two.mechanic_bindings, { mechanic_type: 'limited_bandwidth', agent: 'agent_0', count: 1 }],
    };
    expect(verify(oneMessage).reasons).toEqual([
      {
        kind: 'message-budget',
        text: 'message budgets too small: with unlimited messages a plan of 8 round(s) exists; it sends agent_0 2 message(s) (budget 1)',
      },
    ]);
    expect(verify({ ...oneMessage, turn_limit: 5 }).explanations).toEqual([
      'turn limit too short: a plan needs 8 round(s), the limit is 5',
      'message budgets too small: that plan sends agent_0 2 message(s) (budget 1)',
    ]);
  });

  it('tells a relaxed-reachable goal no plan reaches from a search cut short', () => {
    // agent_1 may not carry the plate into the office and agent_0 may not fetch it from the hall.
    const handoff = verify({ ...relay, mechanic_bindings: [barred('agent_0', 'hall_1'), barred('agent_1', 'office_1')] });
    expect(handoff).toMatchObject({ solvable: false, reasons: [{ kind: 'conflict' }] });
    expect(handoff.explanations[0]).toMatch(
      /^no plan even with 42 rounds, though each part of the goal is reachable in the relaxed analysis/,
    );
    const capped = verify(relay, { maxNodes: 5 });
    expect(capped).toMatchObject({ solvable: 'undecided', reasons: [{ kind: 'node-cap' }] });
    expect(capped.explanations[0]).toBe(
      'undecided: the search reached its cap of 5 nodes before finding a plan or exhausting the 14 round(s); every part of the goal is reachable on its own',
    );
  });

  it('embodied verify prints each reason as a "why not" line, and --json gives them with their kinds', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-verify-reasons-'));
    const file = join(dir, 'tasks.json');
    writeFileSync(file, JSON.stringify([relay, { ...relay, task_id: 'short', turn_limit: 3 }]));
    const text = await runCli(['embodied', 'verify', file]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('task short\n  K-depth 1; solvable false; minimal ToM level none');
    expect(text.stdout).toContain('  why not: turn limit too short: a plan needs 4 round(s), the limit is 3\n');
    expect(text.stdout.match(/why not/g)).toHaveLength(1);
    const json = JSON.parse((await runCli(['embodied', 'verify', file, '--json'])).stdout);
    expect(json.map((r: { reasons: unknown[] }) => r.reasons)).toEqual([
      [],
      [{ kind: 'turn-limit', text: 'turn limit too short: a plan needs 4 round(s), the limit is 3' }],
    ]);
  });
});
