// The part of every stored transcript that the runner writes, whatever the protocol: each
// model call with its messages, settings, response, tokens, attempts and cost.

import { z } from 'zod';

export const ContentPartSchema = z.union([
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('image'), url: z.string(), mediaType: z.string().optional() }),
  z.object({ type: z.literal('video'), url: z.string(), mediaType: z.string().optional() }),
]);

export const ChatMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant']),
  content: z.union([z.string(), z.array(ContentPartSchema)]),
});

export const GenerationSettingsSchema = z.object({
  temperature: z.number(),
  maxTokens: z.number().int().positive(),
  topP: z.number().optional(),
  seed: z.number().int().optional(),
  logprobs: z.boolean().optional(),
  stop: z.array(z.string()).optional(),
  reasoningEffort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
  thinkingBudget: z.number().int().min(0).optional(),
  responseSchema: z.object({ name: z.string(), schema: z.record(z.string(), z.unknown()) }).optional(),
});

export const TokenUsageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedInputTokens: z.number().optional(),
  cacheWriteInputTokens: z.number().optional(),
});

export const ChatResponseSchema = z.object({
  text: z.string(),
  usage: TokenUsageSchema,
  latencyMs: z.number(),
  logprobs: z.array(z.object({ token: z.string(), logprob: z.number() })).optional(),
  modelReported: z.string().optional(),
  finishReason: z.string().optional(),
  truncated: z.boolean().optional(),
  reasoning: z.object({ text: z.string().optional(), tokens: z.number().optional() }).optional(),
  batch: z.boolean().optional(),
  contextTruncation: z
    .object({
      window: z.number(),
      windowSource: z.enum(['given', 'server']),
      counting: z.enum(['server-chat', 'server-template', 'server-text', 'estimate']),
      maxTokens: z.number(),
      promptTokens: z.number(),
      keptTokens: z.number(),
      charsCut: z.number(),
      messagesDropped: z.number(),
    })
    .optional(),
});

export const CallRecordSchema = z.object({
  kind: z.enum(['chat', 'loglik']),
  messages: z.array(ChatMessageSchema).optional(),
  settings: GenerationSettingsSchema,
  response: ChatResponseSchema.optional(),
  loglik: z
    .object({ context: z.string(), continuations: z.array(z.string()), logprobs: z.array(z.number()), tokenCounts: z.array(z.number()) })
    .optional(),
  cached: z.boolean(),
  attempts: z.number().int(),
  costUsd: z.number().nullable(),
});

/** A stored transcript: the protocol that wrote it (absent in stores written before version 0.2), its calls and its record. */
export const StoredTranscriptSchema = z.object({
  protocol: z.string().optional(),
  calls: z.array(CallRecordSchema),
  detail: z.unknown(),
});
export type StoredTranscript = z.infer<typeof StoredTranscriptSchema>;
