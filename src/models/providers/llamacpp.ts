// In-process inference on a GGUF file through node-llama-cpp (an optional dependency, loaded
// on first use). Greedy generation uses the model's own chat template when the file carries
// one, and a plain "Role: text" transcript otherwise. Log-likelihood scoring follows
// lm-evaluation-harness: the summed log-probability of each continuation's tokens given the
// context, from the raw softmax; contexts that do not fit are truncated from the left.

import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { ChatMessage, ChatResponse } from '../../core/index.js';
import { ConfigError } from '../../core/index.js';
import type { ChatModel, ChatRequest, LoglikResult } from '../chat-model.js';
import { messageText } from '../chat-model.js';
import { ModelCallError } from '../call-error.js';
import { loadLlamaCpp } from '../optional-llama.js';

// The library's types are only needed inside this file; keep them loose so that the package
// stays optional at compile time too.
// biome-ignore lint/suspicious/noExplicitAny: node-llama-cpp is optional; its types are not needed outside this file
type Loaded = { model: any; sequence: any; chatWrapper: any | undefined; contextSize: number; LlamaChatWrapperMod: any };

const RAW_SOFTMAX = { temperature: 1, topK: 0, topP: 1, minP: 0 };

/**
 * CPU threads for decoding: MINDSCOPE_LLAMA_THREADS, else all cores but one. When the decode
 * threads take every core they wait on the event loop and on each other at each step, which
 * costs a small model far more than the thread it gains.
 */
function llamaThreads(): number {
  const fromEnv = Number(process.env.MINDSCOPE_LLAMA_THREADS);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  return Math.max(1, availableParallelism() - 1);
}

/** Loaded models are shared per path within a process. */
const loaded = new Map<string, Promise<Loaded>>();

async function load(path: string): Promise<Loaded> {
  const mod = await loadLlamaCpp(`llamacpp:${path}`);
  const llama = await mod.getLlama({ gpu: false, build: 'never', logLevel: 'error' });
  let model: Loaded['model'];
  try {
    model = await llama.loadModel({ modelPath: path });
  } catch (err) {
    // node-llama-cpp's errors (a file that is not GGUF: "Invalid GGUF magic") do not name the
    // file. Every call would fail alike: not_found stops the subject instead of failing each trial.
    throw new ModelCallError(`llamacpp:${path}: cannot load the model: ${(err as Error)?.message ?? String(err)}`, 'not_found');
  }
  const contextSize = Math.min(model.trainContextSize ?? 2048, 4096);
  const context = await model.createContext({ contextSize, sequences: 1, threads: llamaThreads() });
  const sequence = context.getSequence();
  const template: string | undefined = model.fileInfo?.metadata?.tokenizer?.chat_template;
  const chatWrapper = template ? new mod.JinjaTemplateChatWrapper({ template }) : undefined;
  return { model, sequence, chatWrapper, contextSize, LlamaChatWrapperMod: mod };
}

