// Animated-triangles profiles from a run scored by the Castelli rubric: per subject and
// condition the mean judged Intentionality and Appropriateness over the forward clips (trials
// averaged), and the ToM-condition profile with its distances to the human reference groups.

import { JudgeScoreDetailSchema, readScoreDetail } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import { profileOf, type ReferenceGroups, type TriangleProfile } from './vision-profiles.js';

export function trianglesFromRun(
  store: Store,
  runId: string,
  refs: ReferenceGroups,
  scorer = 'judge:castelli-triangles',
): {
  byCondition: Array<{ subject: string; condition: string; variant: string; intent: number; approp: number; clips: number }>;
  profiles: TriangleProfile[];
} {
  const groups = new Map<string, { subject: string; condition: string; variant: string; intent: number[]; approp: number[] }>();
  for (const r of store.responses(runId, scorer)) {
    const s = store.scoreOf({ runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate }, scorer);
    const fields = s ? readScoreDetail(JudgeScoreDetailSchema, s.detail)?.fields : undefined;
    if (fields?.intent === undefined || fields.approp === undefined) continue;
    const condition = String(r.meta.condition);
    const variant = String(r.meta.variant);
    const key = `${r.spec}\u0000${condition}\u0000${variant}`;
    const g = groups.get(key) ?? { subject: r.spec, condition, variant, intent: [], approp: [] };
    g.intent.push(fields.intent);
    g.approp.push(fields.approp);
    groups.set(key, g);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const byCondition = [...groups.values()].map(({ subject, condition, variant, intent, approp }) => ({
    subject,
    condition,
    variant,
    intent: mean(intent),
    approp: mean(approp),
    clips: intent.length,
  }));
  const profiles = byCondition
    .filter((c) => c.condition === 'tom' && c.variant === 'forward')
    .map((c) => profileOf(c.subject, c.intent, c.approp, refs));
  return { byCondition, profiles };
}
