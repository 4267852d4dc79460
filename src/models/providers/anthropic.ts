// Anthropic's messages protocol through the official SDK (loaded on the first call), with
// extended thinking (--thinking-budget), structured output as a forced tool call, and prompt
// caching of long shared prefixes.

import type Anthropic from '@anthropic-ai/sdk';
import type { ChatMessage, ChatResponse } from '../../core/index.js';
import { registerSecret } from '../../core/index.js';
import { capabilitiesFor, takesSampling, type ModelCapabilities } from '../capabilities.js';
import type { ChatModel, ChatRequest, WireFormat } from '../chat-model.js';
import { messageText } from '../chat-model.js';
import { baseUrlParts, type CallSite, malformed, parseDataUrl } from '../http.js';
import { fromStainlessError } from '../sdk-errors.js';
import { boundedFetch, replyLimitOptions } from '../reply-limit.js';
import { leanFetch } from '../lean-fetch.js';
import { videoUnsupported } from '../call-error.js';
import { AnthropicBatchApi } from '../batch/anthropic-batch.js';

export interface AnthropicOptions {
  model: string;
  baseUrl: string;
  apiKey: string;
}

/**
 * Prefixes shorter than this (estimated at 4 characters a token) are not marked for caching:
 * Anthropic caches nothing under 1024 tokens, and a cache write costs 1.25x the input price.
 */
const MIN_CACHE_TOKENS = 1024;
const estimateTokens = (chars: number) => Math.ceil(chars / 4);
const EPHEMERAL = { type: 'ephemeral' } as const;

type Block = Record<string, unknown>;

function toBlocks(m: ChatMessage): Block[] {
  if (typeof m.content === 'string') return [{ type: 'text', text: m.content }];
  return m.content.map((p) => {
    if (p.type === 'text') return { type: 'text', text: p.text };
    if (p.type === 'video') throw videoUnsupported('Anthropic messages API');
    const data = parseDataUrl(p.url);
    return data
      ? { type: 'image', source: { type: 'base64', media_type: data.mediaType, data: data.data } }
      : { type: 'image', source: { type: 'url', url: p.url } };
  });
}

function chars(m: ChatMessage): number {
  return typeof m.content === 'string' ? m.content.length : messageText(m).length;
}

/** A tool name Anthropic accepts (letters, digits, _ and -, at most 64). */
function toolName(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'record';
}

/**
 * The /v1/messages request body for a call (also the `params` of a Message Batches request).
 * Caching: a long system prompt (shared by every item of a run) is marked, and so is the end of a
 * multi-turn conversation, so that its next turn reads everything before it from the cache.
 */
function anthropicMessagesBody(model: string, caps: ModelCapabilities, req: ChatRequest): Record<string, unknown> {
  const s = req.settings;
  const systemText = req.messages
    .filter((m) => m.role === 'system')
    .map(messageText)
    .join('\n\n');
  const turns = req.messages.filter((m) => m.role !== 'system');
  const multiTurn = turns.some((m) => m.role === 'assistant');
  const cacheConversation = multiTurn && estimateTokens(systemText.length + turns.reduce((n, m) => n + chars(m), 0)) >= MIN_CACHE_TOKENS;
  const messages = turns.map((m, i) => {
    if (!(cacheConversation && i === turns.length - 1)) {
      return { role: m.role, content: typeof m.content === 'string' ? m.content : toBlocks(m) };
    }
    const blocks = toBlocks(m);
    blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], cache_control: EPHEMERAL };
    return { role: m.role, content: blocks };
  });
  const body: Record<string, unknown> = { model, max_tokens: s.maxTokens, messages };
  if (systemText) {
    body.system =
      estimateTokens(systemText.length) >= MIN_CACHE_TOKENS ? [{ type: 'text', text: systemText, cache_control: EPHEMERAL }] : systemText;
  }
  const thinking = caps.reasoningControl === 'thinking-budget' && (s.thinkingBudget ?? 0) > 0;
  if (thinking) body.thinking = { type: 'enabled', budget_tokens: s.thinkingBudget };
  if (takesSampling(caps, s)) {
    body.temperature = s.temperature;
    if (s.topP !== undefined) body.top_p = s.topP;
  }
  if (s.stop?.length) body.stop_sequences = s.stop;
  if (s.responseSchema && caps.structuredOutput) {
    const name = toolName(s.responseSchema.name);
    body.tools = [{ name, description: 'Record the answer in this exact structure.', input_schema: s.responseSchema.schema }];
    // A forced tool call is not allowed while thinking: the model is then asked, not forced.
    body.tool_choice = thinking ? { type: 'auto' } : { type: 'tool', name };
  }
  return body;
}

interface WireMessage {
  model?: string;
  content?: Array<{ type: string; text?: string; thinking?: string; input?: unknown }>;
  stop_reason?: string;
  usage?: {
    input_tokens?: number;
    output_tokens?: number;
    cache_read_input_tokens?: number | null;
    cache_creation_input_tokens?: number | null;
  };
}

