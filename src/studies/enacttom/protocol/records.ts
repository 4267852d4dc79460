// What an embodied episode leaves behind (stored as the trial's detail): the outcome, the
// literal probes, private goals and the transcript turn by turn. The protocol writes it; the
// analyses and the report read it.
//
// Literal probes come in two forms. `partner-belief` (literal.form): an agent is asked in words
// what a partner thinks or knows, and the right answer is the partner's tracked belief; each
// probe says whose mind it is about, its kind, and what the world would have answered. Records
// without literal.form hold the earlier `self-fact` form (the agent named by a K goal asked
// whether the fact itself held, graded against the world); they still read, and the analyses
// leave their literal scores out. Fields added with the partner-belief form are optional.

import { z } from 'zod';
import type { RecordSchemas } from '../../../core/index.js';

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
  /** The agent asked. */
  agent: z.string(),
  /** The node probed, (K about psi), in the goal language (the question itself is in words). */
  formula: z.string(),
  question: z.string(),
  reply: z.string(),
  /** The reply read as one of the probe's answers (lower case); null: none or several. */
  answer: z.string().nullable(),
  /** The right answer: yes or no (self-fact); the partner's belief (partner-belief): open, closed, a place, yes, no or unknown. */
  expected: z.string(),
  correct: z.boolean(),
  /** partner-belief: the partner whose mind is asked about. */
  about: z.string().optional(),
  kind: z.enum(['state', 'location', 'fact', 'knows']).optional(),
  /** goal: an epistemic node of the goal; contrast: a partner whose belief departed from the world at the end. */
  source: z.enum(['goal', 'contrast']).optional(),
  /** What the world shows (the answer of a reporter of the truth, not of the partner's mind). */
  worldAnswer: z.string().optional(),
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
  literal: z.object({
    correct: z.number().int(),
    total: z.number().int(),
    allCorrect: z.boolean(),
    /** Absent: the earlier self-fact probes. */
    form: z.literal('partner-belief').optional(),
    /** Probes whose right answer is not the world's (the partner's belief false or missing). */
    divergent: z.object({ correct: z.number().int(), total: z.number().int() }).optional(),
  }),
  privateGoals: z.record(z.string(), z.boolean()),
  malformed: z.number().int(),
  turns: z.array(EpisodeTurnSchema),
  /** `secrets-revealed`: played with every agent's secrets revealed to every agent (calibration); absent: secrets private. */
  condition: z.literal('secrets-revealed').optional(),
});
export type EpisodeDetail = z.infer<typeof EpisodeDetailSchema>;

export const EpisodeScoreDetailSchema = z.object({
  epistemic: z.boolean(),
  literalCorrect: z.number().int(),
  literalTotal: z.number().int(),
  literalAll: z.boolean(),
  /** Absent: the earlier self-fact probes. */
  literalForm: z.literal('partner-belief').optional(),
  rounds: z.number().int(),
  malformed: z.number().int(),
  category: z.enum(['cooperative', 'mixed']),
  kDepth: z.number().int(),
});
export type EpisodeScoreDetail = z.infer<typeof EpisodeScoreDetailSchema>;

/** The episode protocol's record schemas; a record stored before records named their protocol has a taskId and probes. */
export const EPISODE_RECORDS = {
  protocol: 'episode',
  scorer: 'episode-functional',
  legacy: (d) => 'taskId' in d && 'probes' in d,
  detail: EpisodeDetailSchema,
  score: EpisodeScoreDetailSchema,
} satisfies RecordSchemas;
