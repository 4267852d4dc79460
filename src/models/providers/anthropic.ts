// Anthropic's messages protocol.

import type { ChatMessage, ChatResponse } from '../../core/index.js';
import type { ChatModel, ChatRequest } from '../chat-model.js';
import { messageText } from '../chat-model.js';
import { malformed, parseDataUrl, postJson } from '../http.js';

export interface AnthropicOptions {
  model: string;
  baseUrl: string;
  apiKey: string;
}

function toAnthropicContent(m: ChatMessage): unknown {
  if (typeof m.content === 'string') return m.content;
  return m.content.map((p) => {
    if (p.type === 'text') return { type: 'text', text: p.text };
    const data = parseDataUrl(p.url);
    return data
      ? { type: 'image', source: { type: 'base64', media_type: data.mediaType, data: data.data } }
      : { type: 'image', source: { type: 'url', url: p.url } };
  });
}

export class AnthropicChatModel implements ChatModel {
  readonly spec: string;
  readonly provider = 'anthropic';
  readonly model: string;
  readonly endpoint: string;
  readonly local = false;
  readonly #apiKey: string;

  constructor(opts: AnthropicOptions) {
    this.model = opts.model;
    this.endpoint = opts.baseUrl.replace(/\/+$/, '');
    this.spec = `anthropic:${opts.model}`;
    this.#apiKey = opts.apiKey;
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    const s = req.settings;
    const system = req.messages
      .filter((m) => m.role === 'system')
      .map(messageText)
      .join('\n\n');
    const body: Record<string, unknown> = {
      model: this.model,
      max_tokens: s.maxTokens,
      temperature: s.temperature,
      messages: req.messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role, content: toAnthropicContent(m) })),
    };
    if (system) body.system = system;
    if (s.topP !== undefined) body.top_p = s.topP;
    if (s.stop?.length) body.stop_sequences = s.stop;
    const started = performance.now();
    const json = (await postJson({
      label: this.spec,
      url: `${this.endpoint}/v1/messages`,
      headers: { 'x-api-key': this.#apiKey, 'anthropic-version': '2023-06-01' },
      body,
      timeoutMs: req.timeoutMs,
      secrets: [this.#apiKey],
    })) as {
      model?: string;
      content?: Array<{ type: string; text?: string }>;
      stop_reason?: string;
      usage?: { input_tokens?: number; output_tokens?: number };
    };
    if (!json || !Array.isArray(json.content)) malformed(this.spec, 'no content array');
    const text = json.content
      .filter((c) => c.type === 'text')
      .map((c) => c.text ?? '')
      .join('');
    return {
      text,
      usage: { inputTokens: json.usage?.input_tokens ?? 0, outputTokens: json.usage?.output_tokens ?? 0 },
      latencyMs: performance.now() - started,
      modelReported: json.model,
      finishReason: json.stop_reason,
    };
  }
}
