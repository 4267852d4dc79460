// OpenAI's chat-completions protocol through the official SDK: OpenAI itself and every server
// that copies it (vLLM, Ollama, llama.cpp server, LM Studio, OpenRouter) through its baseURL.
// The SDK is loaded on the first call, so commands that make no call do not pay for it.

import type OpenAI from 'openai';
import type { ChatMessage, ChatResponse, TokenLogprob } from '../../core/index.js';
import { registerSecret } from '../../core/index.js';
import { capabilitiesFor, takesSampling, type ModelCapabilities } from '../capabilities.js';
import type { ChatModel, ChatRequest, WireFormat } from '../chat-model.js';
import { baseUrlParts, type CallSite, malformed } from '../http.js';
import { leanFetch } from '../lean-fetch.js';
import { leanClientClass } from './openai-client.js';
import { videoUnsupported } from '../call-error.js';
import { fromStainlessError } from '../sdk-errors.js';
import { boundedFetch, replyLimitOptions } from '../reply-limit.js';
import { strictJsonSchema } from '../structured-output.js';
import { OpenAiBatchApi } from '../batch/openai-batch.js';

export interface OpenAiOptions {
  /** `openai` for OpenAI itself, `openai-compatible` for other servers. */
  provider: 'openai' | 'openai-compatible';
  model: string;
  baseUrl: string;
  apiKey?: string;
  /** OpenAI-compatible servers: whether the server takes `response_format: json_schema` (OpenAI itself always does). */
  structuredOutput?: boolean;
}

function toOpenAiMessage(m: ChatMessage): unknown {
  if (typeof m.content === 'string') return { role: m.role, content: m.content };
  return {
    role: m.role,
    content: m.content.map((p) => {
      if (p.type === 'video') throw videoUnsupported('OpenAI chat-completions API');
      return p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image_url', image_url: { url: p.url } };
    }),
  };
}

/** The chat-completions request body for a call (also the `body` of an OpenAI Batch API line). */
function openAiChatBody(model: string, caps: ModelCapabilities, req: ChatRequest): Record<string, unknown> {
  const s = req.settings;
  const body: Record<string, unknown> = { model, messages: req.messages.map(toOpenAiMessage) };
  // Reasoning models reject any temperature or top_p (even 0): they are left out, not sent as 1.
  if (takesSampling(caps, s)) {
    body.temperature = s.temperature;
    if (s.topP !== undefined) body.top_p = s.topP;
  }
  body[caps.maxTokensParam] = s.maxTokens;
  if (s.seed !== undefined) body.seed = s.seed;
  if (s.stop?.length) body.stop = s.stop;
  if (s.logprobs) body.logprobs = true;
  if (s.reasoningEffort !== undefined && caps.reasoningControl === 'effort') body.reasoning_effort = s.reasoningEffort;
  if (s.responseSchema && caps.structuredOutput) {
    body.response_format = {
      type: 'json_schema',
      json_schema: { name: s.responseSchema.name, schema: strictJsonSchema(s.responseSchema.schema), strict: true },
    };
  }
  return body;
}

interface WireCompletion {
  model?: string;
  choices?: Array<{
    message?: { content?: string | null; reasoning_content?: string | null; reasoning?: string | null };
    finish_reason?: string;
    logprobs?: { content?: TokenLogprob[] | null } | null;
  }>;
  usage?: {
    prompt_tokens?: number;
    completion_tokens?: number;
    prompt_tokens_details?: { cached_tokens?: number } | null;
    completion_tokens_details?: { reasoning_tokens?: number } | null;
  };
}

/** A chat-completions response body as a ChatResponse. */
function decodeOpenAiChat(label: string, body: unknown, latencyMs: number): ChatResponse {
  const json = body as WireCompletion | undefined;
  const choice = json?.choices?.[0];
  if (!choice?.message) malformed(label, 'no choices[0].message');
  const content = choice.message.content;
  if (content !== null && content !== undefined && typeof content !== 'string') malformed(label, 'message.content is not text');
  const logprobs = choice.logprobs?.content?.map((t) => ({ token: t.token, logprob: t.logprob }));
  const usage = json?.usage;
  const cached = usage?.prompt_tokens_details?.cached_tokens;
  const reasoningTokens = usage?.completion_tokens_details?.reasoning_tokens;
  // OpenAI keeps its reasoning hidden; servers of open reasoning models return it (vLLM, DeepSeek: reasoning_content; OpenRouter, Ollama: reasoning).
  const reasoningText = choice.message.reasoning_content ?? choice.message.reasoning ?? undefined;
  const response: ChatResponse = {
    text: content ?? '',
    usage: { inputTokens: usage?.prompt_tokens ?? 0, outputTokens: usage?.completion_tokens ?? 0 },
    latencyMs,
    logprobs: logprobs?.length ? logprobs : undefined,
    modelReported: json?.model,
    finishReason: choice.finish_reason,
  };
  if (cached) response.usage.cachedInputTokens = cached;
  if (choice.finish_reason === 'length') response.truncated = true;
  if (reasoningTokens || reasoningText) {
    response.reasoning = {};
    if (typeof reasoningText === 'string' && reasoningText) response.reasoning.text = reasoningText;
    if (reasoningTokens) response.reasoning.tokens = reasoningTokens;
  }
  return response;
}

