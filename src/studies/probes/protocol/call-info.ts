// The side information of probe calls, read by the reference subjects.

import { callInfoKey } from '../../../core/index.js';
import type { McqCallInfo } from '../../../protocols/index.js';
import type { WorldStory } from '../../../worlds/index.js';

/** A belief-listing call: the story so far (its structured world) and the highest order asked for. */
export interface BeliefCallInfo {
  story: WorldStory;
  maxOrder: number;
}

/** A variant call: the variant as a multiple-choice item and its options as shown. */
export const PROBE_INFO = callInfoKey<McqCallInfo>('probe');
/** A belief-listing call. */
export const BELIEF_INFO = callInfoKey<BeliefCallInfo>('probe');
