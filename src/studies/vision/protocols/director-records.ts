// What the Director-Task protocol stores per trial: each sub-prompt's reply, read at letter and
// colour level (the closed colour vocabulary), with egocentric errors marked on the acting
// prompts (b) and c.Q2, and where the scene sits in the counterbalanced design. Fields added
// after 0.2 are optional, so records written before them still read.

import { z } from 'zod';
import type { RecordSchemas } from '../../../core/index.js';

/**
 * How one answer went. correct: right letter(s) and colour(s); letter_only_correct: right
 * letter, wrong or missing colour (e.g. blue read as cyan); color_only_correct: the reverse;
 * egocentric: an acting prompt picks the block the director cannot see; includes_hidden: a
 * visibility prompt lists it; wrong: another answer; no_answer: nothing readable.
 */
export const DirectorAnswerModeSchema = z.enum([
  'correct',
  'letter_only_correct',
  'color_only_correct',
  'egocentric',
  'includes_hidden',
  'wrong',
  'no_answer',
]);
export type DirectorAnswerMode = z.infer<typeof DirectorAnswerModeSchema>;

const SeenAnswer = z.object({
  letter: z.boolean(),
  color: z.boolean(),
  reply: z.string(),
  /** Letters and colours read from the answer line. */
  letters: z.array(z.string()).optional(),
  colors: z.array(z.string()).optional(),
  mode: DirectorAnswerModeSchema.optional(),
});
const MoveAnswer = SeenAnswer.extend({ egocentric: z.boolean() });

export const DirectorDesignSchema = z.object({
  palette: z.number().int(),
  mapping: z.array(z.string()),
  targetSlot: z.number().int(),
  trapSlot: z.number().int(),
});

export const DirectorDetailSchema = z.object({
  sceneId: z.string(),
  arm: z.string(),
  blocks: z.number().int(),
  a: SeenAnswer,
  b: MoveAnswer,
  cQ1: SeenAnswer,
  cQ2: MoveAnswer,
  extremum: z.enum(['largest', 'smallest']).optional(),
  design: DirectorDesignSchema.optional(),
});
export type DirectorDetail = z.infer<typeof DirectorDetailSchema>;

const PerPrompt = z.object({ a: z.boolean(), b: z.boolean(), cQ1: z.boolean(), cQ2: z.boolean() });

export const DirectorScoreDetailSchema = z.object({
  /** Letter level (the score's headline; letters are the unambiguous cue). */
  a: z.boolean(),
  b: z.boolean(),
  cQ1: z.boolean(),
  cQ2: z.boolean(),
  /** Egocentric error on (b). */
  egocentric: z.boolean(),
  /** Egocentric error on c.Q2. */
  egocentricCQ2: z.boolean().optional(),
  /** Colour level: the colour words named match. */
  color: PerPrompt.optional(),
  modes: z
    .object({ a: DirectorAnswerModeSchema, b: DirectorAnswerModeSchema, cQ1: DirectorAnswerModeSchema, cQ2: DirectorAnswerModeSchema })
    .optional(),
  arm: z.string(),
  blocks: z.number().int(),
  extremum: z.enum(['largest', 'smallest']).optional(),
  design: DirectorDesignSchema.optional(),
});
export type DirectorScoreDetail = z.infer<typeof DirectorScoreDetailSchema>;

/** The Director-Task protocol's record schemas; records written before protocols were named have cQ2 and a sceneId. */
export const DIRECTOR_RECORDS = {
  protocol: 'director',
  scorer: 'director-b',
  legacy: (d) => 'sceneId' in d && 'cQ2' in d,
  detail: DirectorDetailSchema,
  score: DirectorScoreDetailSchema,
} satisfies RecordSchemas;
