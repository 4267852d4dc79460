// What the author agent reads: the system prompt (the benchmark, the tools and how to call them,
// the authoring order, what secrets may carry, the task format) and the first user message (the
// category and depth asked for, and the in-context seed tasks). The authoring order and the
// secret rule follow the paper (Section 4.2): "The agent writes the formal pddl goal first, then
// derives [the task description] and per-agent secrets from it", and "Secrets carry only
// constraints, target IDs, and mechanic hints; the prompt forbids encoding coordination strategy,
// which the agents must work out themselves."

import { AUTHOR_TOOLS, TOOL_HELP } from './author-tools.js';
import type { DraftRequest } from './draft-checks.js';
import type { Seed } from './seed-pool.js';

const FORMAT = `TASK is one EnactToM task JSON object: task_id, title, category ("cooperative" or "mixed"), task (the public text every agent reads),
num_agents, agent_secrets {agent_id: [text]}, agent_actions {agent_id: [actions]}, message_targets {agent_id: [agent_id]} (empty: everyone
may message everyone), mechanic_bindings [{mechanic_type, ...}], problem_pddl (a PDDL problem: typed :objects with agent, room, object and
furniture types; :init facts; :goal, with (K agent_id phi) for what an agent must know), turn_limit, private_goals {agent_id: goal} (mixed
tasks: a private side objective for at least one agent), and tom_level (the K-depth of the goal).`;

/** The author agent's system prompt. */
export function authorSystemPrompt(): string {
  return [
    'You author tasks for EnactToM, an embodied multi-agent theory-of-mind benchmark. Agents see only the room they are in;',
    'information flows between them only through messages; the goal checks both the physical outcome and what agents know.',
    '',
    'You work with tools, one call per reply. End every reply with one JSON object {"tool": NAME, "args": {...}}; text before it',
    'is your own notes. The tool answers in the next message. The tools:',
    ...AUTHOR_TOOLS.map((t) => `- ${t} ${TOOL_HELP[t]}`),
    '',
    "Authoring order: write the formal PDDL goal first, then derive the public task description and each agent's secrets from it,",
    'so that the narrative stays anchored to the goal and never drifts from the formal specification.',
    'Secrets carry only constraints, target IDs, and mechanic hints. Never encode coordination strategy in a secret (who should',
    'tell whom what, who should fetch or place what, in which order): the agents must work it out themselves.',
    '',
    FORMAT,
    '',
    "On acceptance the turn limit and each limited agent's message budget are set to twice what the verifier's baseline plan uses.",
    'Test, judge and revise until both pass, then submit.',
  ].join('\n');
}

/** The first user message of one draft: what is asked for, and the seed tasks. */
export function authorRequest(req: DraftRequest, seeds: Seed[], index: number, n: number): string {
  const label = (s: Seed) => (s.failed === undefined ? '' : s.failed ? ' (the target models failed it)' : ' (the target models passed it)');
  return [
    `Write one new ${req.category} task whose goal nests K to depth ${req.depth} (tom_level ${req.depth}).`,
    ...(seeds.length
      ? [
          '',
          'Seed tasks from the pool, as examples:',
          ...seeds.map((s, i) => `Seed task ${i + 1}${label(s)}:\n${JSON.stringify(s.json, null, 2)}`),
        ]
      : []),
    '',
    'Start with inspect_scene.',
    // The index keeps each draft's conversation distinct (and each cached answer its own).
    `(Draft ${index + 1} of ${n}.)`,
  ].join('\n');
}
