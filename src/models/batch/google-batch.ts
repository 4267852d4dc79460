// Gemini batch mode through the official SDK (@google/genai): the calls as inlined requests of
// batches.create (models/M:batchGenerateContent), each the synchronous generateContent request
// with our id in its metadata; polled with batches.get; results inlined in the finished batch.

import type { GoogleGenAI, InlinedRequest } from '@google/genai';
import type { ModelCallError } from '../call-error.js';
import { batchErrorText, sdkCall, type BatchApi, type BatchEntry, type BatchProgress, type BatchResult } from './batch-api.js';

type GenAiModule = typeof import('@google/genai');

const FAILED = new Set(['JOB_STATE_FAILED', 'JOB_STATE_CANCELLED', 'JOB_STATE_EXPIRED', 'JOB_STATE_CANCELLING']);

/** Gemini batch mode over an SDK client (the chat model's). */
export class GoogleBatchApi implements BatchApi {
  readonly name = 'Gemini batch mode';

  constructor(
    private readonly model: string,
    private readonly connect: () => Promise<{ client: GoogleGenAI; mod: GenAiModule }>,
    private readonly wrap: (err: unknown, mod: GenAiModule) => ModelCallError,
  ) {}

  #call<T>(fn: (client: GoogleGenAI) => Promise<T>): Promise<T> {
    return sdkCall(this.connect, this.wrap, fn);
  }

  async submit(entries: BatchEntry[], label: string): Promise<string> {
    const src: InlinedRequest[] = entries.map((e) => ({ ...(e.body as InlinedRequest), metadata: { key: e.customId } }));
    const job = await this.#call((c) => c.batches.create({ model: this.model, src, config: { displayName: `mindscope-${label}` } }));
    if (!job.name) throw new Error('Gemini batch mode: the created batch has no name');
    return job.name;
  }

  async find(label: string): Promise<string | undefined> {
    return this.#call(async (c) => {
      let seen = 0;
      for await (const job of await c.batches.list({ config: { pageSize: 100 } })) {
        if (job.displayName === `mindscope-${label}`) return job.name;
        if (++seen >= 1000) break;
      }
      return undefined;
    });
  }

  async progress(remoteId: string): Promise<BatchProgress> {
    const job = await this.#call((c) => c.batches.get({ name: remoteId }));
    const stats = job.completionStats;
    const total = Number((job as { batchStats?: { requestCount?: string } }).batchStats?.requestCount ?? 0);
    const finished = Number(stats?.successfulCount ?? 0) + Number(stats?.failedCount ?? 0);
    if (job.state === 'JOB_STATE_SUCCEEDED') return { state: 'ended', total, finished };
    if (job.state && FAILED.has(job.state))
      return { state: 'failed', total, finished, error: `batch ${job.state}${job.error ? `: ${batchErrorText(job.error)}` : ''}` };
    return { state: 'running', total, finished };
  }

  async results(remoteId: string): Promise<BatchResult[]> {
    const job = await this.#call((c) => c.batches.get({ name: remoteId }));
    const out: BatchResult[] = [];
    for (const r of job.dest?.inlinedResponses ?? []) {
      const customId = (r.metadata as { key?: unknown } | undefined)?.key;
      if (typeof customId !== 'string') continue;
      if (r.response && !r.error) out.push({ customId, ok: true, body: r.response });
      else out.push({ customId, ok: false, error: batchErrorText(r.error) });
    }
    return out;
  }
}
