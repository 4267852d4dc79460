// Anthropic's messages protocol through the official SDK (loaded on the first call), with
// extended thinking (--thinking-budget), structured output as a forced tool call, and prompt
// caching of long shared prefixes.

import type Anthropic from '@anthropic-ai/sdk';
import type { ChatMessage, ChatResponse } from '../../core/index.js';
import { capabilitiesFor, takesSampling, type ModelCapabilities } from '../capabilities.js';
import type { ChatRequest } from '../chat-model.js';
import { messageText } from '../chat-model.js';
import { type CallSite, malformed, parseDataUrl } from '../http.js';
import { SdkChatModel, type SdkConnection, type SdkTarget } from '../sdk-chat-model.js';
import { fromStainlessError } from '../sdk-errors.js';
import { boundedFetch, replyLimitOptions } from '../reply-limit.js';
import { leanFetch } from '../lean-fetch.js';
import { type ModelCallError, videoUnsupported } from '../call-error.js';
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
export class AnthropicChatModel extends SdkChatModel<Anthropic, AnthropicModule> {
  constructor(opts: AnthropicOptions) {
    super({
      provider: 'anthropic',
      model: opts.model,
      baseUrl: opts.baseUrl,
      apiKey: opts.apiKey,
      spec: () => `anthropic:${opts.model}`,
      capabilities: capabilitiesFor('anthropic', opts.model),
      api: '/v1/messages',
      encode: anthropicMessagesBody,
      decode: (label, body, latencyMs) => ({ ...decodeAnthropicMessage(label, body), latencyMs }),
    });
  }

  protected async connect({ url, apiKey }: SdkTarget): Promise<SdkConnection<Anthropic, AnthropicModule>> {
    const mod = await import('@anthropic-ai/sdk');
    const client = new mod.Anthropic({
      apiKey,
      authToken: null,
      baseURL: url,
      maxRetries: 0,
      logLevel: 'off',
      // A keep-alive HTTP path (lean-fetch.ts), its replies read through a byte counter: one past
      // the cap fails as `oversized`.
      fetch: boundedFetch(this.spec, leanFetch),
    });
    return { client, mod };
  }

  protected send(client: Anthropic, body: unknown, timeout: number, maxReplyBytes: number | undefined): Promise<unknown> {
    // The SDK's generic POST, not messages.create: the latter prints a deprecation notice to the console on every call of a retiring model.
    return client.post('/v1/messages', { body: body as Record<string, unknown>, timeout, ...replyLimitOptions(maxReplyBytes) });
  }

  protected callError(err: unknown, mod: AnthropicModule, site: CallSite): ModelCallError {
    return fromStainlessError(err, mod, site);
  }

  /** Anthropic Message Batches on the same client. */
  batchApi(): AnthropicBatchApi {
    const site = this.site(600_000);
    return new AnthropicBatchApi(
      () => this.connection(),
      (err, mod) => this.callError(err, mod, site),
    );
  }
}
