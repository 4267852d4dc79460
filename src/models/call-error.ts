// How a model call failed, in the terms the runner acts on: retry, back off, or give up.

import { MindscopeError } from '../core/index.js';

export type CallErrorKind =
  | 'rate_limit' // 429: back off, honour Retry-After, cut concurrency
  | 'server' // 5xx
  | 'timeout' // no complete answer within the per-call limit
  | 'network' // connection refused or reset
  | 'malformed' // 2xx with a body that is not the protocol's shape
  | 'auth' // 401/403: the key was rejected; fatal for the subject
  | 'not_found' // 404: unknown model or endpoint; fatal for the subject
  | 'bad_request' // other 4xx: this call will never succeed
  | 'unsupported' // the model cannot do what was asked (e.g. log-likelihoods over HTTP)
  | 'oversized' // a reply larger than the reply-size cap: this call fails, it is not retried
  | 'unresponsive' // the endpoint let several calls in a row time out (circuit breaker): fatal for the subject
  | 'rate_limit_exhausted'; // rate limited for longer than the wait budget (--max-wait): fatal for the subject

const RETRYABLE: ReadonlySet<CallErrorKind> = new Set(['rate_limit', 'server', 'timeout', 'network', 'malformed']);
const FATAL: ReadonlySet<CallErrorKind> = new Set(['auth', 'not_found', 'unsupported', 'unresponsive', 'rate_limit_exhausted']);

/** A failed model call, with its kind (rate limit, server, timeout, network, malformed, auth, ...) that decides whether the runner retries or stops the subject. */
export class ModelCallError extends MindscopeError {
  override name = 'ModelCallError';
  constructor(
    message: string,
    readonly kind: CallErrorKind,
    readonly status?: number,
    /** Delay the server asked for (Retry-After), in milliseconds. */
    readonly retryAfterMs?: number,
    /** Attempts made before the call was given up (set by the runner's retry loop). */
    readonly attempts?: number,
  ) {
    super(message);
  }
  get retryable(): boolean {
    return RETRYABLE.has(this.kind);
  }
  /** Errors that will fail every call of this subject: stop the subject rather than fail each trial. */
  get fatal(): boolean {
    return FATAL.has(this.kind);
  }
}

/** A video part sent to an API that takes none: this call fails (bad request), the subject's other calls go on. */
export function videoUnsupported(api: string): ModelCallError {
  return new ModelCallError(
    `the ${api} takes no video parts: send the frames as images (suite triangles-frames) or use a google: model for native video`,
    'bad_request',
  );
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
