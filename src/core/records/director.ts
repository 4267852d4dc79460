// What the Director-Task protocol stores per trial: each sub-prompt's reply, read at letter and
// colour level, with egocentric errors marked on the acting prompts.

import { z } from 'zod';

const SeenAnswer = z.object({ letter: z.boolean(), color: z.boolean(), reply: z.string() });
const MoveAnswer = SeenAnswer.extend({ egocentric: z.boolean() });

export const DirectorDetailSchema = z.object({
  sceneId: z.string(),
  arm: z.string(),
  blocks: z.number().int(),
  a: SeenAnswer,
  b: MoveAnswer,
  cQ1: SeenAnswer,
  cQ2: MoveAnswer,
});
export type DirectorDetail = z.infer<typeof DirectorDetailSchema>;

export const DirectorScoreDetailSchema = z.object({
  a: z.boolean(),
  b: z.boolean(),
  cQ1: z.boolean(),
  cQ2: z.boolean(),
  egocentric: z.boolean(),
  arm: z.string(),
  blocks: z.number().int(),
});
export type DirectorScoreDetail = z.infer<typeof DirectorScoreDetailSchema>;