/** A /v1/messages response body as a ChatResponse; a tool call's input is the reply's text (as JSON). */
function decodeAnthropicMessage(label: string, body: unknown): Omit<ChatResponse, 'latencyMs'> {
  const json = body as WireMessage | undefined;
  if (!json || !Array.isArray(json.content)) malformed(label, 'no content array');
  const tool = json.content.find((c) => c.type === 'tool_use');
  const text = tool
    ? JSON.stringify(tool.input ?? {})
    : json.content
        .filter((c) => c.type === 'text')
        .map((c) => c.text ?? '')
        .join('');
  const thinking = json.content
    .filter((c) => c.type === 'thinking')
    .map((c) => c.thinking ?? '')
    .join('\n\n');
  const u = json.usage ?? {};
  const read = u.cache_read_input_tokens ?? 0;
  const written = u.cache_creation_input_tokens ?? 0;
  // Anthropic counts cache reads and writes apart from input_tokens; ours holds every prompt token.
  const response: Omit<ChatResponse, 'latencyMs'> = {
    text,
    usage: { inputTokens: (u.input_tokens ?? 0) + read + written, outputTokens: u.output_tokens ?? 0 },
    modelReported: json.model,
    finishReason: json.stop_reason,
  };
  if (read) response.usage.cachedInputTokens = read;
  if (written) response.usage.cacheWriteInputTokens = written;
  if (json.stop_reason === 'max_tokens') response.truncated = true;
  if (thinking) response.reasoning = { text: thinking };
  return response;
}

type AnthropicModule = typeof import('@anthropic-ai/sdk');

/** `anthropic:MODEL` through the official SDK (retries off: the runner owns them), with extended thinking, structured output by tool use and prompt caching. */
export class AnthropicChatModel implements ChatModel {
  readonly spec: string;
  readonly provider = 'anthropic';
  readonly model: string;
  readonly endpoint: string;
  readonly local = false;
  readonly capabilities: ModelCapabilities;
  readonly wire: WireFormat;
  readonly #apiKey: string;
  /** The base URL with any credentials it carries, for the SDK only. */
  readonly #sdkUrl: string;
  /** What every error is scrubbed of: the key and any credentials in the base URL. */
  readonly #secrets: string[];
  #client?: Promise<{ client: Anthropic; mod: AnthropicModule }>;

  constructor(opts: AnthropicOptions) {
    this.model = opts.model;
    const url = baseUrlParts(opts.baseUrl);
    this.#sdkUrl = url.sdkUrl;
    this.endpoint = url.endpoint;
    this.spec = `anthropic:${opts.model}`;
    this.#apiKey = opts.apiKey;
    this.#secrets = [opts.apiKey, ...url.secrets];
    for (const secret of this.#secrets) registerSecret(secret);
    this.capabilities = capabilitiesFor('anthropic', opts.model);
    this.wire = {
      api: '/v1/messages',
      encode: (req) => anthropicMessagesBody(this.model, this.capabilities, req),
      decode: (body, latencyMs) => ({ ...decodeAnthropicMessage(this.spec, body), latencyMs }),
    };
  }

  async #connect(): Promise<{ client: Anthropic; mod: AnthropicModule }> {
    const mod = await import('@anthropic-ai/sdk');
    const client = new mod.Anthropic({
      apiKey: this.#apiKey,
      authToken: null,
      baseURL: this.#sdkUrl,
      maxRetries: 0,
      logLevel: 'off',
      // A keep-alive HTTP path (lean-fetch.ts), its replies read through a byte counter: one past
      // the cap fails as `oversized`.
      fetch: boundedFetch(this.spec, leanFetch),
    });
    return { client, mod };
  }

  /** Anthropic Message Batches on the same client. */
  batchApi(): AnthropicBatchApi {
    const site: CallSite = { label: this.spec, url: this.endpoint, timeoutMs: 600_000, secrets: this.#secrets };
    return new AnthropicBatchApi(
      () => (this.#client ??= this.#connect()),
      (err, mod) => fromStainlessError(err, mod, site),
    );
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    const body = this.wire.encode(req) as Record<string, unknown>;
    const timeout = Math.max(1, Math.round(req.timeoutMs));
    const { client, mod } = await (this.#client ??= this.#connect());
    const started = performance.now();
    let json: unknown;
    try {
      // The SDK's generic POST, not messages.create: the latter prints a deprecation notice to the console on every call of a retiring model.
      json = await client.post('/v1/messages', { body, timeout, ...replyLimitOptions(req.maxReplyBytes) });
    } catch (err) {
      const site: CallSite = { label: this.spec, url: this.endpoint, timeoutMs: req.timeoutMs, secrets: this.#secrets };
      throw fromStainlessError(err, mod, site);
    }
    return this.wire.decode(json, performance.now() - started);
  }
}
