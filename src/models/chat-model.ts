// The one interface every model sits behind, from a hosted API to a reference agent.

import type { CallContext, ChatMessage, ChatResponse, GenerationSettings } from '../core/index.js';
import type { ModelCapabilities } from './capabilities.js';
import type { BatchApi } from './batch/batch-api.js';

export interface ChatRequest {
  messages: ChatMessage[];
  settings: GenerationSettings;
  /** Per-call time limit; the call fails with a `timeout` ModelCallError past it. */
  timeoutMs: number;
  /** Side information for reference agents; providers that call a real model ignore it. */
  context?: CallContext;
  /** The reply-size cap (--max-reply-bytes): a provider whose client fetches through boundedFetch stops reading past it. */
  maxReplyBytes?: number;
}

export interface LoglikResult {
  /** Summed log-probability of each continuation given the context. */
  logprobs: number[];
  /** Number of tokens in each continuation. */
  tokenCounts: number[];
}

/**
 * A provider's own request and response bodies for one chat call: what one line of a batch file
 * holds (OpenAI Batch, Anthropic Message Batches, Gemini batch mode all take the request a
 * synchronous call would send and return the body it would get).
 */
export interface WireFormat {
  /** The API the bodies belong to, e.g. `/v1/chat/completions`, `/v1/messages`, `generateContent`. */
  readonly api: string;
  /** The request body this call sends. */
  encode(request: ChatRequest): unknown;
  /** A response body (from a call or a batch result line) as a ChatResponse; `malformed` ModelCallError when it is not the API's shape. */
  decode(body: unknown, latencyMs: number): ChatResponse;
}

export interface ChatModel {
  /** The normalised spec, e.g. `openai:gpt-4o-mini`. Never holds a secret. */
  readonly spec: string;
  readonly provider: string;
  readonly model: string;
  /**
   * Where requests go (a base URL without credentials, a local file): requests to the same
   * endpoint share one adaptive concurrency limit, and a reply cached from one endpoint never
   * answers a call to another.
   */
  readonly endpoint: string;
  /** What else tells this model's replies apart beside spec and endpoint (a local file's size and modification time); part of the cache key. */
  readonly revision?: string;
  /** Whether responses are deterministic and free (reference agents): no cache, no cost. */
  readonly local: boolean;
  /** What the model takes (sampling, reasoning controls, structured output); absent for reference agents. */
  readonly capabilities?: ModelCapabilities;
  /** Its API's request and response bodies, for batch submission; absent where there is no wire format. */
  readonly wire?: WireFormat;
  /** The provider's batch API (OpenAI Batch, Anthropic Message Batches, Gemini batch mode); absent where there is none. */
  batchApi?(): BatchApi;
  chat(request: ChatRequest): Promise<ChatResponse>;
  loglik?(context: string, continuations: string[]): Promise<LoglikResult>;
  close?(): Promise<void>;
}

/** Text of a message whatever its shape. */
export function messageText(message: ChatMessage): string {
  if (typeof message.content === 'string') return message.content;
  return message.content
    .filter((p): p is { type: 'text'; text: string } => p.type === 'text')
    .map((p) => p.text)
    .join('\n');
}

/** The longest time limit a call may have: Node's timers hold at most 2^31 - 1 ms (about 24.8 days); a longer one fires at once. */
export const MAX_CALL_TIMEOUT_MS = 2 ** 31 - 1;
