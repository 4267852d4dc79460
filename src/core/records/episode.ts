// What an embodied episode leaves behind (stored as the trial's detail): the outcome, the
// literal probes, private goals and the transcript turn by turn. The protocol writes it; the
// analyses and the report read it.

import { z } from 'zod';

export const EpisodeTurnSchema = z.object({
  round: z.number().int(),
  agent: z.string(),
  reply: z.string(),
  action: z.string().nullable(),
  ok: z.boolean(),
  observation: z.string(),
  /** Communicate: recipients and the atoms the message conveyed (described). */
  delivered: z.array(z.string()).optional(),
  conveyed: z.array(z.string()).optional(),
});
export type EpisodeTurn = z.infer<typeof EpisodeTurnSchema>;

export const ProbeResultSchema = z.object({
  agent: z.string(),
  formula: z.string(),
  question: z.string(),
  reply: z.string(),
  answer: z.string().nullable(),
  expected: z.enum(['yes', 'no']),
  correct: z.boolean(),
});
export type ProbeResult = z.infer<typeof ProbeResultSchema>;

export const EpisodeDetailSchema = z.object({
  taskId: z.string(),
  category: z.enum(['cooperative', 'mixed']),
  kDepth: z.number().int(),
  functional: z.boolean(),
  /** The whole goal, K parts included (who knows what, as tracked), held at the end. */
  epistemic: z.boolean(),
  rounds: z.number().int(),
  probes: z.array(ProbeResultSchema),
  literal: z.object({ correct: z.number().int(), total: z.number().int(), allCorrect: z.boolean() }),
  privateGoals: z.record(z.string(), z.boolean()),
  malformed: z.number().int(),
  turns: z.array(EpisodeTurnSchema),
});
export type EpisodeDetail = z.infer<typeof EpisodeDetailSchema>;

export const EpisodeScoreDetailSchema = z.object({
  epistemic: z.boolean(),
  literalCorrect: z.number().int(),
  literalTotal: z.number().int(),
  literalAll: z.boolean(),
  rounds: z.number().int(),
  malformed: z.number().int(),
  category: z.enum(['cooperative', 'mixed']),
  kDepth: z.number().int(),
});
export type EpisodeScoreDetail = z.infer<typeof EpisodeScoreDetailSchema>;
