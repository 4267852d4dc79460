// A small object-location world in the style of ToMi and Hi-ToM: agents enter and leave one
// room, objects sit in containers and get moved. It lives in core because two layers reason
// over it: the generated suite writes stories with it and the reference agents solve them.

export type WorldEvent =
  | { kind: 'enter'; agent: string }
  | { kind: 'exit'; agent: string }
  /** The object is (initially, or again) in a container; seen by everyone present. */
  | { kind: 'place'; object: string; container: string }
  | { kind: 'move'; agent: string; object: string; container: string }
  /** An agent outside the room watches through a window, unseen, until it stops. */
  | { kind: 'watch'; agent: string }
  | { kind: 'unwatch'; agent: string };

export interface WorldStory {
  room: string;
  agents: string[];
  objects: string[];
  containers: string[];
  events: WorldEvent[];
}

export type WorldQuestion =
  /** Where the object is at the end. */
  | { kind: 'reality'; object: string }
  /** Where the object was at the start. */
  | { kind: 'memory'; object: string }
  /** Where chain[0] thinks chain[1] thinks ... chain[k-1] will look for the object. */
  | { kind: 'belief'; chain: string[]; object: string }
  /** Whether the agent knows where the object is at the end. */
  | { kind: 'knowledge'; agent: string; object: string }
  /** Whether the agent saw the move at events[eventIndex]. */
  | { kind: 'perception'; agent: string; eventIndex: number };

/** The answer of a question: a container name, or 'yes' / 'no'. */
export type WorldAnswer = string;

/** The belief order a world question asks about (0 for reality and memory). */
export function questionOrder(q: WorldQuestion): number {
  switch (q.kind) {
    case 'reality':
    case 'memory':
      return 0;
    case 'belief':
      return q.chain.length;
    case 'knowledge':
    case 'perception':
      return 1;
  }
}
