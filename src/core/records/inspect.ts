// What a trial imported from an Inspect AI eval log stores (`mindscope import inspect`): the
// sample's conversation, the model's final reply, the scorer's reading of it and the target,
// with where it came from, so that an imported trial reads like any other.

import { z } from 'zod';
import { ChatMessageSchema, TokenUsageSchema } from './transcript.js';

export const InspectDetailSchema = z.object({
  /** The log file (its base name) and the sample in it. */
  file: z.string(),
  sampleId: z.union([z.string(), z.number()]),
  epoch: z.number().int().positive(),
  /** The Inspect task and scorer the trial's score comes from. */
  task: z.string(),
  scorer: z.string(),
  messages: z.array(ChatMessageSchema),
  /** The places in `messages` of the model's replies (Inspect's source "generate"), when the log marks them. */
  generated: z.array(z.number().int().nonnegative()).optional(),
  /** The model's final completion (output.completion or the last assistant message). */
  reply: z.string(),
  reasoning: z.string().optional(),
  /** What the scorer read from the reply (Score.answer), null when it read nothing. */
  answer: z.string().nullable(),
  target: z.array(z.string()),
  choices: z.array(z.string()).optional(),
  explanation: z.string().optional(),
  usage: TokenUsageSchema.optional(),
  /** The reasoning tokens the sample's usage counts, when it counts them. */
  reasoningTokens: z.number().int().nonnegative().optional(),
  /** Seconds the sample took, as Inspect recorded it. */
  totalTime: z.number().optional(),
});
export type InspectDetail = z.infer<typeof InspectDetailSchema>;

/** The imported score: Inspect's value as logged (C, I, P, N, a number or a boolean) next to the 0..1 value stored. */
export const InspectScoreDetailSchema = z.object({
  inspectValue: z.union([z.string(), z.number(), z.boolean()]),
  /** Absent where the log's trial was not read for an answer (`export inspect` wrote parse_failed null). */
  parseFailed: z.boolean().optional(),
});
export type InspectScoreDetail = z.infer<typeof InspectScoreDetailSchema>;
