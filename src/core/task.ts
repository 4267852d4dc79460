// The contract between the runner (which schedules, retries, caches and stores) and the
// protocols (which turn one item into model calls and a score). The runner never imports a
// protocol: the caller hands it a Task.

import type { z } from 'zod';
import type { CallInfo } from './call-info.js';
import type { ChatMessage, ChatResponse, GenerationSettings, Item, Score } from './types.js';

/** What travels with a call besides the messages: the replicate's seed and a protocol's side information. */
export interface CallContext {
  replicateSeed?: number;
  /** Ground truth for reference subjects (see call-info.ts); real providers ignore it. */
  info?: CallInfo;
}

/** What a protocol may ask of a model during a trial; the runner supplies it with retries and caching. */
export interface TrialModel {
  readonly subjectId: string;
  readonly spec: string;
  chat(messages: ChatMessage[], settings?: Partial<GenerationSettings>, context?: CallContext): Promise<ChatResponse>;
  /** Summed log-probabilities of each continuation after the context; only local models offer it. */
  loglik?(context: string, continuations: string[]): Promise<{ logprobs: number[]; tokenCounts: number[] }>;
}

export interface TrialContext {
  replicate: number;
  /** Seed for this replicate: option shuffling, sampling seeds. */
  seed: number;
}

/** What a protocol returns for one trial; the runner adds the model calls it recorded. */
export interface ProtocolResult<D = unknown> {
  /** What was presented, parsed and chosen: stored with the transcript as the protocol's record. */
  detail: D;
  score: Score;
}

/** The schemas a protocol's records follow: checked before a trial is stored, and when it is read back. */
export interface RecordSchemas {
  /** The protocol's name, stored with every transcript it writes. */
  protocol: string;
  /** The name of the score the protocol gives each trial (analyses read scores by this name). */
  scorer: string;
  detail: z.ZodType;
  score: z.ZodType;
  /**
   * Recognises a record of this protocol stored before transcripts named their protocol (stores
   * written by mindscope 0.1), by the fields only it writes. New protocols leave it out.
   */
  legacy?: (detail: object) => boolean;
}

/** A suite's items plus the protocol that runs them: what the runner executes for each subject. */
export interface Task<P = unknown> {
  suite: string;
  items: Item<P>[];
  records: RecordSchemas;
  /** What the protocol noticed while building the task (e.g. trace ids that match no item), shown with the loaders' warnings. */
  warnings?: string[];
  /** Run one item against one model and score it. Throws only when the trial cannot finish (after retries). */
  execute(item: Item<P>, model: TrialModel, ctx: TrialContext): Promise<ProtocolResult>;
}
