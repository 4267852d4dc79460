// Who knows and who thinks what over an episode: the knowledge tracking (knowledge.ts) and the
// beliefs (beliefs.ts), kept up together as each action is applied to the world, so that the
// episode protocol and anything that replays an episode update them the same way. The
// perception tools (find-tools.ts) are answered here, from the asking agent's beliefs and the
// actions it saw others take (an agent sees what another does in the room they share).

import { formatAction } from './actions.js';
import { EpisodeBeliefs } from './beliefs.js';
import { findAnswer, type SeenActions } from './find-tools.js';
import { KnowledgeState, type KnowledgeUniverse } from './knowledge.js';
import type { Action, Outcome, World, WorldState } from './world.js';

/** What applying one action did: the world's outcome and, for a delivered message, the knowledge atoms it conveyed. */
export interface MindsOutcome extends Outcome {
  conveyed: number[];
}

/** Knowledge and beliefs of every agent of an episode, from the start state on. */
export class EpisodeMinds {
  readonly knowledge: KnowledgeState;
  readonly beliefs: EpisodeBeliefs;
  readonly world: World;
  /** Per observer, per other agent: the last action it saw that agent take. */
  readonly seen: SeenActions;

  constructor(
    readonly universe: KnowledgeUniverse,
    state: WorldState,
  ) {
    this.world = universe.world;
    this.knowledge = KnowledgeState.initial(universe);
    for (let a = 0; a < this.world.agents.length; a++) this.knowledge.observe(state, a);
    this.beliefs = EpisodeBeliefs.initial(this.world, state);
    this.seen = this.world.agents.map(() => new Map());
  }

  /** Apply agent a's action to the state in place; on success, everyone's knowledge and beliefs follow. */
  act(state: WorldState, a: number, action: Action): MindsOutcome {
    if (action.type === 'Find')
      return {
        ok: true,
        text: findAnswer(this.world, state, this.beliefs, this.seen, a, action.tool, action.query),
        changedFurniture: [],
        movedObjects: [],
        conveyed: [],
      };
    const ks = this.knowledge;
    // A message conveys what the sender knows when it sends it.
    const before = action.type === 'Communicate' ? ks.atomsInText(a, action.text, state) : [];
    const from = state.agentRoom[a]!;
    const out = this.world.apply(state, a, action);
    if (!out.ok) return { ...out, conveyed: [] };
    // Who shares the room where it acted (or where it went) sees it; what a message says is not seen.
    const what = action.type === 'Communicate' ? 'Communicate (a message)' : formatAction(action);
    for (let b = 0; b < this.world.agents.length; b++)
      if (b !== a && (state.agentRoom[b] === from || state.agentRoom[b] === state.agentRoom[a])) this.seen[b]!.set(a, what);
    ks.invalidate(state, out.changedFurniture, out.movedObjects);
    if (action.type === 'Communicate' && out.deliveredTo) {
      ks.tell(a, out.deliveredTo, before);
      this.beliefs.tell(a, out.deliveredTo, action.text);
    }
    for (let b = 0; b < this.world.agents.length; b++) ks.observe(state, b);
    this.beliefs.observeAll(state);
    return { ...out, conveyed: action.type === 'Communicate' && out.deliveredTo ? before : [] };
  }
}
