// The StoryTurn protocol (CoMMET): one chat per StoryTurn. Each turn adds the feedback that
// the previous answer selects (by its correctness, or by which answer it was), then the turn's
// story text and question, and, in the image setting, the turn's image as an image part. The
// model answers in the same conversation; each answer is scored against the turn's expected
// answers (exact match on the normalised answer part of the reply). The story is right when
// every question is. Feedback events (a wrong answer followed by feedback) are recorded with
// whether the next answer was right, and what the feedback depended on (the answer's
// correctness, or which answer it was): feedback effectiveness.

import {
  answerMatches,
  answerPart,
  expectedAnswers,
  feedbackKind,
  parseFeedback,
  selectedBranch,
  turnImages,
  type StoryTurnStory,
} from './storyturn.js';
import {
  callInfoKey,
  createRng,
  InputError,
  deriveSeed,
  readInfo,
  withInfo,
  type ChatMessage,
  type ContentPart,
  type Item,
  type Task,
  type TrialContext,
  type TrialModel,
} from '../../../core/index.js';
import { defineProtocol, type ReferencePolicy } from '../../../protocols/index.js';
import { STORYTURN_RECORDS, type StoryTurnDetail, type StoryTurnResult, type StoryTurnScoreDetail } from './records.js';
import { STORYTURN_JUDGING } from './storyturn-judging.js';

export const STORYTURN_SCORER = STORYTURN_RECORDS.scorer;

export interface StoryTurnPayload {
  story: StoryTurnStory;
}

/** What a StoryTurn call tells reference subjects: the expected answers of this turn. */
export interface StoryTurnCallInfo {
  expected: string[];
  turn: number;
}

export const STORYTURN_INFO = callInfoKey<StoryTurnCallInfo>('conversation');

const SYSTEM =
  'You will read a story told over several turns and answer a question at each turn. Answer briefly; end your reply with a line "Answer: <your answer>".';

