// OpenAI's chat-completions protocol through the official SDK: OpenAI itself and every server
// that copies it (vLLM, Ollama, llama.cpp server, LM Studio, OpenRouter) through its baseURL.
// The SDK is loaded on the first call, so commands that make no call do not pay for it.

import type OpenAI from 'openai';
import type { ChatMessage, ChatResponse, TokenLogprob } from '../../core/index.js';
import { capabilitiesFor, takesSampling, type ModelCapabilities } from '../capabilities.js';
import type { ChatRequest } from '../chat-model.js';
import { type CallSite, malformed } from '../http.js';
import { SdkChatModel, type SdkConnection, type SdkTarget } from '../sdk-chat-model.js';
import { leanFetch } from '../lean-fetch.js';
import { type LeanOpenAi, leanClientClass } from './openai-client.js';
import { type ModelCallError, videoUnsupported } from '../call-error.js';
import { fromStainlessError } from '../sdk-errors.js';
import { boundedFetch, replyLimitOptions } from '../reply-limit.js';
import { strictJsonSchema } from '../structured-output.js';
import { OpenAiBatchApi } from '../batch/openai-batch.js';
import { ContextFitter, type ContextWindowSetting } from '../context-window.js';

export interface OpenAiOptions {
  /** `openai` for OpenAI itself, `openai-compatible` for other servers. */
  provider: 'openai' | 'openai-compatible';
  model: string;
  baseUrl: string;
  apiKey?: string;
  /** OpenAI-compatible servers: whether the server takes `response_format: json_schema` (OpenAI itself always does). */
  structuredOutput?: boolean;
  /** OpenAI-compatible servers: cut prompts from the left to this context window (tokens, or 'server': as the server reports it). */
  contextWindow?: ContextWindowSetting;
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
export class OpenAiChatModel extends SdkChatModel<OpenAI, OpenAiModule> {
  /** With a context window: replies to a prompt depend on it (part of the call cache's key). */
  readonly revision?: string;
  readonly #fitter?: ContextFitter;

  constructor(opts: OpenAiOptions) {
    super({
      provider: opts.provider,
      model: opts.model,
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      spec: (endpoint) => (opts.provider === 'openai' ? `openai:${opts.model}` : `openai-compatible:${endpoint}#${opts.model}`),
      capabilities: capabilitiesFor(opts.provider, opts.model, { structuredOutput: opts.structuredOutput }),
      api: '/v1/chat/completions',
      encode: openAiChatBody,
      decode: decodeOpenAiChat,
    });
    if (opts.contextWindow !== undefined) {
      this.#fitter = new ContextFitter(opts.contextWindow, opts.baseUrl, opts.model, this.spec, opts.apiKey);
      this.revision = `context window ${opts.contextWindow}`;
    }
  }

  /** A chat call; with a context window, the prompt is first cut from the left to fit it (see context-window.ts). */
  override async chat(req: ChatRequest): Promise<ChatResponse> {
    if (!this.#fitter) return super.chat(req);
    const fitted = await this.#fitter.fit(req.messages, req.settings.maxTokens, req.timeoutMs);
    if (!fitted.truncation) return super.chat(req);
    return { ...(await super.chat({ ...req, messages: fitted.messages })), contextTruncation: fitted.truncation };
  }

  protected async connect({ url, apiKey }: SdkTarget): Promise<SdkConnection<OpenAI, OpenAiModule>> {
    const mod = await import('openai');
    const client = new (leanClientClass(mod))({
      baseURL: url,
      // A server without keys gets no Authorization header at all (the SDK insists on a key, so one is given and removed).
      apiKey: apiKey ?? 'no-key',
      defaultHeaders: apiKey ? undefined : { Authorization: null },
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

  protected send(client: OpenAI, body: unknown, timeout: number, maxReplyBytes: number | undefined): Promise<unknown> {
    return (client as LeanOpenAi).postJson('/chat/completions', body, timeout, replyLimitOptions(maxReplyBytes).fetchOptions);
  }

  protected callError(err: unknown, mod: OpenAiModule, site: CallSite): ModelCallError {
    return fromStainlessError(err, mod, site);
  }

  /** The OpenAI Batch API on the same client (OpenAI itself; a compatible server must implement /v1/files and /v1/batches). */
  batchApi(): OpenAiBatchApi {
    const site = this.site(600_000);
    return new OpenAiBatchApi(
      () => this.connection(),
      (err, mod) => this.callError(err, mod, site),
    );
  }
}
