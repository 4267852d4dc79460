// What a probe item carries: the base item's variants, each a complete multiple-choice item (its
// options in the order they are shown), or a generated story with its belief checkpoints.

import type { McqPayload } from '../../../core/index.js';
import type { WorldStory } from '../../../worlds/index.js';
import type { ProbeFamily } from './records.js';

/** One variant of a base item: shown as is (no shuffling), so that its option order is the probe's. */
export interface ProbeVariant {
  name: string;
  kind: string;
  mcq: McqPayload;
  /** Sensitivity: whether the alteration changes the expected answer. */
  flips?: boolean;
  order?: number;
}

/** A story whose belief state is asked for at checkpoints (explicit belief tracking). */
export interface BeliefStory {
  story: WorldStory;
  /** The story's sentences, one per event. */
  sentences: string[];
  /** After how many sentences the subject lists the beliefs. */
  checkpoints: number[];
  /** The highest belief order asked for. */
  maxOrder: number;
}

/** A probe item's payload. */
export interface ProbePayload {
  family: ProbeFamily;
  baseSuite: string;
  baseId: string;
  variants: ProbeVariant[];
  beliefs?: BeliefStory;
}
