// Google's Gemini generateContent protocol.

import type { ChatMessage, ChatResponse } from '../../core/index.js';
import type { ChatModel, ChatRequest } from '../chat-model.js';
import { messageText } from '../chat-model.js';
import { malformed, parseDataUrl, postJson } from '../http.js';

export interface GoogleOptions {
  model: string;
  baseUrl: string;
  apiKey: string;
}

function toParts(m: ChatMessage): unknown[] {
  if (typeof m.content === 'string') return [{ text: m.content }];
  return m.content.map((p) => {
    if (p.type === 'text') return { text: p.text };
    const data = parseDataUrl(p.url);
    return data
      ? { inlineData: { mimeType: data.mediaType, data: data.data } }
      : { fileData: { fileUri: p.url, mimeType: p.mediaType ?? 'image/png' } };
  });
}

export class GoogleChatModel implements ChatModel {
  readonly spec: string;
  readonly provider = 'google';
  readonly model: string;
  readonly endpoint: string;
  readonly local = false;
  readonly #apiKey: string;

  constructor(opts: GoogleOptions) {
    this.model = opts.model;
    this.endpoint = opts.baseUrl.replace(/\/+$/, '');
    this.spec = `google:${opts.model}`;
    this.#apiKey = opts.apiKey;
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    const s = req.settings;
    const system = req.messages
      .filter((m) => m.role === 'system')
      .map(messageText)
      .join('\n\n');
    const generationConfig: Record<string, unknown> = { temperature: s.temperature, maxOutputTokens: s.maxTokens };
    if (s.topP !== undefined) generationConfig.topP = s.topP;
    if (s.seed !== undefined) generationConfig.seed = s.seed;
    if (s.stop?.length) generationConfig.stopSequences = s.stop;
    const body: Record<string, unknown> = {
      contents: req.messages
        .filter((m) => m.role !== 'system')
        .map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: toParts(m) })),
      generationConfig,
    };
    if (system) body.systemInstruction = { parts: [{ text: system }] };
    const started = performance.now();
    const json = (await postJson({
      label: this.spec,
      url: `${this.endpoint}/v1beta/models/${encodeURIComponent(this.model)}:generateContent`,
      headers: { 'x-goog-api-key': this.#apiKey },
      body,
      timeoutMs: req.timeoutMs,
      secrets: [this.#apiKey],
    })) as {
      modelVersion?: string;
      candidates?: Array<{ content?: { parts?: Array<{ text?: string }> }; finishReason?: string }>;
      usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number };
    };
    const candidate = json?.candidates?.[0];
    if (!candidate) malformed(this.spec, 'no candidates[0]');
    const text = (candidate.content?.parts ?? []).map((p) => p.text ?? '').join('');
    return {
      text,
      usage: { inputTokens: json.usageMetadata?.promptTokenCount ?? 0, outputTokens: json.usageMetadata?.candidatesTokenCount ?? 0 },
      latencyMs: performance.now() - started,
      modelReported: json.modelVersion,
      finishReason: candidate.finishReason,
    };
  }
}
