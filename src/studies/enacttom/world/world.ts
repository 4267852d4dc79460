// The text household world: a compiled task (entities as small integers) and a compact state
// (typed arrays) that actions change. One agent acts at a time; every action gets a short
// observation, and an impossible action is answered with the reason, never ignored. The same
// transition function serves episodes, the verifier's search and the reference agents.

import type { ActionName, EmbodiedTask } from './task.js';

/** Object location codes: furniture * 2 (+1 when inside), or -1 - agent when held. */
export const ON = 0;
export const IN = 1;

export interface WorldState {
  agentRoom: Int16Array;
  holding: Int16Array;
  objLoc: Int16Array;
  open: Uint8Array;
  /** Messages left per agent; -1: unlimited. */
  messagesLeft: Int16Array;
}

export type Action =
  | { type: 'Navigate'; target: string }
  | { type: 'Open' | 'Close'; furniture: string }
  | { type: 'Pick'; object: string }
  | { type: 'Place'; object: string; rel: 'on' | 'in'; furniture: string }
  | { type: 'Communicate'; to: string[] | 'all'; text: string }
  /** A perception tool (find-tools.ts): answered from what the agent saw and was told; the world does not change. */
  | { type: 'Find'; tool: FindTool; query: string }
  | { type: 'Wait' }
  | { type: 'Done' };

/** The perception tools every agent has (EnactToM's FindObjectTool, FindReceptacleTool, FindRoomTool, FindAgentActionTool). */
export type FindTool = 'object' | 'receptacle' | 'room' | 'agent';

export interface Outcome {
  ok: boolean;
  /** What the acting agent is told. */
  text: string;
  /** Furniture whose open state changed, and objects that moved (for knowledge upkeep). */
  changedFurniture: number[];
  movedObjects: number[];
  /** Communicate: the recipients the message reached. */
  deliveredTo?: number[];
}

/** An impossible action's outcome. */
function no(text: string): Outcome {
  return { ok: false, text, changedFurniture: [], movedObjects: [] };
}

/** The text household world of a task: compiled entities and the transition function. */
export class World {
  readonly rooms: string[];
  readonly furniture: string[];
  readonly objects: string[];
  readonly agents: string[];
  readonly furnitureRoom: Int16Array;
  readonly openable: Uint8Array;
  /** Locked furniture cannot be opened (there is no unlock action in the text world). */
  readonly locked: Uint8Array;
  readonly barred: Uint8Array[];
  readonly allowed: Array<Set<ActionName>>;
  /** Per agent: who it may message (flags over agents). */
  readonly canMessage: Uint8Array[];
  /** Per furniture: inverse_state, and the (target, state | 'mirror') effects of remote control and mirroring. */
  readonly inverse: Uint8Array;
  readonly effects: Array<Array<{ target: number; state: 0 | 1 | 'mirror' }>>;
  readonly index: Map<string, { kind: 'room' | 'furniture' | 'object' | 'agent'; i: number }>;

  constructor(readonly task: EmbodiedTask) {
    this.rooms = task.rooms.slice();
    this.furniture = task.furniture.map((f) => f.id);
    this.objects = task.objects.map((o) => o.id);
    this.agents = task.agents.map((a) => a.id);
    this.index = new Map();
    this.rooms.forEach((id, i) => this.index.set(id, { kind: 'room', i }));
    this.furniture.forEach((id, i) => this.index.set(id, { kind: 'furniture', i }));
    this.objects.forEach((id, i) => this.index.set(id, { kind: 'object', i }));
    this.agents.forEach((id, i) => this.index.set(id, { kind: 'agent', i }));
    this.furnitureRoom = Int16Array.from(task.furniture, (f) => this.rooms.indexOf(f.room));
    this.openable = Uint8Array.from(task.furniture, (f) => (f.openable ? 1 : 0));
    this.locked = Uint8Array.from(task.furniture, (f) => (f.locked ? 1 : 0));
    this.barred = task.agents.map((a) => Uint8Array.from(this.rooms, (r) => (a.barredRooms.includes(r) ? 1 : 0)));
    this.allowed = task.agents.map((a) => new Set(a.actions));
    this.canMessage = task.agents.map((a) =>
      Uint8Array.from(this.agents, (b) => (b !== a.id && (a.messageTargets === null || a.messageTargets.includes(b)) ? 1 : 0)),
    );
    this.inverse = new Uint8Array(this.furniture.length);
    this.effects = this.furniture.map(() => []);
    for (const m of task.mechanics) {
      const trig = m.trigger ? this.furniture.indexOf(m.trigger) : -1;
      if (m.type === 'inverse_state') this.inverse[trig] = 1;
      if (m.type === 'remote_control')
        this.effects[trig]!.push({ target: this.furniture.indexOf(m.target!), state: m.targetState === 'open' ? 1 : 0 });
      if (m.type === 'state_mirroring') this.effects[trig]!.push({ target: this.furniture.indexOf(m.target!), state: 'mirror' });
    }
  }

