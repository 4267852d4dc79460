// The frame-representation comparison of the paper's Appendix L: how close each representation
// of a clip (numbered grid, plain grid, frame sequence, ...) comes to the native-video path.
// Per subject and condition, Intent similarity is 100 (1 - MAE / 5) and Approp similarity
// 100 (1 - MAE / 3), MAE over the condition's clips against the same clip's native-video score
// (the rubric's full scale); a condition's similarity is the mean of the two, and the overall
// figure the mean over conditions. Beside it, the mean prompt tokens a cell takes to send, and
// whether the arm is on the subject's Pareto front of similarity against tokens (no other arm
// of the subject is at least as similar for at most as many tokens, and better in one).

import { TRIANGLE_CONDITIONS } from './human-references.js';
import type { ClipScore } from './triangles-profiles.js';
import type { TriangleCell } from './triangles-cells.js';

export interface FrameSimilarityRow {
  subject: string;
  clipSet: string;
  arm: string;
  /** Per condition: the clips matched with native video and the similarity (0-100). */
  byCondition: Array<{ condition: string; clips: number; intentSimilarity: number; appropSimilarity: number; similarity: number }>;
  /** Mean over conditions. */
  similarity: number;
  /** Mean prompt tokens of the subject's call per cell in this arm (null when not known). */
  promptTokens: number | null;
  /** On the subject's Pareto front of similarity against prompt tokens (null when the tokens are not known). */
  pareto: boolean | null;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Similarity of every arm to the reference arm ('video' by default), per subject; empty without reference scores. */
export function frameSimilarity(scores: ClipScore[], cells: TriangleCell[], reference = 'video'): FrameSimilarityRow[] {
  const ref = new Map(scores.filter((s) => s.arm === reference).map((s) => [`${s.subject}\u0000${s.clipSet}\u0000${s.clip}`, s]));
  if (ref.size === 0) return [];
  const groups = new Map<string, ClipScore[]>();
  for (const s of scores) {
    if (s.arm === reference || !ref.has(`${s.subject}\u0000${s.clipSet}\u0000${s.clip}`)) continue;
    const k = [s.subject, s.clipSet, s.arm].join('\u0000');
    groups.set(k, [...(groups.get(k) ?? []), s]);
  }
  const rows = [...groups.values()].map((xs) => {
    const { subject, clipSet, arm } = xs[0]!;
    const conditions = [...new Set(xs.map((x) => x.condition))].sort(
      (a, b) =>
        ((TRIANGLE_CONDITIONS as readonly string[]).indexOf(a) + 1 || 9) - ((TRIANGLE_CONDITIONS as readonly string[]).indexOf(b) + 1 || 9),
    );
    const byCondition = conditions.map((condition) => {
      const here = xs.filter((x) => x.condition === condition);
      const r = (x: ClipScore) => ref.get(`${subject}\u0000${clipSet}\u0000${x.clip}`)!;
      const intentSimilarity = 100 * (1 - mean(here.map((x) => Math.abs(x.intent - r(x).intent))) / 5);
      const appropSimilarity = 100 * (1 - mean(here.map((x) => Math.abs(x.approp - r(x).approp))) / 3);
      return { condition, clips: here.length, intentSimilarity, appropSimilarity, similarity: (intentSimilarity + appropSimilarity) / 2 };
    });
    const tokens = cells
      .filter((c) => c.subject === subject && c.clipSet === clipSet && c.arm === arm && c.promptTokens !== undefined)
      .map((c) => c.promptTokens!);
    return {
      subject,
      clipSet,
      arm,
      byCondition,
      similarity: mean(byCondition.map((c) => c.similarity)),
      promptTokens: tokens.length ? mean(tokens) : null,
      pareto: null as boolean | null,
    };
  });
  for (const r of rows) {
    if (r.promptTokens === null) continue;
    const t = r.promptTokens;
    r.pareto = !rows.some(
      (o) =>
        o !== r &&
        o.subject === r.subject &&
        o.clipSet === r.clipSet &&
        o.promptTokens !== null &&
        o.similarity >= r.similarity &&
        o.promptTokens <= t &&
        (o.similarity > r.similarity || o.promptTokens < t),
    );
  }
  return rows;
}
