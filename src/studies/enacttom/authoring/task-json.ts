// An embodied task written back as EnactToM task JSON, the format authors read and write: the
// scene as a PDDL problem, the goal, mechanic bindings (room restrictions, message budgets and
// the others), the communication graph, secrets, actions and private goals. Reading the JSON
// back (readEnactTomTask) gives the same task: the seeds an author is shown are the pool's
// tasks themselves, as they were run.

import { formatFormula, kDepth, type EmbodiedTask } from '../world/index.js';

/** The task as EnactToM JSON (readEnactTomTask reads it back to the same task). */
export function writeEnactTomTask(task: EmbodiedTask): Record<string, unknown> {
  const agents = task.agents.map((a) => a.id);
  const init = [
    ...task.agents.map((a) => `(agent_in_room ${a.id} ${a.room})`),
    ...task.furniture.map((f) => `(is_in_room ${f.id} ${f.room})`),
    ...task.furniture.filter((f) => f.openable).map((f) => `(${f.open ? 'is_open' : 'is_closed'} ${f.id})`),
    ...task.furniture.filter((f) => f.locked).map((f) => `(is_locked ${f.id})`),
    ...task.objects.map((o) =>
      o.at.rel === 'held'
        ? `(is_held_by ${o.id} ${o.at.agent})`
        : `(${o.at.rel === 'on' ? 'is_on_top' : 'is_inside'} ${o.id} ${o.at.furniture})`,
    ),
  ];
  const objects = [
    `${agents.join(' ')} - agent`,
    `${task.rooms.join(' ')} - room`,
    ...(task.objects.length ? [`${task.objects.map((o) => o.id).join(' ')} - object`] : []),
    ...(task.furniture.length ? [`${task.furniture.map((f) => f.id).join(' ')} - furniture`] : []),
  ];
  const problem = [
    `(define (problem ${task.id})`,
    '  (:domain enacttom)',
    `  (:objects ${objects.join(' ')})`,
    `  (:init ${init.join(' ')})`,
    `  (:goal ${formatFormula(task.goal)})`,
    ')',
  ].join('\n');
  const bindings: Array<Record<string, unknown>> = [];
  for (const a of task.agents) {
    if (a.barredRooms.length) bindings.push({ mechanic_type: 'room_restriction', agent: a.id, rooms: a.barredRooms });
    if (a.messageBudget !== null) bindings.push({ mechanic_type: 'limited_bandwidth', agent: a.id, count: a.messageBudget });
  }
  if (task.agents.some((a) => a.messageTargets !== null)) bindings.push({ mechanic_type: 'restricted_communication' });
  for (const m of task.mechanics)
    bindings.push({
      mechanic_type: m.type,
      trigger_object: m.trigger ?? null,
      target_object: m.target ?? null,
      target_state: m.targetState ?? null,
      count: null,
    });
  const privateGoals = Object.fromEntries(task.agents.flatMap((a) => (a.privateGoal ? [[a.id, formatFormula(a.privateGoal)]] : [])));
  return {
    task_id: task.id,
    title: task.title,
    category: task.category,
    task: task.text,
    active_mechanics: [...new Set(bindings.map((b) => b.mechanic_type))],
    mechanic_bindings: bindings,
    agent_secrets: Object.fromEntries(task.agents.map((a) => [a.id, a.secrets])),
    agent_actions: Object.fromEntries(task.agents.map((a) => [a.id, a.actions.filter((x) => x !== 'Done')])),
    message_targets: Object.fromEntries(task.agents.flatMap((a) => (a.messageTargets !== null ? [[a.id, a.messageTargets]] : []))),
    private_goals: privateGoals,
    pddl_domain: 'enacttom',
    problem_pddl: problem,
    num_agents: agents.length,
    turn_limit: task.turnLimit,
    tom_level: kDepth(task.goal),
    ...(task.source.generator ? { generator: task.source.generator } : {}),
  };
}
