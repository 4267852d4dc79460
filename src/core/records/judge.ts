// What a judge panel stores as a score (`mindscope score`): every judge's raw output and values,
// the rubric's name and SHA-256, and the aggregate. StoryTurn trials keep one panel per open turn.

import { z } from 'zod';
import { TokenUsageSchema } from './transcript.js';

export const RubricRefSchema = z.object({ name: z.string(), sha256: z.string() });

/** What every judge score detail has: the rubric it was scored with. */
export const RubricPinnedSchema = z.object({ rubric: RubricRefSchema });

export const JudgeRecordSchema = z.object({
  judge: z.string(),
  /** Raw replies: the first, and the repair reply when one was needed. */
  raw: z.array(z.string()),
  values: z.record(z.string(), z.number()).nullable(),
  error: z.string().optional(),
  /** Tokens of this judge's calls on the response (the repair call included), for cost per cell at list prices. */
  usage: TokenUsageSchema.optional(),
});
export type JudgeRecord = z.infer<typeof JudgeRecordSchema>;

export const AggregationSchema = z.enum(['median', 'mean', 'majority']);

export const PanelScoreSchema = z.object({
  rubric: RubricRefSchema,
  aggregation: AggregationSchema,
  judges: z.array(JudgeRecordSchema),
  /** Per field over the judges that answered; null when none did. */
  aggregate: z.record(z.string(), z.number()).nullable(),
  failures: z.number().int(),
});
export type PanelScore = z.infer<typeof PanelScoreSchema>;

/** A judged single response: the panel and its aggregate fields. */
export const JudgeScoreDetailSchema = PanelScoreSchema.extend({ fields: z.record(z.string(), z.number()) });

/** A judged StoryTurn: closed turns keep their exact result, open turns carry their panel. */
export const JudgedStoryDetailSchema = z.object({
  rubric: RubricRefSchema,
  aggregation: AggregationSchema,
  turns: z.array(z.object({ turn: z.number().int(), open: z.boolean(), correct: z.boolean(), panel: PanelScoreSchema.optional() })),
});

export const JudgeDetailSchema = z.union([JudgeScoreDetailSchema, JudgedStoryDetailSchema]);
export type JudgeDetail = z.infer<typeof JudgeDetailSchema>;
