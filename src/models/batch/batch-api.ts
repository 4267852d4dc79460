// A provider's batch API, as the runner sees it: submit request bodies (each what the
// synchronous call would send, under an id of ours), ask how the batch is doing, and take its
// results (each the body the synchronous call would have got, or an error). OpenAI's Batch API,
// Anthropic's Message Batches and Gemini's batch mode all fit; see the files beside this one.

import type { ModelCallError } from '../call-error.js';

/** Run `fn` on the connected SDK client; the SDK's errors become the runner's (`wrap`). */
export async function sdkCall<C, M, T>(
  connect: () => Promise<{ client: C; mod: M }>,
  wrap: (err: unknown, mod: M) => ModelCallError,
  fn: (client: C) => Promise<T>,
): Promise<T> {
  const { client, mod } = await connect();
  try {
    return await fn(client);
  } catch (err) {
    throw wrap(err, mod);
  }
}

/** One call of a batch: our id for it (the call-cache key) and its request body (ChatModel.wire.encode). */
export interface BatchEntry {
  customId: string;
  body: unknown;
}

export interface BatchProgress {
  /** running: still processing; ended: results can be taken; failed: the batch as a whole failed (expired, cancelled, rejected). */
  state: 'running' | 'ended' | 'failed';
  total: number;
  /** Calls finished so far (succeeded or errored). */
  finished: number;
  /** Why a failed batch failed. */
  error?: string;
}

/** A batch call's outcome: the response body (decode it with ChatModel.wire.decode) or the provider's error. */
export type BatchResult = { customId: string; ok: true; body: unknown } | { customId: string; ok: false; error: string };

/**
 * What `recover` found of a submission whose provider id was never stored. found: the batch;
 * unsure: a batch that may be it has not ended, so its calls cannot be read yet (ask again
 * later, and submit nothing meanwhile); none: no batch created since then carries these calls.
 */
export type BatchRecovery = { state: 'found'; remoteId: string } | { state: 'unsure'; remoteId: string } | { state: 'none' };

/** A provider's batch API: submit, poll, take results. */
export interface BatchApi {
  /** The API's name for messages, e.g. `OpenAI Batch API`. */
  readonly name: string;
  /** Create a batch of these calls; returns the provider's batch id. `label` (our batch id) is attached where the API takes one. */
  submit(entries: BatchEntry[], label: string): Promise<string>;
  progress(remoteId: string): Promise<BatchProgress>;
  /** The outcome of every call of an ended batch. */
  results(remoteId: string): Promise<BatchResult[]>;
  /**
   * The provider id of a batch submitted under `label`, where the API lists batches with it
   * (OpenAI metadata, Gemini display name): a process killed before storing the id is found out.
   */
  find?(label: string): Promise<string | undefined>;
  /**
   * Where batches carry no label of ours (Anthropic): the batch created at or after `since` (our
   * record of the submission, made just before it) whose calls are exactly `keys`.
   */
  recover?(since: Date, keys: string[]): Promise<BatchRecovery>;
}

/** A one-line description of an error object as the batch APIs return them. */
export function batchErrorText(error: unknown): string {
  if (error === null || error === undefined) return 'unknown error';
  if (typeof error === 'string') return error;
  const e = error as { message?: unknown; error?: unknown; type?: unknown; code?: unknown };
  if (typeof e.message === 'string') return [e.code ?? e.type, e.message].filter(Boolean).join(': ');
  if (e.error !== undefined) return batchErrorText(e.error);
  return JSON.stringify(error).slice(0, 300);
}
