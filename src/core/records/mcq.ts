// What the multiple-choice protocol stores per trial.

import { z } from 'zod';

export const McqOptionSchema = z.object({ label: z.string(), text: z.string() });

/** An MCQ item's payload as stored (see McqPayload); `world` is the generated items' structured story. */
export const McqPayloadSchema = z.object({
  context: z.string(),
  question: z.string(),
  options: z.array(z.string()),
  answerIndex: z.number().int(),
  world: z.unknown().optional(),
});

/** The transcript detail: what was presented and how the reply was read (generate), or the option log-likelihoods (loglik). */
export const McqDetailSchema = z.object({
  presented: z.array(McqOptionSchema),
  correctLabel: z.string(),
  /** generate: the reply, the label read from it (null: parse failure) and the rule that read it. */
  reply: z.string().optional(),
  parsed: z.string().nullable().optional(),
  parseMethod: z.enum(['answer-tag', 'leading-label', 'bare-label', 'option-text', 'none']).optional(),
  /** Reasoning-trace injection: how many option references were masked. */
  traceMasks: z.number().int().nonnegative().optional(),
  /** loglik: summed log-probabilities, token counts and per-byte values, one per presented option. */
  logprobs: z.array(z.number()).optional(),
  tokenCounts: z.array(z.number()).optional(),
  logprobsPerByte: z.array(z.number()).optional(),
});
export type McqDetail = z.infer<typeof McqDetailSchema>;

export const McqScoreDetailSchema = z.object({
  parsed: z.string().nullable(),
  correctLabel: z.string(),
  parseFailed: z.boolean(),
  /** loglik: accuracy by summed and by per-byte log-probability. */
  acc: z.number().optional(),
  acc_norm: z.number().optional(),
});
export type McqScoreDetail = z.infer<typeof McqScoreDetailSchema>;
