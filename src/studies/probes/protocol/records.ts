// What the probe protocol stores per trial: one base item and every variant of it, each with the
// options as presented, the expected option and the subject's answer; belief-listing trials store
// the listed and the tracked belief propositions at each checkpoint.

import { z } from 'zod';
import type { RecordSchemas } from '../../../core/index.js';

export const PROBE_FAMILIES = ['invariance', 'sensitivity', 'shortcut', 'beliefs'] as const;
export type ProbeFamily = (typeof PROBE_FAMILIES)[number];

const OptionSchema = z.object({ label: z.string(), text: z.string() });

const VariantResultSchema = z.object({
  /** The variant's name: `original`, `permutation-2`, `names-1`, `paraphrase-3`, `transparent`, `question-only`, ... */
  name: z.string(),
  /** Its kind: original, permutation, names, objects, paraphrase; an alteration; a shortcut baseline. */
  kind: z.string(),
  context: z.string(),
  question: z.string(),
  presented: z.array(OptionSchema),
  /** The expected option's label and text as presented. */
  expectedLabel: z.string(),
  expectedText: z.string(),
  reply: z.string(),
  parsed: z.string().nullable(),
  /** The chosen option's text and its position (0-based) as presented; null when no option was read. */
  chosenText: z.string().nullable(),
  chosenPosition: z.number().int().nullable(),
  correct: z.boolean(),
  /** Sensitivity: whether the alteration changes the expected answer (a flip) or must leave it (a hold). */
  flips: z.boolean().optional(),
  /** Sensitivity: the belief order of the question. */
  order: z.number().int().optional(),
});
export type VariantResult = z.infer<typeof VariantResultSchema>;

export const BeliefPropositionSchema = z.object({
  /** The holder chain: ["Anne"] is Anne's belief, ["Anne", "Bob"] Anne's belief about Bob's. */
  holder: z.array(z.string()).min(1),
  order: z.number().int().positive(),
  object: z.string(),
  container: z.string(),
  /** Whether the belief matches where the object is at the checkpoint. */
  true: z.boolean(),
});
export type BeliefProposition = z.infer<typeof BeliefPropositionSchema>;

const CheckpointResultSchema = z.object({
  /** How many of the story's sentences the subject had read. */
  sentences: z.number().int(),
  context: z.string(),
  reply: z.string(),
  /** The propositions read from the reply (null: no JSON list could be read). */
  listed: z.array(BeliefPropositionSchema).nullable(),
  gold: z.array(BeliefPropositionSchema),
});
export type CheckpointResult = z.infer<typeof CheckpointResultSchema>;

const ProbeDetailSchema = z.object({
  family: z.enum(PROBE_FAMILIES),
  baseSuite: z.string(),
  baseId: z.string(),
  variants: z.array(VariantResultSchema),
  /** Shortcut baselines: the answer-length-only baseline (no call): is the expected option the unique longest, the unique shortest? */
  lengthOnly: z.object({ longest: z.boolean(), shortest: z.boolean() }).optional(),
  checkpoints: z.array(CheckpointResultSchema).optional(),
});
export type ProbeDetail = z.infer<typeof ProbeDetailSchema>;

const ProbeScoreDetailSchema = z.object({
  family: z.enum(PROBE_FAMILIES),
  variants: z.number().int(),
  correct: z.number().int(),
});

/** The probe protocol's record schemas (stored names: they never change). */
export const PROBE_RECORDS = {
  protocol: 'probe',
  scorer: 'probe',
  detail: ProbeDetailSchema,
  score: ProbeScoreDetailSchema,
} satisfies RecordSchemas;