function imagePart(url: string): ContentPart {
  // Local files were read and checked once when the story loaded: the story holds their bytes.
  // Reading a path again here could send another file than the one checked.
  if (url.startsWith('data:') || /^https?:\/\//.test(url)) return { type: 'image', url };
  throw new InputError(
    `the image "${url}" is a file path, not the image's bytes: StoryTurn images are read when the suite loads (load it again)`,
  );
}

/** Run one StoryTurn as a conversation: feedback chosen by the previous answer, each answer scored against the turn's expected answers. */
export async function runStoryTurn(
  story: StoryTurnStory,
  model: TrialModel,
  ctx: TrialContext,
  opts: { images: boolean },
): Promise<StoryTurnDetail> {
  const messages: ChatMessage[] = [{ role: 'system', content: SYSTEM }];
  const results: StoryTurnResult[] = [];
  const events: StoryTurnDetail['feedbackEvents'] = [];
  let previousReply: string | undefined;
  let previousCorrect: boolean | undefined;
  for (let i = 0; i < story.turns.length; i++) {
    const turn = story.turns[i]!;
    const fb = parseFeedback(turn.feedback);
    let feedbackShown = '';
    if (previousReply !== undefined) {
      if (fb.kind === 'correctness') feedbackShown = previousCorrect ? fb.right : fb.wrong;
      if (fb.kind === 'previous') feedbackShown = fb.branches[selectedBranch(fb, previousReply)]?.text ?? '';
    }
    const text = [feedbackShown, turn.story, `Question: ${turn.question}`].filter((x) => x.trim()).join('\n\n');
    // Several images: one per condition of the feedback, or all of them (see turnImages).
    const shown = opts.images
      ? turnImages(story, i, previousReply === undefined ? undefined : { reply: previousReply, correct: previousCorrect ?? false })
      : [];
    const content: string | ContentPart[] = shown.length
      ? [{ type: 'text', text }, ...shown.map((id) => imagePart(story.images[id]!))]
      : text;
    messages.push({ role: 'user', content });
    const expected = expectedAnswers(story, i, previousReply);
    const response = await model.chat(messages, {}, { replicateSeed: ctx.seed, info: withInfo(STORYTURN_INFO, { expected, turn: i }) });
    messages.push({ role: 'assistant', content: response.text });
    const answer = answerPart(response.text);
    const correct = expected.some((e) => answerMatches(answer, e));
    if (previousCorrect === false && feedbackShown) {
      const kind = feedbackKind(turn.feedback);
      events.push({ afterTurn: i, recovered: correct, ...(kind === 'none' ? {} : { kind }) });
    }
    results.push({
      turn: i + 1,
      question: turn.question,
      feedbackShown,
      expected,
      reply: response.text,
      answer,
      correct,
      ...(shown.length ? { images: shown } : {}),
    });
    previousReply = response.text;
    previousCorrect = correct;
  }
  return {
    storyId: story.id,
    state: story.state,
    setting: story.setting,
    ...(story.category ? { category: story.category } : {}),
    ...(story.task ? { task: story.task } : {}),
    withImages: opts.images,
    correct: results.every((r) => r.correct),
    turns: results,
    feedbackEvents: events,
  };
}

/** A task over a suite's StoryTurns, one conversation each; `images` sends each turn's image (the text+image setting). */
export function createStoryTurnTask(
  suite: string,
  items: Item<StoryTurnPayload>[],
  opts: { images?: boolean } = {},
): Task<StoryTurnPayload> {
  return {
    suite,
    items,
    records: STORYTURN_RECORDS,
    async execute(item, model, ctx) {
      const detail = await runStoryTurn(item.payload.story, model, ctx, { images: opts.images ?? false });
      const score: StoryTurnScoreDetail = {
        questions: detail.turns.length,
        questionsRight: detail.turns.filter((t) => t.correct).length,
        feedbackEvents: detail.feedbackEvents.length,
        recovered: detail.feedbackEvents.filter((e) => e.recovered).length,
        setting: detail.setting,
        withImages: detail.withImages,
      };
      return { detail, score: { scorer: STORYTURN_SCORER, value: detail.correct ? 1 : 0, detail: score } };
    },
  };
}

/**
 * Reference subjects on StoryTurns: random picks a seeded reply among the expected answers and
 * "I do not know" (so both feedback branches occur); every other agent gives the first expected
 * answer.
 */
const STORYTURN_POLICIES: Record<string, ReferencePolicy> = {
  random: {
    describe: 'a seeded choice among the expected answers and "I do not know"',
    reply(ctx) {
      const st = readInfo(ctx.info, STORYTURN_INFO);
      if (!st) return undefined;
      return `Answer: ${createRng(deriveSeed('agent:random:storyturn', st.turn, st.expected.join('|'), ctx.replicateSeed ?? 0)).pick([...st.expected, 'I do not know'])}`;
    },
  },
  '*': {
    describe: 'the first expected answer',
    reply(ctx) {
      const st = readInfo(ctx.info, STORYTURN_INFO);
      return st ? `Answer: ${st.expected[0]}` : undefined;
    },
  },
};

/** The StoryTurn protocol (CoMMET): one chat per story, feedback chosen by the previous answer. */
export const storyTurnProtocol = defineProtocol<StoryTurnPayload>({
  name: STORYTURN_RECORDS.protocol,
  describe: 'multi-turn StoryTurn conversations with answer-dependent feedback (CoMMET); the story is right when every turn is',
  records: STORYTURN_RECORDS,
  policies: STORYTURN_POLICIES,
  answer: (r) => {
    const turns = (r as StoryTurnDetail).turns;
    return {
      reply: JSON.stringify(turns.map((x) => x.reply)),
      parsed: JSON.stringify(turns.map((x) => x.answer)),
      gold: JSON.stringify(turns.map((x) => x.expected)),
    };
  },
  judge: STORYTURN_JUDGING,
  // A participant answers every turn; the feedback shown follows from their previous answer.
  humans: {
    part: (context) => {
      const turn = readInfo(context?.info, STORYTURN_INFO)?.turn;
      return turn === undefined ? undefined : turn + 1;
    },
    check(item, answers, who) {
      const turns = (item.payload as StoryTurnPayload).story.turns.length;
      const missing = Array.from({ length: turns }, (_, i) => i + 1).filter((t) => !answers.has(t));
      if (missing.length)
        throw new InputError(`${who.participant}'s answers to StoryTurn ${who.itemId} lack turn(s) ${missing.join(', ')}`, who.where);
    },
  },
  createTask: (suite, items, settings) => createStoryTurnTask(suite, items, { images: settings.images ?? false }),
});
