// The describe protocol (animated triangles): the clip as the subject sees it, in one of five
// representations (a numbered grid, the same grid without order badges, the frames as separate
// pictures in order, a native video, or a single still), and a neutral request to
// describe what happens (no condition label, no mental-state vocabulary). The two grids get
// byte-identical text, as the paper's plain-versus-numbered ablation requires. The description
// is stored; its Intentionality and Appropriateness come from a judge panel in the separate
// scoring step (`mindscope score` with the Castelli rubric), where the judges are told the
// clip's condition and script but not the subject. The protocol's own score only records
// whether a description was given.

import { InputError, type ContentPart, type Item, type Task } from '../../../core/index.js';
import { defineProtocol, judgeVars } from '../../../protocols/index.js';
import { ClipLabelsSchema, DESCRIBE_RECORDS, type DescribeDetail, type DescribeScoreDetail } from './describe-records.js';

export const DESCRIBE_SCORER = DESCRIBE_RECORDS.scorer;

/** How a clip reaches the subject. */
export type FrameRepresentation = 'grid' | 'plain-grid' | 'frames' | 'video' | 'still';

export const FRAME_REPRESENTATIONS: readonly FrameRepresentation[] = ['grid', 'plain-grid', 'frames', 'video', 'still'];

/** The request per representation (for 16-frame grids); the two grids share one text. */
export const DESCRIBE_PROMPTS: Record<FrameRepresentation, string> = {
  grid: 'The picture shows 16 frames of a short silent animation, in order: left to right, top to bottom. Describe in a few sentences what happens in it.',
  'plain-grid':
    'The picture shows 16 frames of a short silent animation, in order: left to right, top to bottom. Describe in a few sentences what happens in it.',
  frames: 'These pictures are the frames of a short silent animation, in order. Describe in a few sentences what happens in it.',
  video: 'This video is a short silent animation. Describe in a few sentences what happens in it.',
  still: 'This picture is a single still frame from a short silent animation. Describe in a few sentences what happens in it.',
};

/** A describe item: the stimulus and the clip's labels, which only judges see. */
export interface DescribePayload {
  representation: FrameRepresentation;
  /** Pictures (data URLs) in order: one for a grid or a still, one per frame for a frame sequence; none for a video. */
  images: string[];
  /** The clip as a video (a data URL with its media type), for representation 'video'. */
  video?: string;
  condition?: string;
  script?: string;
  behaviour?: string;
  variant?: string;
  /** The informed rubric's expected Intent range (e.g. "4-5"); judges only. */
  expectedIntent?: string;
  /** Frames in a grid (default 16): the request says how many. */
  frameCount?: number;
}

/** The request for an item: a grid's text names its frame count (16 gives DESCRIBE_PROMPTS' text). */
export function describePrompt(p: Pick<DescribePayload, 'representation' | 'frameCount'>): string | undefined {
  const prompt = DESCRIBE_PROMPTS[p.representation];
  if (prompt === undefined || p.frameCount === undefined || (p.representation !== 'grid' && p.representation !== 'plain-grid'))
    return prompt;
  return prompt.replace('shows 16 frames', `shows ${p.frameCount} frames`);
}

/** The content parts a subject gets for a describe item: the stimulus, then the request. */
export function describeContent(p: DescribePayload): ContentPart[] {
  const prompt = describePrompt(p);
  if (!prompt)
    throw new InputError(`unknown representation "${p.representation}" (known: ${FRAME_REPRESENTATIONS.join(', ')})`, '<describe item>');
  if (p.representation === 'video') {
    if (!p.video) throw new InputError('a video item needs its video', '<describe item>');
    const mediaType = /^data:([^;,]+)/.exec(p.video)?.[1] ?? 'video/mp4';
    return [
      { type: 'video', url: p.video, mediaType },
      { type: 'text', text: prompt },
    ];
  }
  if (p.images.length === 0) throw new InputError(`a ${p.representation} item needs its pictures`, '<describe item>');
  return [...p.images.map((url): ContentPart => ({ type: 'image', url, mediaType: 'image/png' })), { type: 'text', text: prompt }];
}

/** A describe task over a suite's clips. */
export function createDescribeTask<P extends DescribePayload>(suite: string, items: Item<P>[]): Task<P> {
  return {
    suite,
    items,
    records: DESCRIBE_RECORDS,
    async execute(item, model, ctx) {
      const { images: _images, video: _video, expectedIntent: _expected, ...labels } = item.payload;
      const response = await model.chat([{ role: 'user', content: describeContent(item.payload) }], {}, { replicateSeed: ctx.seed });
      const reply = response.text.trim();
      const detail: DescribeDetail = { reply, ...labels };
      const score: DescribeScoreDetail = { judged: false };
      return { detail, score: { scorer: DESCRIBE_SCORER, value: reply ? 1 : 0, detail: score } };
    },
  };
}

/** Free descriptions of a picture, a frame sequence or a clip, scored later by a judge panel. */
export const describeProtocol = defineProtocol<DescribePayload>({
  name: 'describe',
  describe: 'a free description of a clip (frame grid, frame sequence, video or still), judged later by a rubric panel (mindscope score)',
  records: DESCRIBE_RECORDS,
  answer: (r) => ({ reply: (r as DescribeDetail).reply }),
  judge: {
    // The judges may be told the clip's condition and script (never the subject).
    target: (r, item) => {
      const reply = (r as DescribeDetail).reply;
      const clip = ClipLabelsSchema.safeParse(item.payload).data;
      const vars = { condition: clip?.condition, script: clip?.script, expected_intent: clip?.expectedIntent };
      return { response: reply, expected: item.answer, vars: judgeVars({ ...vars, expected: item.answer, reply }) };
    },
  },
  createTask: (suite, items) => createDescribeTask(suite, items),
});