type OpenAiModule = typeof import('openai');

/** `openai:MODEL` and `openai-compatible:URL#MODEL` through the official SDK (retries off: the runner owns them), with reasoning settings and structured output. */
export class OpenAiChatModel implements ChatModel {
  readonly spec: string;
  readonly provider: string;
  readonly model: string;
  readonly endpoint: string;
  readonly local = false;
  readonly capabilities: ModelCapabilities;
  readonly wire: WireFormat;
  readonly #apiKey?: string;
  /** The base URL with any credentials it carries, for the SDK only. */
  readonly #sdkUrl: string;
  /** What every error is scrubbed of: the key and any credentials in the base URL. */
  readonly #secrets: string[];
  #client?: Promise<{ client: OpenAI; mod: OpenAiModule }>;

  constructor(opts: OpenAiOptions) {
    this.provider = opts.provider;
    this.model = opts.model;
    const url = baseUrlParts(opts.baseUrl);
    this.#sdkUrl = url.sdkUrl;
    this.endpoint = url.endpoint;
    this.spec = opts.provider === 'openai' ? `openai:${opts.model}` : `openai-compatible:${this.endpoint}#${opts.model}`;
    this.#apiKey = opts.apiKey;
    this.#secrets = [...(opts.apiKey ? [opts.apiKey] : []), ...url.secrets];
    for (const secret of this.#secrets) registerSecret(secret);
    this.capabilities = capabilitiesFor(opts.provider, opts.model, { structuredOutput: opts.structuredOutput });
    this.wire = {
      api: '/v1/chat/completions',
      encode: (req) => openAiChatBody(this.model, this.capabilities, req),
      decode: (body, latencyMs) => decodeOpenAiChat(this.spec, body, latencyMs),
    };
  }

  async #connect(): Promise<{ client: OpenAI; mod: OpenAiModule }> {
    const mod = await import('openai');
    const client = new (leanClientClass(mod))({
      baseURL: this.#sdkUrl,
      // A server without keys gets no Authorization header at all (the SDK insists on a key, so one is given and removed).
      apiKey: this.#apiKey ?? 'no-key',
      defaultHeaders: this.#apiKey ? undefined : { Authorization: null },
      // Nothing from the environment reaches another server: organisation, project and admin key are ours to give.
      organization: null,
      project: null,
      adminAPIKey: null,
      maxRetries: 0,
      logLevel: 'off',
      // A keep-alive HTTP path (lean-fetch.ts), its replies read through a byte counter: one past
      // the cap fails as `oversized`.
      fetch: boundedFetch(this.spec, leanFetch),
    });
    return { client, mod };
  }

  /** The OpenAI Batch API on the same client (OpenAI itself; a compatible server must implement /v1/files and /v1/batches). */
  batchApi(): OpenAiBatchApi {
    const site: CallSite = { label: this.spec, url: this.endpoint, timeoutMs: 600_000, secrets: this.#secrets };
    return new OpenAiBatchApi(
      () => (this.#client ??= this.#connect()),
      (err, mod) => fromStainlessError(err, mod, site),
    );
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    const body = this.wire.encode(req) as unknown as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
    const timeout = Math.max(1, Math.round(req.timeoutMs));
    const { client, mod } = await (this.#client ??= this.#connect());
    const started = performance.now();
    let json: unknown;
    try {
      json = await client.chat.completions.create(body, { timeout, ...replyLimitOptions(req.maxReplyBytes) });
    } catch (err) {
      const site: CallSite = {
        label: this.spec,
        url: this.endpoint,
        timeoutMs: req.timeoutMs,
        secrets: this.#secrets,
      };
      throw fromStainlessError(err, mod, site);
    }
    return this.wire.decode(json, performance.now() - started);
  }
}
