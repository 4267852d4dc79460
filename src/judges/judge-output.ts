// Reading a judge's reply: the first JSON object in it, each rubric field present, numeric,
// whole where the rubric says so, and within its range. What is wrong is said, so that the one
// repair request can quote it.

import type { Rubric } from './rubric.js';

export type JudgeParse = { ok: true; values: Record<string, number> } | { ok: false; error: string };

/** Read a judge's reply: the first JSON object, every rubric field present, numeric, whole where required and in range; otherwise the reason. */
export function parseJudgeOutput(text: string, rubric: Rubric): JudgeParse {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end <= start) return { ok: false, error: 'the reply holds no JSON object' };
  let obj: Record<string, unknown>;
  try {
    obj = JSON.parse(text.slice(start, end + 1));
  } catch (err) {
    return { ok: false, error: `the JSON does not parse: ${(err as Error).message}` };
  }
  const values: Record<string, number> = {};
  for (const f of rubric.fields) {
    const v = obj[f.name];
    if (typeof v !== 'number' || !Number.isFinite(v)) return { ok: false, error: `"${f.name}" must be a number` };
    if (f.integer && !Number.isInteger(v)) return { ok: false, error: `"${f.name}" must be a whole number` };
    if (v < f.min || v > f.max) return { ok: false, error: `"${f.name}" must lie in [${f.min}, ${f.max}], got ${v}` };
    values[f.name] = v;
  }
  return { ok: true, values };
}
