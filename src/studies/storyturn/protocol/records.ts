// What the StoryTurn protocol (CoMMET) stores per trial, and the schemas it validates against.

import { z } from 'zod';
import type { RecordSchemas } from '../../../core/index.js';

export const StoryTurnResultSchema = z.object({
  turn: z.number().int().positive(),
  question: z.string(),
  feedbackShown: z.string(),
  expected: z.array(z.string()),
  reply: z.string(),
  answer: z.string(),
  correct: z.boolean(),
  /** Image ids shown with the turn (the text+image setting). */
  images: z.array(z.string()).optional(),
});
export type StoryTurnResult = z.infer<typeof StoryTurnResultSchema>;

export const StoryTurnDetailSchema = z.object({
  storyId: z.string(),
  state: z.string(),
  setting: z.enum(['text-complete', 'image-dependent']),
  /** CoMMET's reporting category (NLC, NLCE, MBK or a state) and booklet task, when the story has them. */
  category: z.string().optional(),
  task: z.string().optional(),
  withImages: z.boolean(),
  correct: z.boolean(),
  turns: z.array(StoryTurnResultSchema),
  /**
   * Wrong answers followed by feedback, and whether the next answer was right; `kind`: what the
   * feedback depended on (records written before it was kept lack it: read from the stored item).
   */
  feedbackEvents: z.array(
    z.object({
      afterTurn: z.number().int(),
      recovered: z.boolean(),
      kind: z.enum(['correctness', 'answer', 'unconditional']).optional(),
    }),
  ),
});
export type StoryTurnDetail = z.infer<typeof StoryTurnDetailSchema>;

export const StoryTurnScoreDetailSchema = z.object({
  questions: z.number().int(),
  questionsRight: z.number().int(),
  feedbackEvents: z.number().int(),
  recovered: z.number().int(),
  setting: z.enum(['text-complete', 'image-dependent']),
  withImages: z.boolean(),
});
export type StoryTurnScoreDetail = z.infer<typeof StoryTurnScoreDetailSchema>;

export const STORYTURN_RECORDS = {
  // The protocol's name as stored with every StoryTurn transcript (stored data: it never changes).
  protocol: 'conversation',
  scorer: 'storyturn-story',
  legacy: (d) => 'storyId' in d && 'turns' in d,
  detail: StoryTurnDetailSchema,
  score: StoryTurnScoreDetailSchema,
} satisfies RecordSchemas;
