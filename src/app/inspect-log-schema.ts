// The part of Inspect AI's eval log that mindscope writes and reads, as zod schemas. Field names
// and which fields are required follow Inspect's pydantic models (inspect_ai/log/_log.py:
// EvalLog, EvalSpec, EvalPlan, EvalResults, EvalStats, EvalSample; model/_model_output.py:
// ModelOutput, ModelUsage; model/_chat_message.py; scorer Score), log format `version: 2`.
// Objects are loose: Inspect writes many more fields than these, and they pass through.

import { z } from 'zod';

const Json = z.record(z.string(), z.unknown());

/** A content part (ContentText, ContentReasoning, ContentImage, ...); the type decides which field holds it. */
export const InspectContentSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  reasoning: z.string().optional(),
  image: z.string().optional(),
});

/** ChatMessageSystem | ChatMessageUser | ChatMessageAssistant | ChatMessageTool, by role. */
export const InspectChatMessageSchema = z.looseObject({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.union([z.string(), z.array(InspectContentSchema)]),
  source: z.enum(['input', 'generate']).optional(),
  model: z.string().nullable().optional(),
});
export type InspectChatMessage = z.infer<typeof InspectChatMessageSchema>;

export const InspectModelUsageSchema = z.looseObject({
  input_tokens: z.number().int(),
  output_tokens: z.number().int(),
  total_tokens: z.number().int(),
  input_tokens_cache_read: z.number().int().nullable().optional(),
  input_tokens_cache_write: z.number().int().nullable().optional(),
  reasoning_tokens: z.number().int().nullable().optional(),
  total_cost: z.number().nullable().optional(),
});
export type InspectModelUsage = z.infer<typeof InspectModelUsageSchema>;

export const InspectModelOutputSchema = z.looseObject({
  model: z.string(),
  choices: z.array(
    z.looseObject({
      message: InspectChatMessageSchema,
      stop_reason: z.enum(['stop', 'max_tokens', 'model_length', 'tool_calls', 'content_filter', 'unknown']),
    }),
  ),
  completion: z.string().optional(),
  usage: InspectModelUsageSchema.nullable().optional(),
  time: z.number().nullable().optional(),
  error: z.string().nullable().optional(),
});

const Scalar = z.union([z.string(), z.number(), z.boolean()]);
/** Score.value: a scalar, a list of scalars or a dict of scalars. */
export const InspectValueSchema = z.union([Scalar, z.array(Scalar), z.record(z.string(), Scalar.nullable())]);

export const InspectScoreSchema = z.looseObject({
  value: InspectValueSchema,
  answer: z.string().nullable().optional(),
  explanation: z.string().nullable().optional(),
  metadata: Json.nullable().optional(),
});
export type InspectScore = z.infer<typeof InspectScoreSchema>;

export const InspectEvalErrorSchema = z.looseObject({ message: z.string(), traceback: z.string(), traceback_ansi: z.string() });

export const InspectSampleSchema = z.looseObject({
  id: z.union([z.string(), z.number()]),
  epoch: z.number().int().positive(),
  input: z.union([z.string(), z.array(InspectChatMessageSchema)]),
  choices: z.array(z.string()).nullable().optional(),
  target: z.union([z.string(), z.array(z.string())]),
  messages: z.array(InspectChatMessageSchema).optional(),
  output: InspectModelOutputSchema.optional(),
  scores: z.record(z.string(), InspectScoreSchema).nullable().optional(),
  metadata: Json.optional(),
  model_usage: z.record(z.string(), InspectModelUsageSchema).optional(),
  started_at: z.string().nullable().optional(),
  completed_at: z.string().nullable().optional(),
  total_time: z.number().nullable().optional(),
  error: InspectEvalErrorSchema.nullable().optional(),
});
export type InspectSample = z.infer<typeof InspectSampleSchema>;

export const InspectEvalSpecSchema = z.looseObject({
  eval_id: z.string().optional(),
  run_id: z.string().optional(),
  created: z.string(),
  task: z.string(),
  task_id: z.string().optional(),
  task_version: z.union([z.number().int(), z.string()]).optional(),
  dataset: z.looseObject({
    name: z.string().nullable().optional(),
    location: z.string().nullable().optional(),
    samples: z.number().int().nullable().optional(),
    sample_ids: z
      .array(z.union([z.string(), z.number()]))
      .nullable()
      .optional(),
    shuffled: z.boolean().nullable().optional(),
  }),
  model: z.string(),
  model_generate_config: Json.optional(),
  config: z.looseObject({ epochs: z.number().int().nullable().optional(), epochs_reducer: z.array(z.string()).nullable().optional() }),
  packages: z.record(z.string(), z.string()).optional(),
  metadata: Json.nullable().optional(),
});

export const InspectMetricSchema = z.looseObject({ name: z.string(), value: z.number(), params: Json.optional() });

export const InspectEvalScoreSchema = z.looseObject({
  name: z.string(),
  scorer: z.string(),
  reducer: z.string().nullable().optional(),
  scored_samples: z.number().int().nullable().optional(),
  unscored_samples: z.number().int().nullable().optional(),
  params: Json.optional(),
  metrics: z.record(z.string(), InspectMetricSchema),
});

/** An eval log as `.json` holds it (the `.eval` zip holds the same header in header.json and one sample per file). */
export const InspectEvalLogSchema = z.looseObject({
  version: z.number().int(),
  status: z.enum(['started', 'success', 'cancelled', 'error']),
  eval: InspectEvalSpecSchema,
  plan: z
    .looseObject({
      name: z.string(),
      steps: z.array(z.looseObject({ solver: z.string(), params: Json.optional() })),
      config: Json.optional(),
    })
    .optional(),
  results: z
    .looseObject({
      total_samples: z.number().int(),
      completed_samples: z.number().int(),
      scores: z.array(InspectEvalScoreSchema),
    })
    .nullable()
    .optional(),
  stats: z
    .looseObject({
      started_at: z.string(),
      completed_at: z.string(),
      model_usage: z.record(z.string(), InspectModelUsageSchema),
    })
    .optional(),
  error: InspectEvalErrorSchema.nullable().optional(),
  samples: z.array(InspectSampleSchema).nullable().optional(),
});
export type InspectEvalLog = z.infer<typeof InspectEvalLogSchema>;

/** Where the first problem is, as a path such as `samples[3].scores` (for error messages). */
export function issuePath(path: ReadonlyArray<PropertyKey>): string {
  return path
    .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
    .join('')
    .replace(/^\./, '');
}