  initialState(): WorldState {
    const t = this.task;
    const holding = new Int16Array(this.agents.length).fill(-1);
    const objLoc = Int16Array.from(t.objects, (o, i) => {
      if (o.at.rel === 'held') {
        const a = this.agents.indexOf(o.at.agent);
        holding[a] = i;
        return -1 - a;
      }
      return this.furniture.indexOf(o.at.furniture) * 2 + (o.at.rel === 'in' ? IN : ON);
    });
    return {
      agentRoom: Int16Array.from(t.agents, (a) => this.rooms.indexOf(a.room)),
      holding,
      objLoc,
      open: Uint8Array.from(t.furniture, (f) => (f.open ? 1 : 0)),
      messagesLeft: Int16Array.from(t.agents, (a) => (a.messageBudget === null ? -1 : a.messageBudget)),
    };
  }

  static clone(s: WorldState): WorldState {
    return {
      agentRoom: s.agentRoom.slice(),
      holding: s.holding.slice(),
      objLoc: s.objLoc.slice(),
      open: s.open.slice(),
      messagesLeft: s.messagesLeft.slice(),
    };
  }

  /** The room an object is in (through its furniture or its holder). */
  objectRoom(s: WorldState, o: number): number {
    const loc = s.objLoc[o]!;
    return loc >= 0 ? this.furnitureRoom[loc >> 1]! : s.agentRoom[-1 - loc]!;
  }

  /** Whether an agent in the object's room can see it (not inside closed furniture). */
  visible(s: WorldState, o: number): boolean {
    const loc = s.objLoc[o]!;
    return loc < 0 || (loc & 1) === ON || s.open[loc >> 1] === 1;
  }

  entityRoom(s: WorldState, name: string): number {
    const e = this.index.get(name);
    if (!e) return -1;
    if (e.kind === 'room') return e.i;
    if (e.kind === 'furniture') return this.furnitureRoom[e.i]!;
    if (e.kind === 'object') return this.objectRoom(s, e.i);
    return s.agentRoom[e.i]!;
  }

