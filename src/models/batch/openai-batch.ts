// OpenAI's Batch API through the official SDK: the calls as a JSONL file uploaded to /v1/files
// (purpose "batch"), a batch created on /v1/batches for /v1/chat/completions, polled by id, and
// its output and error files downloaded. Each line's body is exactly the synchronous request.

import type OpenAI from 'openai';
import type { ModelCallError } from '../call-error.js';
import { batchErrorText, sdkCall, type BatchApi, type BatchEntry, type BatchProgress, type BatchResult } from './batch-api.js';

type OpenAiModule = typeof import('openai');

interface OutputLine {
  custom_id?: string;
  response?: { status_code?: number; body?: unknown } | null;
  error?: unknown;
}

/** The OpenAI Batch API over an SDK client (the chat model's). */
export class OpenAiBatchApi implements BatchApi {
  readonly name = 'OpenAI Batch API';

  constructor(
    private readonly connect: () => Promise<{ client: OpenAI; mod: OpenAiModule }>,
    private readonly wrap: (err: unknown, mod: OpenAiModule) => ModelCallError,
  ) {}

  #call<T>(fn: (client: OpenAI) => Promise<T>): Promise<T> {
    return sdkCall(this.connect, this.wrap, fn);
  }

  async submit(entries: BatchEntry[], label: string): Promise<string> {
    const { mod } = await this.connect();
    const jsonl = entries
      .map((e) => JSON.stringify({ custom_id: e.customId, method: 'POST', url: '/v1/chat/completions', body: e.body }))
      .join('\n');
    const file = await mod.toFile(Buffer.from(`${jsonl}\n`, 'utf8'), `mindscope-${label}.jsonl`, { type: 'application/jsonl' });
    const uploaded = await this.#call((c) => c.files.create({ file, purpose: 'batch' }));
    const batch = await this.#call((c) =>
      c.batches.create({
        input_file_id: uploaded.id,
        endpoint: '/v1/chat/completions',
        completion_window: '24h',
        metadata: { mindscope_batch: label },
      }),
    );
    return batch.id;
  }

  async find(label: string): Promise<string | undefined> {
    return this.#call(async (c) => {
      let seen = 0;
      for await (const b of c.batches.list({ limit: 100 })) {
        if ((b.metadata as Record<string, string> | null)?.mindscope_batch === label) return b.id;
        // The most recent batches come first; a lost submission is among them.
        if (++seen >= 1000) break;
      }
      return undefined;
    });
  }

  async progress(remoteId: string): Promise<BatchProgress> {
    const b = await this.#call((c) => c.batches.retrieve(remoteId));
    const total = b.request_counts?.total ?? 0;
    const finished = (b.request_counts?.completed ?? 0) + (b.request_counts?.failed ?? 0);
    if (b.status === 'completed') return { state: 'ended', total, finished };
    if (b.status === 'failed' || b.status === 'expired' || b.status === 'cancelled' || b.status === 'cancelling') {
      const why = b.errors?.data?.map((e) => e.message).join('; ');
      // An expired batch still returns what it finished (in its output file); the rest errors.
      if (b.status === 'expired' && b.output_file_id) return { state: 'ended', total, finished };
      return { state: 'failed', total, finished, error: `batch ${b.status}${why ? `: ${why}` : ''}` };
    }
    return { state: 'running', total, finished };
  }

  async results(remoteId: string): Promise<BatchResult[]> {
    const b = await this.#call((c) => c.batches.retrieve(remoteId));
    const out: BatchResult[] = [];
    for (const fileId of [b.output_file_id, b.error_file_id]) {
      if (!fileId) continue;
      const text = await this.#call(async (c) => (await c.files.content(fileId)).text());
      for (const raw of text.split('\n')) {
        if (!raw.trim()) continue;
        const line = JSON.parse(raw) as OutputLine;
        if (!line.custom_id) continue;
        const status = line.response?.status_code ?? 0;
        if (!line.error && status >= 200 && status < 300) out.push({ customId: line.custom_id, ok: true, body: line.response?.body });
        else {
          const why = line.error ?? (line.response?.body as { error?: unknown } | undefined)?.error ?? line.response?.body;
          out.push({ customId: line.custom_id, ok: false, error: `${status ? `HTTP ${status}: ` : ''}${batchErrorText(why)}` });
        }
      }
    }
    return out;
  }
}
