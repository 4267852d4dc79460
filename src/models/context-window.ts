// Left truncation to the context window for OpenAI-compatible servers (vLLM, llama.cpp's server):
// when prompt + max tokens would pass the window, the oldest context is cut from the left until
// they fit, as lm-eval and the audit paper do (system messages and the end of the last message,
// the question, are kept). The window is given, or read from the server (GET /v1/models:
// max_model_len (vLLM) or context_length; else GET /props: llama.cpp's n_ctx). Tokens are counted
// by the server when it can: vLLM's POST /tokenize with the messages (its chat template applied),
// llama.cpp's POST /apply-template then /tokenize; else its /tokenize on the text alone
// (template tokens not counted); else estimated at 4 characters a token. The response says what
// was cut and how it was counted (ChatResponse.contextTruncation).

import type { ChatMessage, ContextTruncation } from '../core/index.js';
import { ModelCallError } from './call-error.js';
import { messageText } from './chat-model.js';

/** A context window in tokens, or 'server': read it from the server. */
export type ContextWindowSetting = number | 'server';

/** Characters a token in the labelled estimate. */
const CHARS_PER_TOKEN = 4;

type Counting = ContextTruncation['counting'];

/** What a server offers for counting and fitting, found on the first call and kept. */
export class ContextFitter {
  #window?: Promise<{ tokens: number; source: 'given' | 'server' }>;
  #counting?: Promise<Counting>;
  readonly #root: string;

  constructor(
    readonly setting: ContextWindowSetting,
    /** The base URL as the SDK gets it (…/v1). */
    readonly baseUrl: string,
    readonly model: string,
    readonly label: string,
    readonly apiKey: string | undefined,
  ) {
    this.#root = baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  }

  async #json(url: string, body: unknown | undefined, timeoutMs: number): Promise<{ status: number; json: unknown }> {
    let res: Response;
    try {
      res = await fetch(url, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', ...(this.apiKey ? { authorization: `Bearer ${this.apiKey}` } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(Math.max(1, timeoutMs)),
      });
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      throw new ModelCallError(
        `${this.label}: ${url.replace(this.#root, '')}: ${timedOut ? 'no answer in time' : (err as Error).message}`,
        timedOut ? 'timeout' : 'network',
      );
    }
    const text = await res.text();
    try {
      return { status: res.status, json: JSON.parse(text) };
    } catch {
      return { status: res.status, json: undefined };
    }
  }

  /** The window in tokens: the given one, or the server's. */
  window(timeoutMs: number): Promise<{ tokens: number; source: 'given' | 'server' }> {
    if (typeof this.setting === 'number') return Promise.resolve({ tokens: this.setting, source: 'given' });
    this.#window ??= (async () => {
      const models = await this.#json(`${this.baseUrl.replace(/\/+$/, '')}/models`, undefined, timeoutMs);
      const data = (models.json as { data?: Array<Record<string, unknown>> } | undefined)?.data ?? [];
      const entry = data.find((d) => d.id === this.model) ?? (data.length === 1 ? data[0] : undefined);
      const reported = entry?.max_model_len ?? entry?.context_length;
      if (typeof reported === 'number' && reported > 0) return { tokens: reported, source: 'server' as const };
      const props = await this.#json(`${this.#root}/props`, undefined, timeoutMs);
      const nCtx = (props.json as { default_generation_settings?: { n_ctx?: unknown } } | undefined)?.default_generation_settings?.n_ctx;
      if (typeof nCtx === 'number' && nCtx > 0) return { tokens: nCtx, source: 'server' as const };
      throw new ModelCallError(
        `${this.label}: the server reports no context window (neither max_model_len nor context_length in /v1/models, nor n_ctx in /props); give it as a number (contextWindow)`,
        'unsupported',
      );
    })();
    this.#window.catch(() => (this.#window = undefined));
    return this.#window;
  }

  /** Tokens of the messages as the server would see them, and how they were counted. */
  async count(messages: ChatMessage[], timeoutMs: number): Promise<{ tokens: number; counting: Counting }> {
    const text = messages.map(messageText).join('\n');
    const counting = await (this.#counting ??= this.#probe(messages, timeoutMs));
    if (counting === 'server-chat') {
      const r = await this.#json(`${this.#root}/tokenize`, { model: this.model, messages, add_generation_prompt: true }, timeoutMs);
      return { tokens: tokenCount(r.json) ?? Number.NaN, counting };
    }
    if (counting === 'server-template') {
      const t = await this.#json(`${this.#root}/apply-template`, { messages }, timeoutMs);
      const r = await this.#json(
        `${this.#root}/tokenize`,
        { content: (t.json as { prompt?: string }).prompt ?? '', add_special: true },
        timeoutMs,
      );
      return { tokens: tokenCount(r.json) ?? Number.NaN, counting };
    }
    if (counting === 'server-text') {
      const r = await this.#json(`${this.#root}/tokenize`, { content: text, add_special: true }, timeoutMs);
      return { tokens: tokenCount(r.json) ?? Number.NaN, counting };
    }
    return { tokens: Math.ceil(text.length / CHARS_PER_TOKEN), counting };
  }

  async #probe(messages: ChatMessage[], timeoutMs: number): Promise<Counting> {
    const chat = await this.#json(`${this.#root}/tokenize`, { model: this.model, messages, add_generation_prompt: true }, timeoutMs);
    if (chat.status < 300 && typeof (chat.json as { count?: unknown })?.count === 'number') return 'server-chat';
    const template = await this.#json(`${this.#root}/apply-template`, { messages }, timeoutMs);
    if (template.status < 300 && typeof (template.json as { prompt?: unknown })?.prompt === 'string') return 'server-template';
    const plain = await this.#json(`${this.#root}/tokenize`, { content: 'a b', add_special: true }, timeoutMs);
    if (plain.status < 300 && tokenCount(plain.json) !== undefined) return 'server-text';
    return 'estimate';
  }

  /**
   * The messages cut from the left so that their tokens and maxTokens fit the window, with what
   * was cut (undefined when nothing needed cutting). Throws when even the system messages and
   * the end of the last message do not fit.
   */
  async fit(
    messages: ChatMessage[],
    maxTokens: number,
    timeoutMs: number,
  ): Promise<{ messages: ChatMessage[]; truncation?: ContextTruncation }> {
    const window = await this.window(timeoutMs);
    const budget = window.tokens - maxTokens;
    const first = await this.count(messages, timeoutMs);
    if (first.tokens <= budget) return { messages };
    let current = messages;
    let tokens = first.tokens;
    let charsCut = 0;
    let dropped = 0;
    for (let attempt = 0; attempt < 12 && tokens > budget; attempt++) {
      const chars = current.reduce((s, m) => s + messageText(m).length, 0);
      // Characters a token in this prompt, and a margin that grows with each attempt.
      const want = Math.ceil((((tokens - budget) * chars) / Math.max(1, tokens)) * (1 + 0.05 * (attempt + 1))) + 1;
      const cut = cutLeft(current, want);
      if (!cut) break;
      current = cut.messages;
      charsCut += cut.chars;
      dropped += cut.dropped;
      tokens = (await this.count(current, timeoutMs)).tokens;
    }
    if (!(tokens <= budget))
      throw new ModelCallError(
        `${this.label}: the prompt (${first.tokens} tokens) does not fit the context window of ${window.tokens} tokens with ${maxTokens} for the reply, even with all the context cut that can be`,
        'bad_request',
      );
    return {
      messages: current,
      truncation: {
        window: window.tokens,
        windowSource: window.source,
        counting: first.counting,
        maxTokens,
        promptTokens: first.tokens,
        keptTokens: tokens,
        charsCut,
        messagesDropped: dropped,
      },
    };
  }
}