  /** Apply one agent's action in place. */
  apply(s: WorldState, agent: number, action: Action): Outcome {
    if (action.type !== 'Wait' && action.type !== 'Done' && action.type !== 'Find' && !this.allowed[agent]!.has(action.type))
      return no(`You cannot ${action.type}: it is not among your actions (${[...this.allowed[agent]!].join(', ')}).`);
    const here = s.agentRoom[agent]!;
    switch (action.type) {
      case 'Wait':
        return { ok: true, text: 'You wait.', changedFurniture: [], movedObjects: [] };
      case 'Done':
        return { ok: true, text: 'You are done.', changedFurniture: [], movedObjects: [] };
      case 'Find':
        // What the agent finds depends on what it saw and was told: EpisodeMinds answers it.
        return { ok: true, text: 'You look through what you know.', changedFurniture: [], movedObjects: [] };
      case 'Navigate': {
        const e = this.index.get(action.target);
        if (!e) return no(`There is no ${action.target}.`);
        const room = e.kind === 'agent' ? s.agentRoom[e.i]! : this.entityRoom(s, action.target);
        if (this.barred[agent]![room]) return no(`You cannot enter ${this.rooms[room]}.`);
        s.agentRoom[agent] = room;
        return {
          ok: true,
          text: `You are in ${this.rooms[room]}.`,
          changedFurniture: [],
          movedObjects: s.holding[agent]! >= 0 ? [s.holding[agent]!] : [],
        };
      }
      case 'Open':
      case 'Close': {
        const e = this.index.get(action.furniture);
        if (e?.kind !== 'furniture') return no(`There is no furniture called ${action.furniture}.`);
        const f = e.i;
        if (this.furnitureRoom[f] !== here) return no(`${action.furniture} is not in ${this.rooms[here]}.`);
        if (!this.openable[f]) return no(`${action.furniture} cannot be opened or closed.`);
        if (this.locked[f]) return no(`${action.furniture} is locked.`);
        const want: 0 | 1 = action.type === 'Open' ? 1 : 0;
        const result = this.inverse[f] ? ((1 - want) as 0 | 1) : want;
        const changed: number[] = [];
        if (s.open[f] !== result) {
          s.open[f] = result;
          changed.push(f);
        }
        for (const eff of this.effects[f]!) {
          const v = eff.state === 'mirror' ? result : eff.state;
          if (s.open[eff.target] !== v) {
            s.open[eff.target] = v;
            changed.push(eff.target);
          }
        }
        return { ok: true, text: `${action.furniture} is ${s.open[f] ? 'open' : 'closed'}.`, changedFurniture: changed, movedObjects: [] };
      }
      case 'Pick': {
        const e = this.index.get(action.object);
        if (e?.kind !== 'object') return no(`There is no object called ${action.object}.`);
        const o = e.i;
        if (s.holding[agent]! >= 0) return no(`Your hands are full (${this.objects[s.holding[agent]!]}).`);
        if (s.objLoc[o]! < 0) return no(`${action.object} is held by ${this.agents[-1 - s.objLoc[o]!]}.`);
        if (this.objectRoom(s, o) !== here) return no(`${action.object} is not in ${this.rooms[here]}.`);
        if (!this.visible(s, o)) return no(`You cannot reach ${action.object}: ${this.furniture[s.objLoc[o]! >> 1]} is closed.`);
        s.objLoc[o] = -1 - agent;
        s.holding[agent] = o;
        return { ok: true, text: `You hold ${action.object}.`, changedFurniture: [], movedObjects: [o] };
      }
      case 'Place': {
        const e = this.index.get(action.object);
        const fe = this.index.get(action.furniture);
        if (e?.kind !== 'object') return no(`There is no object called ${action.object}.`);
        if (fe?.kind !== 'furniture') return no(`There is no furniture called ${action.furniture}.`);
        if (s.holding[agent] !== e.i) return no(`You are not holding ${action.object}.`);
        if (this.furnitureRoom[fe.i] !== here) return no(`${action.furniture} is not in ${this.rooms[here]}.`);
        if (action.rel === 'in' && !this.openable[fe.i]) return no(`You cannot put things inside ${action.furniture}.`);
        if (action.rel === 'in' && !s.open[fe.i]) return no(`${action.furniture} is closed.`);
        s.objLoc[e.i] = fe.i * 2 + (action.rel === 'in' ? IN : ON);
        s.holding[agent] = -1;
        return {
          ok: true,
          text: `${action.object} is ${action.rel === 'in' ? 'inside' : 'on'} ${action.furniture}.`,
          changedFurniture: [],
          movedObjects: [e.i],
        };
      }
      case 'Communicate': {
        if (s.messagesLeft[agent] === 0) return no('You have no messages left.');
        const may = this.canMessage[agent]!;
        let to: number[];
        if (action.to === 'all') {
          to = this.agents.map((_, i) => i).filter((i) => may[i]);
          if (to.length === 0) return no('You cannot send messages to anyone.');
        } else {
          to = action.to.map((name) => this.agents.indexOf(name));
          const bad = action.to.filter((_name, k) => to[k]! < 0 || !may[to[k]!]);
          if (bad.length) {
            const reachable = this.agents.filter((_, i) => may[i]);
            return no(reachable.length ? `You can only send messages to: ${reachable.join(', ')}.` : 'You cannot send messages to anyone.');
          }
        }
        if (s.messagesLeft[agent]! > 0) s.messagesLeft[agent]!--;
        return {
          ok: true,
          text: `Message sent to ${to.map((i) => this.agents[i]).join(', ')}.`,
          changedFurniture: [],
          movedObjects: [],
          deliveredTo: to,
        };
      }
    }
  }

  /** What an agent sees in its room, as text. */
  describe(s: WorldState, agent: number): string {
    const room = s.agentRoom[agent]!;
    const parts: string[] = [];
    for (let f = 0; f < this.furniture.length; f++) {
      if (this.furnitureRoom[f] !== room) continue;
      const on: string[] = [];
      const inside: string[] = [];
      for (let o = 0; o < this.objects.length; o++) {
        const loc = s.objLoc[o]!;
        if (loc >= 0 && loc >> 1 === f) ((loc & 1) === IN ? inside : on).push(this.objects[o]!);
      }
      let text = this.furniture[f]!;
      if (this.openable[f])
        text += ` (${s.open[f] ? 'open' : 'closed'}${s.open[f] && inside.length ? `, inside: ${inside.join(', ')}` : ''})`;
      if (on.length) text += ` with ${on.join(', ')} on it`;
      parts.push(text);
    }
    const others = this.agents
      .filter((_, b) => b !== agent && s.agentRoom[b] === room)
      .map((name, _k) => {
        const b = this.agents.indexOf(name);
        return s.holding[b]! >= 0 ? `${name} (holding ${this.objects[s.holding[b]!]})` : name;
      });
    const held = s.holding[agent]! >= 0 ? this.objects[s.holding[agent]!] : 'nothing';
    const barred = this.rooms.filter((_, r) => this.barred[agent]![r]);
    return [
      `You are in ${this.rooms[room]}. You hold ${held}.`,
      `Here: ${parts.length ? parts.join('; ') : 'no furniture'}.`,
      others.length ? `Also here: ${others.join(', ')}.` : '',
      `Rooms: ${this.rooms.join(', ')}${barred.length ? ` (you may not enter ${barred.join(', ')})` : ''}.`,
      s.messagesLeft[agent]! >= 0 ? `Messages left: ${s.messagesLeft[agent]}.` : '',
    ]
      .filter(Boolean)
      .join('\n');
  }
}
