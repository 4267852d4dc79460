// Animated-triangles results of a run scored by the Castelli rubric: every subject's profile per
// clip set, arm and condition (triangles-profiles.ts), the panel figures per arm, and the
// frame-representation similarity to native video where the run has that arm. The headline
// profile of a subject, the one the joint analysis and Figure 3 use, is its ToM profile on the
// canonical arm (numbered grid, forward) of the generated clips (or of the user's clips when
// the run has no generated ones).

import type { Store } from '../../../store/index.js';
import type { ReferenceGroups } from './human-references.js';
import { frameSimilarity, type FrameSimilarityRow } from './frame-similarity.js';
import { CANONICAL_TRIANGLES_SCORER, triangleCells, type TriangleCell } from './triangles-cells.js';
import {
  armSummaries,
  clipScores,
  conditionProfiles,
  type ClipScore,
  type ConditionProfile,
  type TrianglesArmSummary,
} from './triangles-profiles.js';

export interface TrianglesRunResult {
  scorer: string;
  cells: TriangleCell[];
  scores: ClipScore[];
  /** Every subject's profile per clip set, arm and condition. */
  byCondition: ConditionProfile[];
  arms: TrianglesArmSummary[];
  /** The headline: ToM profiles on the canonical arm. */
  profiles: ConditionProfile[];
  /** The clip set the headline comes from. */
  headlineClipSet: string | null;
  similarity: FrameSimilarityRow[];
}

/** The canonical arm's profiles of one condition (ToM by default): the generated clips, else the user's. */
export function headlineProfiles(
  byCondition: ConditionProfile[],
  condition = 'tom',
): { clipSet: string | null; profiles: ConditionProfile[] } {
  for (const clipSet of ['procedural', 'user']) {
    const ps = byCondition.filter((p) => p.clipSet === clipSet && p.arm === 'grid' && p.condition === condition);
    if (ps.length) return { clipSet, profiles: ps };
  }
  return { clipSet: null, profiles: [] };
}

/** Triangles results of a stored run scored by `scorer` (the anchor-blinded Castelli rubric by default). */
export async function trianglesFromRun(
  store: Store,
  runId: string,
  refs: ReferenceGroups,
  scorer = CANONICAL_TRIANGLES_SCORER,
): Promise<TrianglesRunResult> {
  const cells = await triangleCells(store, runId, scorer, { promptTokens: true });
  const scores = clipScores(cells);
  const byCondition = conditionProfiles(scores, refs);
  const headline = headlineProfiles(byCondition);
  return {
    scorer,
    cells,
    scores,
    byCondition,
    arms: armSummaries(scores, byCondition, refs),
    profiles: headline.profiles,
    headlineClipSet: headline.clipSet,
    similarity: frameSimilarity(scores, cells),
  };
}
