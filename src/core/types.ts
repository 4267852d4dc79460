// The data model shared by every layer. Kept free of behaviour: the functions that act on
// these shapes live next to the layer that owns the behaviour.

import type { Category } from './categories.js';

/** One part of a chat message: text, or an image given as a data URL or an https URL. */
/** A message part: text, an image, or a video (a data URL or a provider file URI; only providers that take video accept it). */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; url: string; mediaType?: string }
  | { type: 'video'; url: string; mediaType?: string };

export type Role = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  role: Role;
  /** Plain text, or a list of parts when the message carries images. */
  content: string | ContentPart[];
}

/** Settings that determine a model's output; stored with every call and part of the cache key. */
export interface GenerationSettings {
  temperature: number;
  maxTokens: number;
  topP?: number;
  /** Provider-side sampling seed, where the provider supports one. Set per replicate. */
  seed?: number;
  /** Ask for per-token log-probabilities where the provider can return them. */
  logprobs?: boolean;
  stop?: string[];
  /** OpenAI reasoning models: how hard to think (`--reasoning-effort`). */
  reasoningEffort?: ReasoningEffort;
  /** Anthropic extended thinking and Gemini thinking: tokens the model may spend thinking (`--thinking-budget`). */
  thinkingBudget?: number;
  /** Ask for a JSON object matching this schema (structured output), where the provider supports it. */
  responseSchema?: ResponseSchema;
}

export type ReasoningEffort = 'minimal' | 'low' | 'medium' | 'high';

/** A named JSON schema for structured output (OpenAI json_schema, Anthropic tool input, Gemini responseSchema). */
export interface ResponseSchema {
  name: string;
  schema: Record<string, unknown>;
}

export const DEFAULT_SETTINGS: GenerationSettings = { temperature: 0, maxTokens: 256 };

/** One multiple-choice option as presented to a subject. */
export interface McqOption {
  label: string; // 'A', 'B', ...
  text: string;
}

/**
 * A benchmark item. `payload` is suite-specific (for MCQ suites: context, question, options);
 * `answer` is the correct option's text for MCQ items. `meta.originalLabels` keeps the source's
 * own labels (ability, question type, ...) next to the ATOMS category the loader mapped them to.
 */
export interface Item<P = unknown> {
  suite: string;
  id: string;
  category: Category;
  ability?: string;
  payload: P;
  answer: string;
  meta: Record<string, unknown>;
}

/** The payload every multiple-choice suite produces. */
export interface McqPayload {
  /** Story, dialogue or scene text that precedes the question (may be empty). */
  context: string;
  question: string;
  /** Options in the source's order; the MCQ protocol may shuffle them per replicate. */
  options: string[];
  /** Index into `options` of the correct answer. */
  answerIndex: number;
  /** Optional structured world the reference agents can reason over (generated items, ToMi). */
  world?: unknown;
}

export type McqItem = Item<McqPayload>;

/** Token accounting of one call. */
export interface TokenUsage {
  /** All prompt tokens, those read from or written to the provider's prompt cache included. */
  inputTokens: number;
  /** All generated tokens, reasoning (billed as output) included. */
  outputTokens: number;
  /** Prompt tokens read from the provider's prompt cache (billed at the cached-input price). */
  cachedInputTokens?: number;
  /** Prompt tokens written to the prompt cache (Anthropic: billed above the input price). */
  cacheWriteInputTokens?: number;
}

export interface TokenLogprob {
  token: string;
  logprob: number;
}

/** What a model returns for one chat call. */
export interface ChatResponse {
  text: string;
  usage: TokenUsage;
  latencyMs: number;
  logprobs?: TokenLogprob[];
  /** Provider's own model id as reported in the response, when it reports one. */
  modelReported?: string;
  finishReason?: string;
  /** The reply was cut off by the output-token limit (finish_reason length, stop_reason max_tokens, MAX_TOKENS). */
  truncated?: boolean;
  /** What the provider reported of the model's reasoning: its tokens, and its text or summary when it returns one. */
  reasoning?: { text?: string; tokens?: number };
  /**
   * Answered through a provider batch (--batch): `latencyMs` is then the time from the batch's
   * submission to the collection of its results, not a call's latency, and is kept apart from it.
   */
  batch?: boolean;
  /** The prompt was cut from the left to fit the model's context window (openai-compatible servers with a context window). */
  contextTruncation?: ContextTruncation;
}

/** What left truncation to the context window cut from a prompt, and how its tokens were counted. */
export interface ContextTruncation {
  /** The context window in tokens; 'given' in the run's specification, or 'server': reported by the server. */
  window: number;
  windowSource: 'given' | 'server';
  /**
   * How tokens were counted: 'server-chat' the server's /tokenize of the messages with its chat
   * template (vLLM), 'server-template' its /apply-template then /tokenize (llama.cpp),
   * 'server-text' its /tokenize of the text alone (template tokens not counted), 'estimate'
   * 4 characters a token (no tokenizer on the server).
   */
  counting: 'server-chat' | 'server-template' | 'server-text' | 'estimate';
  /** The reply's budget (max tokens), kept free in the window. */
  maxTokens: number;
  /** The prompt's tokens before and after the cut. */
  promptTokens: number;
  keptTokens: number;
  /** Characters cut, whole messages dropped included. */
  charsCut: number;
  messagesDropped: number;
}

/** One model call as recorded in a transcript. */
export interface CallRecord {
  kind: 'chat' | 'loglik';
  messages?: ChatMessage[];
  settings: GenerationSettings;
  response?: ChatResponse;
  /** For log-likelihood calls: the context, the continuations and their summed log-probabilities. */
  loglik?: { context: string; continuations: string[]; logprobs: number[]; tokenCounts: number[] };
  cached: boolean;
  attempts: number;
  /** US dollars; null when the model's price is unknown (never counted as $0). */
  costUsd: number | null;
}

export interface Transcript {
  /** The protocol that wrote the record (its schemas parse `detail`: see records/index.ts). */
  protocol: string;
  calls: CallRecord[];
  /** The protocol's record of what was presented, parsed and chosen. */
  detail: unknown;
}

/** A score a scorer gave a trial. `value` is 0..1 for accuracy-type scorers. */
export interface Score {
  scorer: string;
  value: number;
  /** The scorer's record (a protocol's score detail, a judge panel's outputs); parsed by its schema on read. */
  detail: unknown;
}

/** The unique key of a trial. */
export interface TrialKey {
  runId: string;
  subjectId: string;
  suite: string;
  itemId: string;
  replicate: number;
}

/** The outcome of running one trial: its transcript and its score. */
export interface TrialOutcome {
  transcript: Transcript;
  score: Score;
  usage: TokenUsage;
  /** US dollars of the calls whose price is known. */
  costUsd: number;
  /** Milliseconds the calls made interactively took (batch-answered calls are not counted here). */
  latencyMs: number;
  /** Milliseconds the batch-answered calls waited, each from its batch's submission to the collection of its results. */
  batchLatencyMs?: number;
  cachedCalls: number;
  totalCalls: number;
  /** Calls whose reply was cut off by the output-token limit. */
  truncatedCalls?: number;
  /** Calls made (not cached) whose price is unknown: the trial's cost is then unknown. */
  unpricedCalls?: number;
  /** When the trial finished (ISO 8601), for a trial taken from elsewhere (an import); the time it is recorded when absent. */
  finishedAt?: string;
}