/** `llamacpp:FILE.gguf`: a local model in process through the optional node-llama-cpp, with greedy generation and log-likelihood scoring. */
export class LlamaCppChatModel implements ChatModel {
  readonly spec: string;
  readonly provider = 'llamacpp';
  readonly model: string;
  readonly endpoint: string;
  readonly revision: string;
  readonly local = false;
  readonly #path: string;
  /** One sequence, one call at a time. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(path: string) {
    this.#path = resolve(path);
    if (!existsSync(this.#path)) throw new ConfigError(`llamacpp:${path}: no such GGUF file`);
    this.model = path;
    this.spec = `llamacpp:${path}`;
    this.endpoint = `llamacpp:${this.#path}`;
    // A file replaced at the same path (another quantisation, a new checkpoint) is another model.
    const file = statSync(this.#path);
    this.revision = `${file.size}:${Math.round(file.mtimeMs)}`;
  }

  #loaded(): Promise<Loaded> {
    let p = loaded.get(this.#path);
    if (!p) {
      p = load(this.#path);
      loaded.set(this.#path, p);
      p.catch(() => loaded.delete(this.#path));
    }
    return p;
  }

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(fn, fn);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  /** The prompt as tokens, through the chat template when the model has one. */
  #promptTokens(l: Loaded, messages: ChatMessage[]): number[] {
    if (messages.some((m) => typeof m.content !== 'string' && m.content.some((p) => p.type !== 'text'))) {
      throw new ModelCallError(`${this.spec}: this model takes text only, and the request holds an image or a video`, 'unsupported');
    }
    if (l.chatWrapper) {
      const chatHistory = messages.map((m) =>
        m.role === 'assistant' ? { type: 'model', response: [messageText(m)] } : { type: m.role, text: messageText(m) },
      );
      chatHistory.push({ type: 'model', response: [] } as never);
      const { contextText } = l.chatWrapper.generateContextState({ chatHistory });
      return contextText.tokenize(l.model.tokenizer);
    }
    const text =
      messages.map((m) => `${m.role === 'user' ? 'User' : m.role === 'system' ? 'System' : 'Assistant'}: ${messageText(m)}`).join('\n\n') +
      '\n\nAssistant:';
    return [l.model.tokens.bos, ...l.model.tokenize(text)].filter((t: number | null) => t !== null && t !== undefined);
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    const l = await this.#loaded();
    return this.#serial(async () => {
      const started = performance.now();
      const maxTokens = Math.max(1, Math.min(req.settings.maxTokens, l.contextSize - 16));
      let tokens = this.#promptTokens(l, req.messages);
      const inputTokens = tokens.length;
      const room = l.contextSize - maxTokens;
      // Keep the end of the prompt (the question) when it does not fit, as lm-eval truncates.
      if (tokens.length > room) tokens = [tokens[0]!, ...tokens.slice(tokens.length - room + 1)];
      await l.sequence.clearHistory();
      const out: number[] = [];
      const eos = l.model.tokens.eos;
      const stop = req.settings.stop ?? [];
      const deadline = Date.now() + req.timeoutMs;
      let finishReason = 'length';
      for await (const t of l.sequence.evaluate(tokens, { temperature: req.settings.temperature, seed: req.settings.seed })) {
        if (t === eos) {
          finishReason = 'stop';
          break;
        }
        out.push(t);
        if (out.length >= maxTokens) break;
        if (stop.length && stop.some((s) => l.model.detokenize(out).includes(s))) {
          finishReason = 'stop';
          break;
        }
        if (Date.now() > deadline) throw new ModelCallError(`${this.spec}: no answer within ${req.timeoutMs / 1000}s`, 'timeout');
      }
      return {
        text: l.model.detokenize(out),
        usage: { inputTokens, outputTokens: out.length },
        latencyMs: performance.now() - started,
        finishReason:
          inputTokens > tokens.length ? `${finishReason} (prompt truncated from ${inputTokens} to ${tokens.length} tokens)` : finishReason,
      };
    });
  }

  async loglik(context: string, continuations: string[]): Promise<LoglikResult> {
    const l = await this.#loaded();
    return this.#serial(async () => {
      const ctxTokens: number[] = [l.model.tokens.bos, ...l.model.tokenize(context)];
      const logprobs: number[] = [];
      const tokenCounts: number[] = [];
      for (const cont of continuations) {
        // Tokenise context + continuation together and take the continuation's tokens as the
        // tail beyond the context's tokens, so that merges at the boundary are the model's own.
        const whole: number[] = [l.model.tokens.bos, ...l.model.tokenize(context + cont)];
        let split = 0;
        while (split < ctxTokens.length && split < whole.length && whole[split] === ctxTokens[split]) split++;
        if (split === whole.length) split = whole.length - 1;
        let input = whole;
        const keep = l.contextSize;
        if (input.length > keep) {
          const cut = input.length - keep + 1;
          input = [input[0]!, ...input.slice(cut + 1)];
          split = Math.max(1, split - cut);
        }
        await l.sequence.clearHistory();
        const results = await l.sequence.controlledEvaluate(
          input.map((t: number, i: number) =>
            i >= split - 1 && i < input.length - 1 ? [t, { generateNext: { probabilities: true, options: RAW_SOFTMAX } }] : t,
          ),
        );
        let sum = 0;
        for (let i = split; i < input.length; i++) {
          const p = results[i - 1]?.next?.probabilities?.get(input[i]) ?? 0;
          sum += Math.log(Math.max(p, 1e-300));
        }
        logprobs.push(sum);
        tokenCounts.push(input.length - split);
      }
      return { logprobs, tokenCounts };
    });
  }
}
