// The perception tools of the EnactToM agents (FindObjectTool, FindReceptacleTool, FindRoomTool,
// FindAgentActionTool) in the text world: offered to every agent, parsed and written back in the
// release's form, and answered from what the asking agent saw and was told, not from the world:
// in a false-belief episode (agent_0 leaves, agent_1 moves the cup into the fridge) agent_0 finds
// the cup where it last saw it, agent_1 where it is, and agent_2, who never saw it, nowhere;
// queries match names and where things are.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, TrialModel } from '../src/core/index.js';
import {
  formatAction,
  parseAction,
  readEnactTomTask,
  readEnactTomTasks,
  runEpisode,
  systemPrompt,
  World,
} from '../src/studies/enacttom/index.js';

const task = readEnactTomTask(
  {
    task_id: 'moved-cup',
    title: 'the moved cup',
    category: 'cooperative',
    task: 'Put cup_1 inside fridge_3.',
    agent_secrets: { agent_0: [], agent_1: [], agent_2: [] },
    problem_pddl: `(define (problem moved) (:domain enacttom)
      (:objects agent_0 agent_1 agent_2 - agent kitchen_1 hall_1 - room cup_1 - object table_1 fridge_3 bench_2 - furniture)
      (:init (agent_in_room agent_0 kitchen_1) (agent_in_room agent_1 kitchen_1) (agent_in_room agent_2 hall_1)
        (is_in_room table_1 kitchen_1) (is_in_room fridge_3 kitchen_1) (is_in_room bench_2 hall_1)
        (is_closed fridge_3) (is_on_top cup_1 table_1))
      (:goal (is_inside cup_1 fridge_3)))`,
    turn_limit: 6,
  },
  'moved-cup',
);

const text = (m: ChatMessage | undefined) => (typeof m?.content === 'string' ? m.content : '');

/** A subject that plays each agent's script turn by turn (Done once it runs out) and answers probes "unknown". */
function scripted(script: Record<string, string[]>): TrialModel {
  return {
    subjectId: 'scripted',
    spec: 'scripted',
    async chat(messages) {
      const agent = /You are (agent_\d+)/.exec(text(messages[0]))![1]!;
      const turn = /^Turn (\d+) of/.exec(text(messages.at(-1)));
      const reply = turn ? (script[agent]?.[Number(turn[1]) - 1] ?? 'Done') : '{"answer": "unknown"}';
      return { text: reply, usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, finishReason: 'stop' };
    },
  };
}

describe('Find tools', () => {
  it('are parsed in the release form (or without "Tool") and written back in it', () => {
    expect(parseAction('Thought: where is it?\nFindObjectTool[cup]')).toEqual({
      ok: true,
      action: { type: 'Find', tool: 'object', query: 'cup' },
    });
    expect(parseAction('FindReceptacle[fridge]')).toEqual({ ok: true, action: { type: 'Find', tool: 'receptacle', query: 'fridge' } });
    expect(parseAction('FindRoomTool[]')).toEqual({ ok: true, action: { type: 'Find', tool: 'room', query: '' } });
    expect(parseAction('FindAgentActionTool[None]')).toEqual({ ok: true, action: { type: 'Find', tool: 'agent', query: '' } });
    expect(parseAction('FindAgent[agent_1]')).toEqual({ ok: true, action: { type: 'Find', tool: 'agent', query: 'agent_1' } });
    expect(formatAction({ type: 'Find', tool: 'receptacle', query: 'fridge' })).toBe('FindReceptacleTool[fridge]');
    expect(formatAction({ type: 'Find', tool: 'agent', query: '' })).toBe('FindAgentActionTool[]');
  });

  it('are offered to every agent, change nothing in the world, and the release lists them without a note', () => {
    const prompt = systemPrompt(task, 'agent_2');
    expect(prompt).toContain('FindObjectTool, FindReceptacleTool, FindRoomTool, FindAgentActionTool, Done.');
    expect(prompt).toContain('FindObjectTool[name] (where you last saw or were told an object is');
    const w = new World(task);
    const s = w.initialState();
    const before = JSON.stringify(Object.values(s).map((x) => [...x]));
    expect(w.apply(s, 2, { type: 'Find', tool: 'object', query: 'cup' })).toMatchObject({
      ok: true,
      changedFurniture: [],
      movedObjects: [],
    });
    expect(JSON.stringify(Object.values(s).map((x) => [...x]))).toBe(before);
    // The released sample lists FindObjectTool, FindReceptacleTool and FindRoomTool for each agent.
    const sample = readEnactTomTasks(
      JSON.parse(readFileSync(join(__dirname, 'fixtures', 'data', 'enacttom', 'sample_tasks.json'), 'utf8')),
      'sample_tasks.json',
    )[0]!;
    expect(sample.source.notes.join('\n')).not.toMatch(/Find\w+Tool/);
  });

  it('answer from what the agent saw and was told: a stale place, the true one, none', async () => {
    const ep = await runEpisode(
      task,
      scripted({
        agent_0: ['Navigate[hall_1]', 'Wait', 'Wait', 'FindObjectTool[cup]', 'FindReceptacleTool[fridge]', 'FindAgentActionTool[agent_1]'],
        agent_1: [
          'FindObjectTool[red cup]',
          'Pick[cup_1]',
          'Open[fridge_3]',
          'Place[cup_1, within, fridge_3]',
          'FindObjectTool[cup]',
          'FindRoomTool[hall]',
        ],
        agent_2: [
          'FindReceptacleTool[table in the kitchen]',
          'FindObjectTool[red cup]',
          'Wait',
          'FindObjectTool[cup_1]',
          'FindAgentActionTool[]',
          'FindRoomTool[garage]',
        ],
      }),
      { replicate: 0, seed: 1 },
    );
    const seen = (agent: string, round: number) => ep.turns.find((t) => t.agent === agent && t.round === round)!;
    expect(ep.functional).toBe(true);
    expect(seen('agent_0', 4)).toMatchObject({
      action: 'FindObjectTool[cup]',
      ok: true,
      observation: 'cup_1: on table_1 in kitchen_1 (as far as you know).',
    });
    expect(seen('agent_0', 5).observation).toBe('fridge_3: in kitchen_1, closed.');
    expect(seen('agent_0', 6).observation).toBe('agent_1: last seen in kitchen_1.');
    expect(seen('agent_1', 5).observation).toBe('cup_1: inside fridge_3 in kitchen_1 (you see it).');
    expect(seen('agent_1', 6).observation).toBe('hall_1: bench_2.');
    // A query is matched against names and where things are; with no thing holding every word, any word will do.
    expect(seen('agent_1', 1).observation).toBe('cup_1: on table_1 in kitchen_1 (you see it).');
    expect(seen('agent_2', 1).observation).toBe('table_1: in kitchen_1.');
    expect(seen('agent_2', 2).observation).toBe('You know of no object matching "red cup".');
    expect(seen('agent_2', 4).observation).toBe('cup_1: you have not seen it, and nobody told you where it is.');
    expect(seen('agent_2', 5).observation).toBe('agent_0: here in hall_1; last seen doing Wait.\nagent_1: you do not know where it is.');
    expect(seen('agent_2', 6).observation).toBe('There is no room matching "garage". Rooms: kitchen_1, hall_1.');
    // Find turns are actions like any other: none is malformed.
    expect(ep.malformed).toBe(0);
  });
});
