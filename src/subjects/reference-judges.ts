// Offline reference judges, answering a rubric prompt with JSON through the same pipeline as a
// model judge. They read the rubric's fields, the response and the expected answer from the
// call context.
//   exact-judge    every field at its maximum when the normalised response equals an expected
//                  answer (alternatives separated by ';' or ' / '), states it as "Answer: X", or
//                  contains it as a whole phrase; at its minimum otherwise
//   keyword-judge  per field, the minimum plus one point per distinct rubric keyword in the
//                  response, capped at the maximum

import type { JudgeCallInfo } from '../core/index.js';

export const REFERENCE_JUDGES: Record<string, string> = {
  'exact-judge': 'scores a response against the expected answer by normalised string matching (offline judge)',
  'keyword-judge': "scores a response by the rubric's keywords (offline judge)",
};

const normalise = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** The offline reference judges' reply (`agent:exact-judge`, `agent:keyword-judge`) to a rubric prompt, as JSON. */
export function judgeReply(name: string, ctx: JudgeCallInfo | undefined): string {
  if (!ctx) return 'I can only judge with a rubric.';
  const out: Record<string, number> = {};
  if (name === 'exact-judge') {
    const r = normalise(ctx.response);
    const tagged = /answer\s*:\s*(.+)$/im.exec(ctx.response);
    // Alternatives are separated by ';' or ' / '.
    const match = (ctx.expected ?? '')
      .split(/\s*;\s*|\s+\/\s+/)
      .map(normalise)
      .filter(Boolean)
      .some((e) => r === e || (tagged && normalise(tagged[1]!) === e) || ` ${r} `.includes(` ${e} `));
    for (const f of ctx.fields) out[f.name] = match ? f.max : f.min;
  } else {
    const words = new Set(normalise(ctx.response).split(' '));
    for (const f of ctx.fields) {
      const hits = (ctx.keywords?.[f.name] ?? []).filter((k) =>
        normalise(k)
          .split(' ')
          .every((w) => words.has(w)),
      ).length;
      out[f.name] = Math.min(f.max, f.min + hits);
    }
  }
  return JSON.stringify(out);
}
