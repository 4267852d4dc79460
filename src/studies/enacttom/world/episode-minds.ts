// Who knows and who thinks what over an episode: the knowledge tracking (knowledge.ts) and the
// beliefs (beliefs.ts), kept up together as each action is applied to the world, so that the
// episode protocol and anything that replays an episode update them the same way.

import { EpisodeBeliefs } from './beliefs.js';
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

  constructor(
    readonly universe: KnowledgeUniverse,
    state: WorldState,
  ) {
    this.world = universe.world;
    this.knowledge = KnowledgeState.initial(universe);
    for (let a = 0; a < this.world.agents.length; a++) this.knowledge.observe(state, a);
    this.beliefs = EpisodeBeliefs.initial(this.world, state);
  }

  /** Apply agent a's action to the state in place; on success, everyone's knowledge and beliefs follow. */
  act(state: WorldState, a: number, action: Action): MindsOutcome {
    const ks = this.knowledge;
    // A message conveys what the sender knows when it sends it.
    const before = action.type === 'Communicate' ? ks.atomsInText(a, action.text, state) : [];
    const out = this.world.apply(state, a, action);
    if (!out.ok) return { ...out, conveyed: [] };
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
