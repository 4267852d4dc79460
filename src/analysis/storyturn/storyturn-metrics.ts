// StoryTurn metrics (CoMMET), each with a Wilson 95% interval: story-level accuracy (every
// question right) overall, per mental state and per setting (text-complete, image-dependent);
// per-question accuracy; text-only versus text+image runs; and feedback effectiveness (of the
// wrong answers followed by feedback, the share whose next answer is right).

import { CONVERSATION_RECORDS, readRecord } from '../../core/index.js';
import { wilsonInterval } from '../../stats/index.js';
import type { Store } from '../../store/index.js';

interface StoredStory {
  subject: string;
  state: string;
  setting: string;
  withImages: boolean;
  correct: boolean;
  questions: boolean[];
  feedbackEvents: Array<{ recovered: boolean }>;
}

export interface Rate {
  k: number;
  n: number;
  rate: number;
  lower: number;
  upper: number;
}

export interface StoryTurnMetrics {
  subject: string;
  mode: 'text-only' | 'text+image';
  stories: Rate;
  questions: Rate;
  byState: Array<{ state: string } & Rate>;
  bySetting: Array<{ setting: string } & Rate>;
  feedbackEffectiveness: Rate | null;
}

const rate = (k: number, n: number): Rate => {
  const ci = wilsonInterval(k, n);
  return { k, n, rate: n ? k / n : Number.NaN, lower: ci.lower, upper: ci.upper };
};

export async function storedStories(store: Store, runId: string): Promise<StoredStory[]> {
  const out: StoredStory[] = [];
  for await (const r of store.responses(runId, CONVERSATION_RECORDS.scorer)) {
    const t = await store.transcript({ runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate });
    const d = t ? readRecord(CONVERSATION_RECORDS, t.transcript, `${r.suite}/${r.itemId}`) : undefined;
    if (!d) continue;
    out.push({
      subject: r.spec,
      state: d.state,
      setting: d.setting,
      withImages: d.withImages,
      correct: d.correct,
      questions: d.turns.map((x) => x.correct),
      feedbackEvents: d.feedbackEvents,
    });
  }
  return out;
}

export function storyTurnMetrics(stories: StoredStory[]): StoryTurnMetrics[] {
  const groups = new Map<string, StoredStory[]>();
  for (const s of stories) {
    const key = `${s.subject}\u0000${s.withImages ? 'text+image' : 'text-only'}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups].map(([key, ss]) => {
    const [subject, mode] = key.split('\u0000') as [string, StoryTurnMetrics['mode']];
    const by = <K extends 'state' | 'setting'>(field: K) =>
      [...new Set(ss.map((s) => s[field]))].sort().map((v) => {
        const mine = ss.filter((s) => s[field] === v);
        return { [field]: v, ...rate(mine.filter((s) => s.correct).length, mine.length) } as { [P in K]: string } & Rate;
      });
    const qs = ss.flatMap((s) => s.questions);
    const events = ss.flatMap((s) => s.feedbackEvents);
    return {
      subject,
      mode,
      stories: rate(ss.filter((s) => s.correct).length, ss.length),
      questions: rate(qs.filter(Boolean).length, qs.length),
      byState: by('state'),
      bySetting: by('setting'),
      feedbackEffectiveness: events.length ? rate(events.filter((e) => e.recovered).length, events.length) : null,
    };
  });
}
