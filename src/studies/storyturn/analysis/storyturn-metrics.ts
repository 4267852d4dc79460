// StoryTurn metrics (CoMMET), each with a Wilson 95% interval: story-level accuracy (every
// question right) overall, per mental state, per CoMMET category (NLC, NLCE, MBK or the state),
// per booklet task, per setting (text-complete, image-dependent) and per state x setting;
// per-question accuracy, per turn position, on "why" questions and on the others, and story
// accuracy with the final "why" turn set apart (the paper finds most errors there); text-only
// versus text+image runs; and feedback effectiveness (of the wrong answers followed by
// feedback, the share whose next answer is right): CoMMET's Table 3 counts only feedback that
// depends on the answer's correctness ("If right: ...; If wrong: ..."); feedback chosen by
// which answer was given ("If the previous answer is A: ...") and plain feedback are reported
// apart, and all of them together.
// The unit of sampling is the story: a story's questions, and its replicates, are not
// independent, so each interval is Wilson's with the stories' effective number of trials
// (clusteredWilsonInterval; the plain Wilson interval where each story counts once).

import { ConfigError, JudgedStoryDetailSchema, readRecord, readScoreDetail, type Item } from '../../../core/index.js';
import { clusteredWilsonInterval } from '../../../stats/index.js';
import type { Store } from '../../../store/index.js';
import { STORYTURN_RECORDS } from '../protocol/records.js';
import { feedbackKind } from '../protocol/storyturn.js';
import type { StoryTurnPayload } from '../protocol/storyturn-protocol.js';

export interface StoredStory {
  subject: string;
  /** The story as an item (suite and item id): its replicates share it. */
  item: string;
  /** What decided correctness: `exact`, or `judge:RUBRIC` for open turns (exact for closed ones). */
  scorer: string;
  state: string;
  /** CoMMET's category (NLC, NLCE, MBK), or the state when the story has none. */
  category: string;
  /** The booklet task, or `-` when the story names none. */
  task: string;
  setting: string;
  withImages: boolean;
  correct: boolean;
  questions: boolean[];
  /** Which questions ask "why". */
  why: boolean[];
  feedbackEvents: Array<{ recovered: boolean; kind: FeedbackEventKind }>;
}

/** What the feedback after a wrong answer depended on (`unknown`: an old record whose item is not stored). */
export type FeedbackEventKind = 'correctness' | 'answer' | 'unconditional' | 'unknown';

/** Feedback effectiveness, labelled by what the feedback depended on. */
export interface FeedbackEffectiveness {
  /** CoMMET's Table 3: wrong answers followed by correctness-based feedback ("If right: ...; If wrong: ..."). */
  correctness: Rate | null;
  /** Wrong answers followed by feedback chosen by which answer was given ("If the previous answer is A: ..."). */
  answerDependent: Rate | null;
  /** Wrong answers followed by plain feedback, shown whatever the answer. */
  unconditional: Rate | null;
  /** Every wrong answer followed by feedback. */
  all: Rate | null;
}

/** A "why" question: an explanation is asked for. */
export const isWhyQuestion = (q: string) => /^\s*why\b/i.test(q);

export interface Rate {
  k: number;
  n: number;
  /** Stories (items) behind the n, each counted once however many replicates or questions it gives. */
  items: number;
  rate: number;
  lower: number;
  upper: number;
}

export interface StoryTurnMetrics {
  subject: string;
  /** What decided correctness: `exact`, or `judge:RUBRIC (open turns) + exact (closed turns)`. */
  scorer: string;
  mode: 'text-only' | 'text+image';
  stories: Rate;
  questions: Rate;
  byState: Array<{ state: string } & Rate>;
  byCategory: Array<{ category: string } & Rate>;
  byTask: Array<{ task: string } & Rate>;
  bySetting: Array<{ setting: string } & Rate>;
  /** Story accuracy per mental state and setting (the cross-tab). */
  byStateSetting: Array<{ state: string; setting: string } & Rate>;
  /** Question accuracy per turn position (1 = first question). */
  byTurn: Array<{ turn: number } & Rate>;
  /** Question accuracy on "why" questions and on the others. */
  whyQuestions: Rate | null;
  otherQuestions: Rate;
  /**
   * Stories ending in a "why" question: right up to it (every turn before the last), and the
   * final "why" answer itself among those stories.
   */
  finalWhy: { stories: number; beforeWhy: Rate; why: Rate } | null;
  feedbackEffectiveness: FeedbackEffectiveness;
}

