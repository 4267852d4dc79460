// OpenAI's chat-completions protocol: OpenAI itself and every server that copies it
// (vLLM, Ollama, llama.cpp server, LM Studio, OpenRouter).

import type { ChatMessage, ChatResponse, TokenLogprob } from '../../core/index.js';
import type { ChatModel, ChatRequest } from '../chat-model.js';
import { malformed, postJson } from '../http.js';

export interface OpenAiOptions {
  /** `openai` for OpenAI itself, `openai-compatible` for other servers. */
  provider: 'openai' | 'openai-compatible';
  model: string;
  baseUrl: string;
  apiKey?: string;
}

function toOpenAiMessage(m: ChatMessage): unknown {
  if (typeof m.content === 'string') return { role: m.role, content: m.content };
  return {
    role: m.role,
    content: m.content.map((p) => (p.type === 'text' ? { type: 'text', text: p.text } : { type: 'image_url', image_url: { url: p.url } })),
  };
}

export class OpenAiChatModel implements ChatModel {
  readonly spec: string;
  readonly provider: string;
  readonly model: string;
  readonly endpoint: string;
  readonly local = false;
  readonly #apiKey?: string;

  constructor(opts: OpenAiOptions) {
    this.provider = opts.provider;
    this.model = opts.model;
    this.endpoint = opts.baseUrl.replace(/\/+$/, '');
    this.spec = opts.provider === 'openai' ? `openai:${opts.model}` : `openai-compatible:${this.endpoint}#${opts.model}`;
    this.#apiKey = opts.apiKey;
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    const s = req.settings;
    const body: Record<string, unknown> = {
      model: this.model,
      messages: req.messages.map(toOpenAiMessage),
      temperature: s.temperature,
      // OpenAI's newer models accept only max_completion_tokens; other servers know max_tokens.
      [this.provider === 'openai' ? 'max_completion_tokens' : 'max_tokens']: s.maxTokens,
    };
    if (s.topP !== undefined) body.top_p = s.topP;
    if (s.seed !== undefined) body.seed = s.seed;
    if (s.stop?.length) body.stop = s.stop;
    if (s.logprobs) body.logprobs = true;
    const started = performance.now();
    const json = (await postJson({
      label: this.spec,
      url: `${this.endpoint}/chat/completions`,
      headers: this.#apiKey ? { authorization: `Bearer ${this.#apiKey}` } : {},
      body,
      timeoutMs: req.timeoutMs,
      secrets: this.#apiKey ? [this.#apiKey] : [],
    })) as {
      model?: string;
      choices?: Array<{
        message?: { content?: string | null };
        finish_reason?: string;
        logprobs?: { content?: TokenLogprob[] | null } | null;
      }>;
      usage?: { prompt_tokens?: number; completion_tokens?: number };
    };
    const choice = json?.choices?.[0];
    if (!choice?.message) malformed(this.spec, 'no choices[0].message');
    const content = choice.message.content;
    if (content !== null && content !== undefined && typeof content !== 'string') malformed(this.spec, 'message.content is not text');
    const logprobs = choice.logprobs?.content?.map((t) => ({ token: t.token, logprob: t.logprob }));
    return {
      text: content ?? '',
      usage: { inputTokens: json.usage?.prompt_tokens ?? 0, outputTokens: json.usage?.completion_tokens ?? 0 },
      latencyMs: performance.now() - started,
      logprobs: logprobs?.length ? logprobs : undefined,
      modelReported: json.model,
      finishReason: choice.finish_reason,
    };
  }
}
