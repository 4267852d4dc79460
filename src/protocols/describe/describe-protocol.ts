// The describe protocol (animated triangles): the clip's frame grid as an image part, and a
// neutral request to describe what happens (no condition label, no mental-state vocabulary).
// The description is stored; its Intentionality and Appropriateness come from a judge panel
// in the separate scoring step (`mindscope score` with the Castelli rubric), where the judges
// are told the clip's condition and script but not the subject. The protocol's own score only
// records whether a description was given.

import type { Item, ProtocolResult, Task, TrialContext, TrialModel } from '../../core/index.js';

export const DESCRIBE_SCORER = 'described';

export const DESCRIBE_PROMPT =
  'The numbered frames (1 to 16, left to right, top to bottom) show a short silent animation, in order. Describe in a few sentences what happens in it.';

export function createDescribeTask<P extends { grid: string }>(suite: string, items: Item<P>[]): Task {
  return {
    suite,
    items,
    async execute(item: Item, model: TrialModel, ctx: TrialContext): Promise<ProtocolResult> {
      const p = (item as Item<P>).payload;
      const response = await model.chat(
        [
          {
            role: 'user',
            content: [
              { type: 'image', url: p.grid, mediaType: 'image/png' },
              { type: 'text', text: DESCRIBE_PROMPT },
            ],
          },
        ],
        {},
        { replicateSeed: ctx.seed },
      );
      const reply = response.text.trim();
      return {
        detail: { reply, ...Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'grid')) },
        score: { scorer: DESCRIBE_SCORER, value: reply ? 1 : 0, detail: { judged: false } },
      };
    },
  };
}
