// Reading a judged animated-triangles run as cells: one per (subject, clip, arm, trial), with
// each judge's own (Intent, Approp), the tokens of its calls, and the tokens the subject's
// prompt took. Every other triangles analysis works on these cells, so the paper's aggregation
// (trials, then the judge median, then the mean over clips) is written once.

import { JudgeScoreDetailSchema, readScoreDetail } from '../../../core/index.js';
import type { Store } from '../../../store/index.js';

/** The canonical scorer: the anchor-blinded Castelli rubric (rubrics/castelli-triangles.yaml). */
export const CANONICAL_TRIANGLES_SCORER = 'judge:castelli-triangles';

export interface TriangleJudgeValue {
  judge: string;
  intent: number;
  approp: number;
  /** Tokens of this judge's calls on the cell, when the score recorded them. */
  usage?: { inputTokens: number; outputTokens: number };
}

export interface TriangleCell {
  subject: string;
  suite: string;
  /** 'procedural' (the generated clips) or 'user' (the triangles-video suite: the user's own files). */
  clipSet: 'procedural' | 'user';
  /** The clip across arms (the item id without its arm suffix). */
  clip: string;
  condition: string;
  /** grid (numbered, forward: canonical), reversed, still, plain-grid, frames, video, and the frame-representation arms (frames-32, grid-8x8, ...). */
  arm: string;
  replicate: number;
  judges: TriangleJudgeValue[];
  /** Prompt tokens of the subject's call (how much the representation costs to send). */
  promptTokens?: number;
}

const ARM_SUFFIX =
  /-(forward|reversed|static|still|plain-grid|frames|video|grid|frames-32|frames-64|grid-4x4|grid-4x8|grid-8x8|grid-4x4-fullres|grid-8x8-fullres)$/;

/** The arm of a stored row: its meta, or (runs stored before arms) its variant. */
function armOf(meta: Record<string, unknown>): string {
  if (typeof meta.arm === 'string') return meta.arm;
  const v = String(meta.variant ?? 'forward');
  return v === 'forward' ? 'grid' : v === 'reversed' ? 'reversed' : 'static-grid';
}

/** The cells of a run scored by `scorer` (judge failures left out; a cell no judge scored is skipped). */
export async function triangleCells(
  store: Store,
  runId: string,
  scorer = CANONICAL_TRIANGLES_SCORER,
  opts: { promptTokens?: boolean } = {},
): Promise<TriangleCell[]> {
  const cells: TriangleCell[] = [];
  for await (const r of store.responses(runId, scorer)) {
    const key = { runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate };
    const s = await store.scoreOf(key, scorer);
    const detail = s ? readScoreDetail(JudgeScoreDetailSchema, s.detail) : undefined;
    if (!detail) continue;
    const judges = detail.judges.flatMap((j) =>
      j.values && j.values.intent !== undefined && j.values.approp !== undefined
        ? [{ judge: j.judge, intent: j.values.intent, approp: j.values.approp, ...(j.usage ? { usage: j.usage } : {}) }]
        : [],
    );
    if (judges.length === 0) continue;
    let promptTokens: number | undefined;
    if (opts.promptTokens) {
      const t = await store.transcript(key);
      promptTokens = t?.transcript.calls.reduce((n, c) => n + (c.response?.usage.inputTokens ?? 0), 0);
    }
    cells.push({
      subject: r.spec,
      suite: r.suite,
      clipSet: r.suite === 'triangles-video' ? 'user' : 'procedural',
      clip: r.itemId.replace(ARM_SUFFIX, ''),
      condition: String(r.meta.condition ?? 'unknown').toLowerCase(),
      arm: armOf(r.meta),
      replicate: r.replicate,
      judges,
      promptTokens,
    });
  }
  return cells;
}
