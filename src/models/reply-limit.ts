// The reply-size cap. A server that sends 50 MB per reply costs that much memory per call in
// flight and that much database per transcript. The runner gives the cap with each call
// (ChatRequest.maxReplyBytes); a provider on an SDK hands it to the SDK's request options
// (replyLimitOptions), which pass it on to the fetch function in the request's init, and the SDK
// clients fetch through `boundedFetch`, which counts the body's bytes as they arrive and stops
// reading past the cap. Clients that take no fetch function are checked on the decoded reply
// (replyTooLarge). (An AsyncLocalStorage carried the cap before: its promise hooks cost every
// promise of the process about 5% of the runner's time.)

import type { ChatResponse } from '../core/index.js';
import { ModelCallError } from './call-error.js';

/**
 * Default cap: 4 MiB. The longest reply a model may legitimately give is bounded by its output
 * limit (128k tokens, about 0.5 MB of text; twice that with reasoning text); per-token
 * log-probabilities add about 60 bytes a token. 4 MiB leaves room for all of that, and keeps
 * 64 calls in flight under 256 MiB of reply bodies.
 */
export const DEFAULT_MAX_REPLY_BYTES = 4 * 1024 * 1024;

/** The field of a fetch's init that carries the cap (not a RequestInit field: fetch ignores it). */
const LIMIT_FIELD = 'mindscopeMaxReplyBytes';

/** SDK request options (OpenAI, Anthropic) that carry the cap to the client's fetch; none without a cap. */
export function replyLimitOptions(maxBytes: number | undefined): {
  fetchOptions?: Omit<RequestInit, 'headers' | 'body' | 'method' | 'signal'>;
} {
  return maxBytes === undefined ? {} : { fetchOptions: { [LIMIT_FIELD]: maxBytes } as RequestInit };
}

/** The cap a fetch's init carries (replyLimitOptions), if any. */
export function replyLimitOf(init: RequestInit | undefined): number | undefined {
  const v = (init as Record<string, unknown> | undefined)?.[LIMIT_FIELD];
  return typeof v === 'number' ? v : undefined;
}

/** Thrown by a fetch that stopped reading past the cap; boundedFetch turns it into the model's `oversized` error. */
export class ReplyOverLimit extends Error {
  constructor(
    readonly maxBytes: number,
    readonly seenBytes: number,
    readonly declared: boolean,
  ) {
    super(`reply over the ${maxBytes}-byte cap`);
  }
}

/** The error of a reply over the cap; `label` names the model. */
export function oversizedError(label: string, maxBytes: number, seenBytes: number, declared = false): ModelCallError {
  return new ModelCallError(
    `${label}: reply too large: ${declared ? 'the server announced' : 'more than'} ${seenBytes} bytes, over the ${maxBytes}-byte cap (--max-reply-bytes)`,
    'oversized',
  );
}

/** A fetch that stops reading a reply body past the cap in force (withReplyLimit) and fails with an `oversized` error. */
export function boundedFetch(label: string, base: typeof fetch = globalThis.fetch): typeof fetch {
  return async (input, init) => {
    const limit = replyLimitOf(init);
    let res: Response;
    try {
      res = await base(input, init);
    } catch (err) {
      if (err instanceof ReplyOverLimit) throw oversizedError(label, err.maxBytes, err.seenBytes, err.declared);
      throw err;
    }
    // A reply without a stream (lean-fetch) was read whole, within the cap, already.
    if (limit === undefined || !res.body) return res;
    const declared = Number(res.headers.get('content-length') ?? Number.NaN);
    if (declared > limit) {
      await res.body.cancel().catch(() => {});
      throw oversizedError(label, limit, declared, true);
    }
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > limit) {
        await reader.cancel().catch(() => {});
        throw oversizedError(label, limit, total);
      }
      chunks.push(value);
    }
    // The body is decoded already: its length and encoding headers no longer apply.
    const headers = new Headers(res.headers);
    headers.delete('content-encoding');
    headers.delete('content-length');
    return new Response(Buffer.concat(chunks), { status: res.status, statusText: res.statusText, headers });
  };
}

/** Whether a decoded reply is over the cap (for clients that fetch on their own): its size in bytes, or undefined. */
export function replyTooLarge(response: ChatResponse, maxBytes: number | undefined): number | undefined {
  if (maxBytes === undefined) return undefined;
  const chars = response.text.length + (response.reasoning?.text?.length ?? 0) + (response.logprobs?.length ?? 0) * 16;
  // UTF-8 takes at most 3 bytes per UTF-16 unit: count bytes only when the reply could be over.
  if (chars * 3 <= maxBytes) return undefined;
  const bytes =
    Buffer.byteLength(response.text) +
    Buffer.byteLength(response.reasoning?.text ?? '') +
    (response.logprobs ?? []).reduce((n, t) => n + Buffer.byteLength(t.token) + 16, 0);
  return bytes > maxBytes ? bytes : undefined;
}
