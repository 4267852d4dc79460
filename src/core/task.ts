// The contract between the runner (which schedules, retries, caches and stores) and the
// protocols (which turn one item into model calls and a score). The runner never imports a
// protocol: the caller hands it a Task.

import type { ChatMessage, ChatResponse, GenerationSettings, Item, Score } from './types.js';
import type { Formula } from './embodied/goal.js';
import type { KnowledgeState } from './embodied/knowledge.js';
import type { EmbodiedTask } from './embodied/task.js';
import type { WorldState } from './embodied/world.js';
import type { DirectorScene } from './vision/director-scene.js';

/** Side information for reference teams in an episode: the task, who acts, and the true state. */
export interface EpisodeContext {
  task: EmbodiedTask;
  agent: string;
  round: number;
  phase: 'act' | 'probe';
  /** For probes: the formula the agent is asked about. */
  probe?: Formula;
  state: WorldState;
  knowledge: KnowledgeState;
}

/** What a protocol may ask of a model during a trial; the runner supplies it with retries and caching. */
export interface TrialModel {
  readonly subjectId: string;
  readonly spec: string;
  chat(messages: ChatMessage[], settings?: Partial<GenerationSettings>, context?: CallContext): Promise<ChatResponse>;
  /** Summed log-probabilities of each continuation after the context; only local models offer it. */
  loglik?(context: string, continuations: string[]): Promise<{ logprobs: number[]; tokenCounts: number[] }>;
}

/**
 * Side information for reference agents (agent:*): the item and the options as presented.
 * Real providers ignore it, and it is not part of the cache key's messages.
 */
export interface CallContext {
  item?: Item;
  presentedOptions?: { label: string; text: string }[];
  replicateSeed?: number;
  episode?: EpisodeContext;
  /** For the Director Task's reference agents: the scene and which prompt ('a' seen blocks, 'b' which to move). */
  director?: { scene: DirectorScene; prompt: string };
  /** For reference agents in a StoryTurn conversation: the expected answers of this turn. */
  storyturn?: { expected: string[]; turn: number };
  /** For the offline reference judges: the rubric's fields and keywords, the response, the expected answer. */
  judge?: {
    fields: Array<{ name: string; min: number; max: number }>;
    keywords?: Record<string, string[]>;
    response: string;
    expected?: string;
  };
}

export interface TrialContext {
  replicate: number;
  /** Seed for this replicate: option shuffling, sampling seeds. */
  seed: number;
}

/** What a protocol returns for one trial; the runner adds the model calls it recorded. */
export interface ProtocolResult {
  /** What was presented, parsed and chosen: stored with the transcript. */
  detail: Record<string, unknown>;
  score: Score;
}

/** A suite plus the protocol and scorer that run it: what `mindscope run` executes for each subject. */
export interface Task {
  suite: string;
  items: Item[];
  /** Run one item against one model and score it. Throws only when the trial cannot finish (after retries). */
  execute(item: Item, model: TrialModel, ctx: TrialContext): Promise<ProtocolResult>;
}
