// Anthropic's Message Batches through the official SDK: /v1/messages/batches create (each
// request's params exactly the synchronous /v1/messages body), retrieve, and the JSONL results.

import type Anthropic from '@anthropic-ai/sdk';
import type { ModelCallError } from '../call-error.js';
import { batchErrorText, type BatchApi, type BatchEntry, type BatchProgress, type BatchResult } from './batch-api.js';

type AnthropicModule = typeof import('@anthropic-ai/sdk');

/** Anthropic Message Batches over an SDK client (the chat model's). */
export class AnthropicBatchApi implements BatchApi {
  readonly name = 'Anthropic Message Batches';

  constructor(
    private readonly connect: () => Promise<{ client: Anthropic; mod: AnthropicModule }>,
    private readonly wrap: (err: unknown, mod: AnthropicModule) => ModelCallError,
  ) {}

  async #call<T>(fn: (client: Anthropic) => Promise<T>): Promise<T> {
    const { client, mod } = await this.connect();
    try {
      return await fn(client);
    } catch (err) {
      throw this.wrap(err, mod);
    }
  }

  async submit(entries: BatchEntry[]): Promise<string> {
    const requests = entries.map((e) => ({ custom_id: e.customId, params: e.body as Anthropic.MessageCreateParamsNonStreaming }));
    const batch = await this.#call((c) => c.messages.batches.create({ requests }));
    return batch.id;
  }

  async progress(remoteId: string): Promise<BatchProgress> {
    const b = await this.#call((c) => c.messages.batches.retrieve(remoteId));
    const n = b.request_counts;
    const finished = n.succeeded + n.errored + n.canceled + n.expired;
    const total = finished + n.processing;
    // An ended batch's expired or cancelled calls come back as errored results (retried one by one).
    return { state: b.processing_status === 'ended' ? 'ended' : 'running', total, finished };
  }

  async results(remoteId: string): Promise<BatchResult[]> {
    const stream = await this.#call((c) => c.messages.batches.results(remoteId));
    const out: BatchResult[] = [];
    for await (const line of stream) {
      const r = line.result;
      if (r.type === 'succeeded') out.push({ customId: line.custom_id, ok: true, body: r.message });
      else out.push({ customId: line.custom_id, ok: false, error: r.type === 'errored' ? batchErrorText(r.error) : `request ${r.type}` });
    }
    return out;
  }
}