function tokenCount(json: unknown): number | undefined {
  const j = json as { count?: unknown; tokens?: unknown } | undefined;
  if (typeof j?.count === 'number') return j.count;
  return Array.isArray(j?.tokens) ? j.tokens.length : undefined;
}

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/**
 * `want` characters cut from the left of the context: whole messages dropped, oldest first (never
 * a system message or the last message), then the start of the oldest remaining text message,
 * up to a word boundary. Undefined when nothing more can be cut.
 */
function cutLeft(messages: ChatMessage[], want: number): { messages: ChatMessage[]; chars: number; dropped: number } | undefined {
  const out = [...messages];
  let chars = 0;
  let dropped = 0;
  for (let i = 0; i < out.length - 1 && chars < want; ) {
    const m = out[i]!;
    const len = messageText(m).length;
    if (m.role === 'system' || (typeof m.content === 'string' && len > want - chars)) {
      i++;
      continue;
    }
    out.splice(i, 1);
    chars += len;
    dropped++;
  }
  if (chars < want) {
    const at = out.findIndex((m) => m.role !== 'system' && typeof m.content === 'string' && m.content.length > 0);
    if (at >= 0) {
      const text = out[at]!.content as string;
      let from = Math.min(text.length, want - chars);
      // On to the next word, when one starts soon.
      const space = text.slice(from, from + 40).search(/\s/);
      if (space >= 0) from += space + 1;
      // The last message keeps at least its last character.
      const most = at === out.length - 1 ? text.length - 1 : text.length;
      from = Math.min(from, most);
      // Between characters, not between the halves of a surrogate pair (emoji, text without spaces).
      if (isLowSurrogate(text.charCodeAt(from)) && isHighSurrogate(text.charCodeAt(from - 1))) from += from < most ? 1 : -1;
      chars += from;
      out[at] = { ...out[at]!, content: text.slice(from) };
    }
  }
  return chars > 0 ? { messages: out, chars, dropped } : undefined;
}
