// What each agent reads on its turn: who it is, the public task, its secrets, the rules and the
// action format (system); then the turn, its recent history, the messages delivered to it and
// what it sees (user). Prompts are rebuilt every turn from a short memory, so they stay within
// small models' contexts and identical inputs hit the call cache. At the end, a literal probe
// shows the agent its whole episode (its turns and the messages it got) before the question.

import { ACTION_FORMAT, FIND_TOOLS, type EmbodiedTask } from '../world/index.js';

/** The system prompt an agent plays under: the task text, its secrets, actions and constraints. */
export function systemPrompt(task: EmbodiedTask, agent: string): string {
  const a = task.agents.find((x) => x.id === agent)!;
  const others = task.agents.filter((x) => x.id !== agent).map((x) => x.id);
  const rules = [
    'You act once per turn; you see only the room you are in.',
    'Messages reach the other agents at the start of their next turn.',
    a.messageBudget !== null ? `You may send at most ${a.messageBudget} message(s) in total.` : '',
    a.messageTargets !== null ? `You may message only: ${a.messageTargets.join(', ') || 'nobody'}.` : '',
    a.barredRooms.length ? `You may not enter: ${a.barredRooms.join(', ')}.` : '',
    `Your actions: ${[...a.actions.filter((x) => x !== 'Done'), ...FIND_TOOLS.map((t) => t.name)].join(', ')}, Done.`,
  ].filter(Boolean);
  return [
    `You are ${agent}, working in a household with ${others.join(', ')}.`,
    `Task: ${task.text}`,
    a.secrets.length ? `What only you know:\n${a.secrets.map((s) => `- ${s}`).join('\n')}` : 'You have no private information.',
    `Rules:\n${rules.map((r) => `- ${r}`).join('\n')}`,
    `Action format (exactly one per turn, on the last line of your reply):\n${ACTION_FORMAT}`,
  ].join('\n\n');
}

/** The prompt for one agent's turn: what it sees, what it was told and the history of its own turns. */
export function turnPrompt(opts: { round: number; limit: number; history: string[]; inbox: string[]; view: string }): string {
  return [
    `Turn ${opts.round} of ${opts.limit}.`,
    opts.history.length ? `Your recent turns:\n${opts.history.join('\n')}` : '',
    opts.inbox.length ? `Messages for you:\n${opts.inbox.join('\n')}` : 'No new messages.',
    opts.view,
    'Your action?',
  ]
    .filter(Boolean)
    .join('\n\n');
}

/**
 * The prompt for a literal probe at the end of the episode: the agent's own turns and the
 * messages it received (what it could have tracked), what it sees now, and the question.
 */
export function probePrompt(opts: { history: string[]; received: string[]; view: string; question: string }): string {
  return [
    'The episode is over. Answer a question about what another agent thinks or knows, from what you saw and were told.',
    opts.history.length ? `Your turns:\n${opts.history.join('\n')}` : '',
    opts.received.length ? `Messages you received:\n${opts.received.join('\n')}` : 'You received no messages.',
    opts.view,
    opts.question,
  ]
    .filter(Boolean)
    .join('\n\n');
}
