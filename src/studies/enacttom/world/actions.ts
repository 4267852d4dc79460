// The documented text format of actions, one per turn:
//   Navigate[kitchen_1]  Navigate[cabinet_35]      go to a room, or to the room of a thing
//   Open[cabinet_35]  Close[cabinet_35]
//   Pick[laptop_0]
//   Place[laptop_0, on, table_19]  Place[cup_1, within, cabinet_2]   (EnactToM's trailing ", None, None" is accepted)
//   Communicate[message]                            to everyone you may message
//   Communicate[@agent_1 @agent_2 message]          to the agents named first
//   FindObjectTool[plate]  FindReceptacleTool[cabinet]  FindRoomTool[kitchen]  FindAgentActionTool[agent_1]
//                                                   perception tools every agent has (find-tools.ts);
//                                                   the trailing "Tool" may be left out
//   Wait  Done
// parseAction reads the first action in a model's reply; anything else is a clear error.

import type { Action, FindTool } from './world.js';

/** The perception tools by the names the EnactToM release gives them. */
export const FIND_TOOLS: ReadonlyArray<{ name: string; tool: FindTool }> = [
  { name: 'FindObjectTool', tool: 'object' },
  { name: 'FindReceptacleTool', tool: 'receptacle' },
  { name: 'FindRoomTool', tool: 'room' },
  { name: 'FindAgentActionTool', tool: 'agent' },
];

const NAMES = ['Navigate', 'Open', 'Close', 'Pick', 'Place', 'Communicate', 'Wait', 'Done'] as const;
/** Each tool's name, "Tool" optional (FindAgentTool and FindAgent read as FindAgentActionTool). */
const FIND_PATTERN = 'Find(?:Object|Receptacle|Room|AgentAction|Agent)(?:Tool)?';

export const ACTION_FORMAT = [
  'Navigate[room or thing]',
  'Open[furniture]',
  'Close[furniture]',
  'Pick[object]',
  'Place[object, on|within, furniture]',
  'Communicate[message] (to everyone you may message) or Communicate[@agent_1 message] (to named agents)',
  'FindObjectTool[name] (where you last saw or were told an object is; empty: every object you know of)',
  'FindReceptacleTool[name] (furniture: its room, and whether it is open as far as you know)',
  'FindRoomTool[name] (rooms and the furniture in each; empty: every room)',
  'FindAgentActionTool[agent] (where you last saw each agent and what you saw it do; empty: every agent)',
  'Wait',
  'Done (you think the task is complete)',
].join('\n');

export type ParsedAction = { ok: true; action: Action } | { ok: false; error: string };

/** The first action in a model's reply, or a clear error naming the expected format. */
export function parseAction(reply: string): ParsedAction {
  const re = new RegExp(`\\b(${NAMES.join('|')}|${FIND_PATTERN})\\b\\s*(\\[([\\s\\S]*?)\\])?`);
  const m = re.exec(reply);
  if (!m) return { ok: false, error: `No action found. Reply with one action, e.g. Navigate[kitchen_1]. Actions:\n${ACTION_FORMAT}` };
  const arg = (m[3] ?? '').trim();
  if (m[1]!.startsWith('Find')) {
    const stem = m[1]!.replace(/Tool$/, '').replace(/^FindAgent$/, 'FindAgentAction');
    const tool = FIND_TOOLS.find((t) => t.name === `${stem}Tool`)!.tool;
    return { ok: true, action: { type: 'Find', tool, query: arg.toLowerCase() === 'none' ? '' : arg } };
  }
  const name = m[1] as (typeof NAMES)[number];
  const args = arg
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '' && x.toLowerCase() !== 'none');
  const need = (n: number) =>
    args.length < n ? `${name} needs ${n} argument(s): ${ACTION_FORMAT.split('\n').find((l) => l.startsWith(name))}` : undefined;
  switch (name) {
    case 'Wait':
      return { ok: true, action: { type: 'Wait' } };
    case 'Done':
      return { ok: true, action: { type: 'Done' } };
    case 'Navigate':
      return need(1) ? { ok: false, error: need(1)! } : { ok: true, action: { type: 'Navigate', target: args[0]! } };
    case 'Open':
    case 'Close':
      return need(1) ? { ok: false, error: need(1)! } : { ok: true, action: { type: name, furniture: args[0]! } };
    case 'Pick':
      return need(1) ? { ok: false, error: need(1)! } : { ok: true, action: { type: 'Pick', object: args[0]! } };
    case 'Place': {
      if (need(3)) return { ok: false, error: need(3)! };
      const rel = args[1]!.toLowerCase();
      if (rel !== 'on' && rel !== 'within' && rel !== 'in' && rel !== 'inside')
        return { ok: false, error: `Place: the second argument is "on" or "within", not "${args[1]}"` };
      return { ok: true, action: { type: 'Place', object: args[0]!, rel: rel === 'on' ? 'on' : 'in', furniture: args[2]! } };
    }
    case 'Communicate': {
      if (!arg) return { ok: false, error: 'Communicate needs a message: Communicate[message]' };
      const to: string[] = [];
      let text = arg;
      for (let t = /^@(\S+)\s*/.exec(text); t; t = /^@(\S+)\s*/.exec(text)) {
        to.push(t[1]!.replace(/[,:;]$/, ''));
        text = text.slice(t[0].length);
      }
      return { ok: true, action: { type: 'Communicate', to: to.length ? to : 'all', text: text.trim() } };
    }
  }
}

/** An action in the documented text format (the inverse of parseAction). */
export function formatAction(a: Action): string {
  switch (a.type) {
    case 'Wait':
    case 'Done':
      return a.type;
    case 'Navigate':
      return `Navigate[${a.target}]`;
    case 'Open':
    case 'Close':
      return `${a.type}[${a.furniture}]`;
    case 'Pick':
      return `Pick[${a.object}]`;
    case 'Place':
      return `Place[${a.object}, ${a.rel === 'in' ? 'within' : 'on'}, ${a.furniture}]`;
    case 'Communicate':
      return `Communicate[${a.to === 'all' ? '' : `${a.to.map((t) => `@${t}`).join(' ')} `}${a.text}]`;
    case 'Find':
      return `${FIND_TOOLS.find((t) => t.tool === a.tool)!.name}[${a.query}]`;
  }
}