/** The share right of `outcomes` (each with its story), with the interval over stories. */
function rate(outcomes: Array<{ item: string; right: boolean }>): Rate {
  const byStory = new Map<string, { sum: number; trials: number }>();
  for (const o of outcomes) {
    const c = byStory.get(o.item) ?? { sum: 0, trials: 0 };
    c.sum += o.right ? 1 : 0;
    c.trials++;
    byStory.set(o.item, c);
  }
  const ci = clusteredWilsonInterval([...byStory.values()], { weighting: 'trial' });
  const k = outcomes.filter((o) => o.right).length;
  const n = outcomes.length;
  return { k, n, items: byStory.size, rate: n ? k / n : Number.NaN, lower: ci.lower, upper: ci.upper };
}

/** Story-level outcomes: right when every question is. */
const storiesRight = (ss: StoredStory[]) => ss.map((s) => ({ item: s.item, right: s.correct }));
/** Question-level outcomes, each with its story; `keep` picks questions by index. */
const questionsRight = (ss: StoredStory[], keep: (s: StoredStory, i: number) => boolean = () => true) =>
  ss.flatMap((s) => s.questions.flatMap((right, i) => (keep(s, i) ? [{ item: s.item, right }] : [])));

/**
 * The judge scorer to read open turns from: the one given, else the run's only pinned rubric,
 * else none (exact match throughout). Several rubrics and none chosen is an error naming them.
 */
export async function storyJudgeScorer(store: Store, runId: string, rubric?: string): Promise<string | undefined> {
  const pinned = (await store.pinnedRubrics(runId)).map((p) => p.rubric);
  if (rubric) {
    if (!pinned.includes(rubric))
      throw new ConfigError(`run ${runId} was not scored with rubric "${rubric}" (scored with: ${pinned.join(', ') || 'none'})`);
    return `judge:${rubric}`;
  }
  if (pinned.length > 1)
    throw new ConfigError(`run ${runId} was scored with several rubrics (${pinned.join(', ')}): choose one with --judge NAME`);
  return pinned[0] ? `judge:${pinned[0]}` : undefined;
}

/**
 * A run's StoryTurns with each question's correctness: the judge panel's verdict for open
 * turns when the trial was judged by `judgeScorer` (see storyJudgeScorer), exact match for
 * closed turns and for trials not judged. Feedback effectiveness follows the same verdicts.
 */
export async function storedStories(store: Store, runId: string, judgeScorer?: string): Promise<StoredStory[]> {
  const out: StoredStory[] = [];
  // Records written before feedback events named their kind: the kind is read from the stored item.
  const items = new Map<string, Promise<Item | undefined>>();
  const kindFrom = async (itemHash: string, turn: number): Promise<FeedbackEventKind> => {
    if (!items.has(itemHash)) items.set(itemHash, store.getItem(itemHash));
    const story = ((await items.get(itemHash))?.payload as StoryTurnPayload | undefined)?.story;
    const kind = story?.turns[turn] ? feedbackKind(story.turns[turn].feedback) : 'none';
    return kind === 'none' ? 'unknown' : kind;
  };
  for await (const r of store.responses(runId, STORYTURN_RECORDS.scorer)) {
    const key = { runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate };
    const t = await store.transcript(key);
    const d = t ? readRecord(STORYTURN_RECORDS, t.transcript, `${r.suite}/${r.itemId}`) : undefined;
    if (!d) continue;
    const judged = judgeScorer ? await store.scoreOf(key, judgeScorer) : undefined;
    const verdicts = judged ? readScoreDetail(JudgedStoryDetailSchema, judged.detail)?.turns : undefined;
    const correctAt = (turn: number, exact: boolean) => verdicts?.find((v) => v.turn === turn && v.open)?.correct ?? exact;
    const questions = d.turns.map((x) => correctAt(x.turn, x.correct));
    out.push({
      subject: r.spec,
      item: `${r.suite}/${r.itemId}`,
      scorer: verdicts ? `${judgeScorer} (open turns) + exact (closed turns)` : 'exact',
      state: d.state,
      category: d.category ?? String(r.meta.commetCategory ?? d.state),
      task: d.task ?? String(r.meta.task ?? '-'),
      setting: d.setting,
      withImages: d.withImages,
      correct: questions.every(Boolean),
      questions,
      why: d.turns.map((x) => isWhyQuestion(x.question)),
      // afterTurn is the 0-based index of the answer given after the feedback.
      feedbackEvents: await Promise.all(
        d.feedbackEvents.map(async (e) => ({
          recovered: questions[e.afterTurn] ?? e.recovered,
          kind: e.kind ?? (await kindFrom(r.itemHash, e.afterTurn)),
        })),
      ),
    });
  }
  return out;
}

