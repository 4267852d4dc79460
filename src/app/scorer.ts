// Scorers added by users: a function that scores stored trials again, without new model calls
// (`mindscope score --scorer NAME`). Judge panels with a rubric are the built-in kind (scoring.ts).

import type { Item, Score, StoredTranscript, TrialKey } from '../core/index.js';

/** One stored trial, as a scorer sees it. */
export interface ScorableTrial {
  key: TrialKey;
  /** The subject's model spec. */
  spec: string;
  item: Item;
  /** The protocol's record is read with readRecord(SCHEMAS, transcript, where). */
  transcript: StoredTranscript;
  /** The protocol's own score of the trial. */
  score: Score;
}

export interface ScorerDefinition {
  /** Stored as the score's name; must not be a protocol's scorer name. */
  name: string;
  describe: string;
  /** A value in [0, 1] for accuracy-type scores and a JSON detail; undefined when the scorer does not apply to this trial. */
  score(trial: ScorableTrial): { value: number; detail?: unknown } | undefined | Promise<{ value: number; detail?: unknown } | undefined>;
}

/** Declare a scorer. */
export function defineScorer(def: ScorerDefinition): ScorerDefinition {
  if (!/^[a-z][a-z0-9:._-]*$/.test(def.name)) throw new Error(`scorer name "${def.name}" must be lower-case letters, digits and : . _ -`);
  return def;
}
