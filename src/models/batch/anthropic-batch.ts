// Anthropic's Message Batches through the official SDK: /v1/messages/batches create (each
// request's params exactly the synchronous /v1/messages body), retrieve, and the JSONL results.
// A batch carries no label of ours (no metadata, no name), so a submission whose id was never
// stored is recovered by its calls: the list (newest first) gives the batches created since our
// record of it with as many requests; an ended one is ours when its results' custom_ids (our
// call-cache keys) are exactly our calls. One still running cannot be read: it is `unsure`.

import type Anthropic from '@anthropic-ai/sdk';
import type { ModelCallError } from '../call-error.js';
import {
  batchErrorText,
  sdkCall,
  type BatchApi,
  type BatchEntry,
  type BatchProgress,
  type BatchRecovery,
  type BatchResult,
} from './batch-api.js';

type AnthropicModule = typeof import('@anthropic-ai/sdk');

/** Batches created this long before our record of a submission are still looked at: the provider's clock may run behind ours. */
const CLOCK_SKEW_MS = 10 * 60_000;

/** Anthropic Message Batches over an SDK client (the chat model's). */
export class AnthropicBatchApi implements BatchApi {
  readonly name = 'Anthropic Message Batches';

  constructor(
    private readonly connect: () => Promise<{ client: Anthropic; mod: AnthropicModule }>,
    private readonly wrap: (err: unknown, mod: AnthropicModule) => ModelCallError,
  ) {}

  #call<T>(fn: (client: Anthropic) => Promise<T>): Promise<T> {
    return sdkCall(this.connect, this.wrap, fn);
  }

  async submit(entries: BatchEntry[]): Promise<string> {
    const requests = entries.map((e) => ({ custom_id: e.customId, params: e.body as Anthropic.MessageCreateParamsNonStreaming }));
    const batch = await this.#call((c) => c.messages.batches.create({ requests }));
    return batch.id;
  }

  async recover(since: Date, keys: string[]): Promise<BatchRecovery> {
    const want = new Set(keys);
    const from = since.getTime() - CLOCK_SKEW_MS;
    const candidates = await this.#call(async (c) => {
      const out: Anthropic.Messages.MessageBatch[] = [];
      for await (const b of c.messages.batches.list({ limit: 100 })) {
        // Newest first: past the submission's time, no older batch can be ours.
        if (Date.parse(b.created_at) < from) break;
        const n = b.request_counts;
        if (n.processing + n.succeeded + n.errored + n.canceled + n.expired === want.size) out.push(b);
      }
      return out;
    });
    let unsure: string | undefined;
    for (const b of candidates) {
      if (b.processing_status !== 'ended') unsure ??= b.id;
      else if (await this.#carries(b.id, want)) return { state: 'found', remoteId: b.id };
    }
    return unsure ? { state: 'unsure', remoteId: unsure } : { state: 'none' };
  }

  /** Whether an ended batch's results are exactly these calls. */
  async #carries(remoteId: string, want: Set<string>): Promise<boolean> {
    return this.#call(async (c) => {
      let n = 0;
      for await (const line of await c.messages.batches.results(remoteId)) {
        if (!want.has(line.custom_id)) return false;
        n++;
      }
      return n === want.size;
    });
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
