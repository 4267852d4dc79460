// OpenAI's chat-completions protocol through the official SDK: OpenAI itself and every server
// that copies it (vLLM, Ollama, llama.cpp server, LM Studio, OpenRouter) through its baseURL.
// The SDK is loaded on the first call, so commands that make no call do not pay for it.

import type OpenAI from 'openai';
import type { ChatMessage, ChatResponse, TokenLogprob } from '../../core/index.js';
import { capabilitiesFor, takesSampling, type ModelCapabilities } from '../capabilities.js';
import type { ChatModel, ChatRequest, WireFormat } from '../chat-model.js';
import { type CallSite, malformed } from '../http.js';
import { leanFetch, withTimeout } from '../lean-fetch.js';
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

let leanClient: OpenAiModule['OpenAI'] | undefined;

/** What the SDK's (private) header builder takes. */
interface HeaderBuild {
  options: { headers?: unknown; timeout?: number; __security?: unknown };
  method: string;
  bodyHeaders: Record<string, string> | undefined;
  retryCount: number;
}
type BuildHeaders = (this: unknown, args: HeaderBuild) => Promise<unknown>;

/** The SDK's header builder: private to its types, a method all the same, overridden under this name. */
const BUILD_HEADERS: string = 'buildHeaders';

/**
 * The SDK's client with lighter header handling: the same headers on the wire
 * (tests/providers-openai.test.ts compares them with the stock client's, call after call).
 * The SDK merges its header sources into a Headers object on every call (auth built as two
 * nested header objects, each name validated and lower-cased), then reads it back for the fetch
 * and for the debug-log formatting it does even with logging off: about 7% of the runner's
 * thread. Here the SDK's own builder still makes the headers, once per kind of call, and each
 * call gets a plain copy. A kind is what the builder reads that may differ between calls of one
 * client: method, retry count, timeout, body headers, auth schemes, key, organisation and
 * project (its default headers and User-Agent are fixed with the client). Calls with headers of
 * their own, and clients that send idempotency keys (OpenAI's does not), go through the builder
 * every time. Made once, from the module loaded on first use.
 */
function leanClientClass(mod: OpenAiModule): OpenAiModule['OpenAI'] {
  if (leanClient) return leanClient;
  const stock = (mod.OpenAI.prototype as unknown as Record<string, BuildHeaders>)[BUILD_HEADERS];
  if (typeof stock !== 'function') throw new Error('openai SDK: no buildHeaders method to wrap (a new SDK version?)');
  // Named as the SDK's own: its User-Agent header is its class name ("OpenAI/JS 6.49.0").
  leanClient = class OpenAI extends mod.OpenAI {
    #bearer: { key: string; header: { Authorization: string } } | undefined;
    /** Built headers by kind of call (at most 64 kinds: timeouts of every size start it afresh). */
    #built = new Map<string, Record<string, string>>();

    // As the SDK's: a bearer header when asked for one (this client has no admin key, and
    // workload identity, which the SDK excludes beside a key, is never set up); a keyless
    // server's client removes it again through its default headers.
    protected override async authHeaders(
      _opts: Parameters<InstanceType<OpenAiModule['OpenAI']>['authHeaders']>[0],
      schemes: { bearerAuth?: boolean } = { bearerAuth: true },
    ): ReturnType<InstanceType<OpenAiModule['OpenAI']>['authHeaders']> {
      if (!schemes.bearerAuth || this.apiKey == null) return undefined;
      if (this.#bearer?.key !== this.apiKey) this.#bearer = { key: this.apiKey, header: { Authorization: `Bearer ${this.apiKey}` } };
      return this.#bearer.header as never;
    }

    /** The headers of a call: the SDK's builder's, built once per kind of call (see above). */
    async [BUILD_HEADERS](args: HeaderBuild): Promise<unknown> {
      const { options, method, bodyHeaders, retryCount } = args;
      if (options.headers !== undefined || this.idempotencyHeader) return stock.call(this, args);
      const kind = JSON.stringify([
        method,
        retryCount,
        options.timeout,
        bodyHeaders ?? null,
        options.__security ?? null,
        this.apiKey,
        this.organization,
        this.project,
      ]);
      let plain = this.#built.get(kind);
      if (!plain) {
        const headers = (await stock.call(this, args)) as Headers;
        plain = {};
        for (const [k, v] of headers) plain[k] = v;
        if (this.#built.size >= 64) this.#built.clear();
        this.#built.set(kind, plain);
      }
      return { ...plain };
    }

    // The SDK's own makes a signal per call (its AbortController's), listens on the caller's and
    // sets a timer; a call with a JSON body and no signal of its own goes to the lean fetch with
    // the time limit instead (withTimeout), which fails the same way (an AbortError) when it passes.
    protected override async fetchWithAuth(
      url: string,
      init: RequestInit,
      timeout: number,
      controller: AbortController,
      schemes?: Parameters<InstanceType<OpenAiModule['OpenAI']>['fetchWithAuth']>[4],
    ): Promise<Response> {
      const fetch = this._options.fetch;
      if (!fetch || init.signal || typeof init.body !== 'string') return super.fetchWithAuth(url, init, timeout, controller, schemes);
      if (init.method) init.method = init.method.toUpperCase();
      return fetch(url, withTimeout(init, timeout));
    }

    protected override async prepareRequest(
      request: RequestInit,
      ctx: Parameters<InstanceType<OpenAiModule['OpenAI']>['prepareRequest']>[1],
    ): Promise<void> {
      await super.prepareRequest(request, ctx);
      // Headers the SDK built itself (calls with headers of their own) as a plain record too.
      if (request.headers instanceof Headers) {
        const plain: Record<string, string> = {};
        for (const [k, v] of request.headers) plain[k] = v;
        request.headers = plain;
      }
    }
  };
  return leanClient;
}

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
  #client?: Promise<{ client: OpenAI; mod: OpenAiModule }>;

  constructor(opts: OpenAiOptions) {
    this.provider = opts.provider;
    this.model = opts.model;
    this.endpoint = opts.baseUrl.replace(/\/+$/, '');
    this.spec = opts.provider === 'openai' ? `openai:${opts.model}` : `openai-compatible:${this.endpoint}#${opts.model}`;
    this.#apiKey = opts.apiKey;
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
      baseURL: this.endpoint,
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
    const site: CallSite = { label: this.spec, url: this.endpoint, timeoutMs: 600_000, secrets: this.#apiKey ? [this.#apiKey] : [] };
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
        secrets: this.#apiKey ? [this.#apiKey] : [],
      };
      throw fromStainlessError(err, mod, site);
    }
    return this.wire.decode(json, performance.now() - started);
  }
}