/** Per subject, mode and scorer: the rates of the file comment, each with its Wilson interval. */
export function storyTurnMetrics(stories: StoredStory[]): StoryTurnMetrics[] {
  const groups = new Map<string, StoredStory[]>();
  for (const s of stories) {
    const key = `${s.subject}\u0000${s.withImages ? 'text+image' : 'text-only'}\u0000${s.scorer}`;
    groups.set(key, [...(groups.get(key) ?? []), s]);
  }
  return [...groups].map(([key, ss]) => {
    const [subject, mode, scorer] = key.split('\u0000') as [string, StoryTurnMetrics['mode'], string];
    const by = <K extends 'state' | 'setting' | 'category' | 'task'>(field: K) =>
      [...new Set(ss.map((s) => s[field]))].sort().map((v) => {
        const mine = ss.filter((s) => s[field] === v);
        return { [field]: v, ...rate(storiesRight(mine)) } as { [P in K]: string } & Rate;
      });
    const stateSetting = [...new Set(ss.map((s) => `${s.state}\u0000${s.setting}`))].sort().map((k) => {
      const [state, setting] = k.split('\u0000') as [string, string];
      const mine = ss.filter((s) => s.state === state && s.setting === setting);
      return { state, setting, ...rate(storiesRight(mine)) };
    });
    const whys = questionsRight(ss, (s, i) => s.why[i]!);
    const turns = Math.max(...ss.map((s) => s.questions.length));
    const byTurn = Array.from({ length: turns }, (_, t) => ({ turn: t + 1, ...rate(questionsRight(ss, (_s, i) => i === t)) }));
    const endingWhy = ss.filter((s) => s.why.length > 1 && s.why.at(-1));
    const events = (keep: (k: FeedbackEventKind) => boolean) => {
      const xs = ss.flatMap((s) => s.feedbackEvents.filter((e) => keep(e.kind)).map((e) => ({ item: s.item, right: e.recovered })));
      return xs.length ? rate(xs) : null;
    };
    return {
      subject,
      scorer,
      mode,
      stories: rate(storiesRight(ss)),
      questions: rate(questionsRight(ss)),
      byState: by('state'),
      byCategory: by('category'),
      byTask: by('task'),
      bySetting: by('setting'),
      byStateSetting: stateSetting,
      byTurn,
      whyQuestions: whys.length ? rate(whys) : null,
      otherQuestions: rate(questionsRight(ss, (s, i) => !s.why[i])),
      finalWhy: endingWhy.length
        ? {
            stories: endingWhy.length,
            beforeWhy: rate(endingWhy.map((s) => ({ item: s.item, right: s.questions.slice(0, -1).every(Boolean) }))),
            why: rate(endingWhy.map((s) => ({ item: s.item, right: s.questions.at(-1)! }))),
          }
        : null,
      feedbackEffectiveness: {
        correctness: events((k) => k === 'correctness'),
        answerDependent: events((k) => k === 'answer'),
        unconditional: events((k) => k === 'unconditional'),
        all: events(() => true),
      },
    };
  });
}
