// The describe protocol (animated triangles): the clip's frame grid as an image part, and a
// neutral request to describe what happens (no condition label, no mental-state vocabulary).
// The description is stored; its Intentionality and Appropriateness come from a judge panel
// in the separate scoring step (`mindscope score` with the Castelli rubric), where the judges
// are told the clip's condition and script but not the subject. The protocol's own score only
// records whether a description was given.

import { DESCRIBE_RECORDS, type DescribeDetail, type DescribeScoreDetail, type Item, type Task } from '../../core/index.js';
import { defineProtocol } from '../protocol.js';

export const DESCRIBE_SCORER = DESCRIBE_RECORDS.scorer;

export const DESCRIBE_PROMPT =
  'The numbered frames (1 to 16, left to right, top to bottom) show a short silent animation, in order. Describe in a few sentences what happens in it.';

/** A describe item: the frame grid (a data URL) and the clip's labels, which only judges see. */
export interface DescribePayload {
  grid: string;
  condition?: string;
  script?: string;
  behaviour?: string;
  variant?: string;
}

/** A describe task over a suite's clips. */
export function createDescribeTask<P extends DescribePayload>(suite: string, items: Item<P>[]): Task<P> {
  return {
    suite,
    items,
    records: DESCRIBE_RECORDS,
    async execute(item, model, ctx) {
      const { grid, ...labels } = item.payload;
      const response = await model.chat(
        [
          {
            role: 'user',
            content: [
              { type: 'image', url: grid, mediaType: 'image/png' },
              { type: 'text', text: DESCRIBE_PROMPT },
            ],
          },
        ],
        {},
        { replicateSeed: ctx.seed },
      );
      const reply = response.text.trim();
      const detail: DescribeDetail = { reply, ...labels };
      const score: DescribeScoreDetail = { judged: false };
      return { detail, score: { scorer: DESCRIBE_SCORER, value: reply ? 1 : 0, detail: score } };
    },
  };
}

/** Free descriptions of a picture or clip, scored later by a judge panel. */
export const describeProtocol = defineProtocol<DescribePayload>({
  name: 'describe',
  describe: 'a free description of a frame grid, judged later by a rubric panel (mindscope score)',
  records: DESCRIBE_RECORDS,
  createTask: (suite, items) => createDescribeTask(suite, items),
});
