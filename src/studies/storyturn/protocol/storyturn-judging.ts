// How a judge panel scores a stored StoryTurn conversation (`mindscope score`): closed turns keep
// their exact score; open ones ("why" questions, expected answers of more than four words) go to
// the panel with the story told so far. The story is right when every turn is.

import type { Item } from '../../../core/index.js';
import { judgeVars, type JudgeHooks } from '../../../protocols/index.js';
import type { StoryTurnDetail } from './records.js';

/** An open question: "why", or an expected answer of more than four words. */
function isOpenTurn(t: { question: string; expected: string[] }): boolean {
  return /^\s*why\b/i.test(t.question) || t.expected.some((e) => e.split(/\s+/).length > 4);
}

/** The judging of StoryTurn conversations, turn by turn. */
export const STORYTURN_JUDGING: JudgeHooks = {
  async score(record, item: Item | undefined, judge) {
    const story = record as StoryTurnDetail;
    const told = (item?.payload as { story?: { turns?: Array<{ story: string }> } } | undefined)?.story?.turns;
    // The story so far for the judge: each turn's feedback and text up to the question judged.
    const soFar = (upTo: number) =>
      story.turns
        .slice(0, upTo + 1)
        .flatMap((x, k) => [x.feedbackShown, told?.[k]?.story ?? ''])
        .filter((x) => x.trim())
        .join('\n');
    const turns = await Promise.all(
      story.turns.map(async (t, index) => {
        if (!isOpenTurn(t)) return { turn: t.turn, open: false, correct: t.correct };
        const expected = t.expected.join(' / ');
        const { passed, ...panel } = await judge({
          response: t.answer,
          expected,
          vars: judgeVars({ question: t.question, expected, context: soFar(index), reply: t.reply }),
        });
        return { turn: t.turn, open: true, correct: passed, panel };
      }),
    );
    return { value: turns.every((t) => t.correct) ? 1 : 0, detail: { turns } };
  },
};
