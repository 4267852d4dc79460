// The scene an author starts from (the paper's workspace is "seeded with the scene graph, a
// blank task template, reference files listing available mechanics, predicates, and actions"):
// a seeded household of four rooms with furniture and objects, the agents' spawn rooms, the
// blank task template that holds them, and the reference lists. `new_scene` draws the next one.

import { createRng } from '../../../core/index.js';
import { ACTION_FORMAT, ACTIONS, MECHANICS, PREDICATES } from '../world/index.js';

const ROOMS = ['kitchen', 'bedroom', 'living_room', 'bathroom', 'office', 'hallway', 'dining_room', 'closet'];
const CONTAINERS = ['cabinet', 'fridge', 'wardrobe', 'chest', 'drawer'];
const SURFACES = ['table', 'counter', 'shelf', 'stand', 'desk'];
const THINGS = ['cup', 'bowl', 'laptop', 'book', 'vase', 'plate', 'toy_truck', 'spectacles', 'picture_frame', 'glass'];

export interface AuthorScene {
  /** 1 for the first scene of a draft, k for the k-th. */
  number: number;
  /** The blank task template: the scene as a PDDL problem with the goal, texts and secrets left to write. */
  template: Record<string, unknown>;
  /** What inspect_scene shows: the scene graph, the template and the reference lists. */
  text: string;
}

const REFERENCE = [
  `Predicates: ${Object.entries(PREDICATES)
    .map(([p, args]) => `(${p} ${args.join(' ')})`)
    .join(' ')}`,
  'Goal operators: and, or, not, and (K agent_i phi): agent_i knows phi (nest K for deeper ToM; K-depth counts the nesting).',
  `Mechanics (mechanic_bindings): ${MECHANICS.join(', ')}. Fields: room_restriction {agent, rooms}; limited_bandwidth {agent, count}; restricted_communication (the graph is message_targets {agent: [agents it may message]}); remote_control {trigger_object, target_object, target_state}; state_mirroring {trigger_object, target_object}; inverse_state {trigger_object}.`,
  `Agent actions (agent_actions): ${ACTIONS.filter((a) => a !== 'Done').join(', ')}. In an episode agents write them as:\n${ACTION_FORMAT}`,
].join('\n');

/** The `number`-th scene of a draft, seeded by the draft. */
export function authorScene(seed: number, draft: number, number: number, category: 'cooperative' | 'mixed', depth: number): AuthorScene {
  const rng = createRng(`enacttom-author-scene:${seed}:${draft}:${number}`);
  let serial = 10 + rng.int(30);
  const id = (kind: string) => `${kind}_${serial++}`;
  const rooms = rng
    .shuffle(ROOMS)
    .slice(0, 4)
    .map((r) => `${r}_1`);
  const furniture = rooms.flatMap((room) => [
    { id: id(rng.pick(CONTAINERS)), room, container: true },
    { id: id(rng.pick(SURFACES)), room, container: false },
  ]);
  const objects = rng
    .shuffle(THINGS)
    .slice(0, 3)
    .map((kind) => ({ id: id(kind), at: rng.pick(furniture) }));
  const agents = Array.from({ length: 2 + rng.int(3) }, (_, i) => `agent_${i}`);
  const spawn = Object.fromEntries(agents.map((a) => [a, rng.pick(rooms)]));
  const init = [
    ...agents.map((a) => `(agent_in_room ${a} ${spawn[a]})`),
    ...furniture.map((f) => `(is_in_room ${f.id} ${f.room})`),
    ...furniture.filter((f) => f.container).map((f) => `(is_closed ${f.id})`),
    ...objects.map((o) => `(${o.at.container ? 'is_inside' : 'is_on_top'} ${o.id} ${o.at.id})`),
  ];
  const problem = [
    `(define (problem REPLACE_WITH_TASK_ID)`,
    '  (:domain enacttom)',
    `  (:objects ${agents.join(' ')} - agent ${rooms.join(' ')} - room ${objects.map((o) => o.id).join(' ')} - object ${furniture.map((f) => f.id).join(' ')} - furniture)`,
    `  (:init ${init.join(' ')})`,
    '  (:goal REPLACE_WITH_GOAL)',
    ')',
  ].join('\n');
  const template: Record<string, unknown> = {
    task_id: 'REPLACE_WITH_UNIQUE_ID',
    title: 'REPLACE_WITH_TITLE',
    category,
    task: 'REPLACE_WITH_PUBLIC_TASK_TEXT',
    mechanic_bindings: [],
    agent_secrets: Object.fromEntries(agents.map((a) => [a, ['REPLACE_WITH_SECRET']])),
    agent_actions: Object.fromEntries(agents.map((a) => [a, ACTIONS.filter((x) => x !== 'Done')])),
    message_targets: {},
    private_goals: {},
    problem_pddl: problem,
    num_agents: agents.length,
    turn_limit: 20,
    tom_level: depth,
  };
  const text = [
    `Scene ${number}`,
    `Rooms: ${rooms.join(', ')}`,
    'Furniture:',
    ...furniture.map((f) => `- ${f.id} in ${f.room} (${f.container ? 'container, closed' : 'surface'})`),
    'Objects:',
    ...objects.map((o) => `- ${o.id} ${o.at.container ? 'inside' : 'on'} ${o.at.id} (${o.at.room})`),
    `Agents: ${agents.map((a) => `${a} starts in ${spawn[a]}`).join('; ')}`,
    '',
    'Blank task template (keep the scene; add furniture, objects or agents only if the task needs them):',
    JSON.stringify(template, null, 2),
    '',
    REFERENCE,
  ].join('\n');
  return { number, template, text };
}
