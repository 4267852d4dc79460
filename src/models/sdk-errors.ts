// The official SDKs' errors as ModelCallError kinds, so that the runner's retry, back-off and
// abort logic works the same whatever client made the call. The SDKs' own retries are off
// (maxRetries 0): every failure reaches us once.

import { redact } from '../core/index.js';
import { ModelCallError, parseRetryAfter } from './call-error.js';
import { type CallSite, networkError, statusError, timeoutError } from './http.js';

type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes that the Stainless-generated SDKs (openai, @anthropic-ai/sdk) share. */
export interface StainlessErrorClasses {
  APIError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
  APIUserAbortError: ErrorClass;
}

/** The system's reason a connection failed: ECONNREFUSED, ECONNRESET, ... or a message. */
function causeOf(err: unknown): string {
  let e = err as { cause?: unknown; code?: string; message?: string } | undefined;
  for (let depth = 0; e && depth < 4; depth++) {
    if (typeof e.code === 'string') return e.code;
    if (!e.cause) return e.message ?? String(e);
    e = e.cause as typeof e;
  }
  return String(err);
}

function errorBodyText(body: unknown, message: string): string {
  if (body === undefined || body === null) return message;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** A failure the SDK could not classify (a body that is not JSON, a missing field): malformed or a plain bug. */
function otherError(err: unknown, site: CallSite): ModelCallError {
  const message = redact((err as Error)?.message ?? String(err), site.secrets);
  if (err instanceof SyntaxError) return new ModelCallError(`${site.label}: malformed response body (not JSON): ${message}`, 'malformed');
  const name = (err as Error)?.name;
  if (name === 'AbortError' || name === 'TimeoutError') return timeoutError(site);
  if (err instanceof TypeError && /fetch failed|terminated/i.test(message)) return networkError(site, causeOf(err));
  return new ModelCallError(`${site.label}: ${message}`, 'bad_request');
}

/** An error thrown by the openai or @anthropic-ai/sdk client, as a ModelCallError. */
export function fromStainlessError(err: unknown, classes: StainlessErrorClasses, site: CallSite): ModelCallError {
  if (err instanceof ModelCallError) return err;
  // Our own fetch's errors (a reply over the size cap) come back wrapped as connection errors.
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof ModelCallError) return cause;
  if (err instanceof classes.APIConnectionTimeoutError || err instanceof classes.APIUserAbortError) return timeoutError(site);
  if (err instanceof classes.APIConnectionError) return networkError(site, causeOf((err as Error).cause ?? err));
  if (err instanceof classes.APIError) {
    const e = err as Error & { status?: number; headers?: Headers; error?: unknown };
    if (typeof e.status === 'number') {
      const ms = e.headers?.get('retry-after-ms');
      const retryAfter = ms && Number.isFinite(Number(ms)) ? Number(ms) : parseRetryAfter(e.headers?.get('retry-after') ?? null);
      return statusError(site, e.status, errorBodyText(e.error, e.message), retryAfter);
    }
  }
  return otherError(err, site);
}

/** Gemini's RetryInfo (`"retryDelay": "30s"`) in an error body: Google says how long to wait there, not in a header. */
function googleRetryDelayMs(body: string): number | undefined {
  const m = /"retryDelay"\s*:\s*"(\d+(?:\.\d+)?)s"/.exec(body);
  return m?.[1] ? Number(m[1]) * 1000 : undefined;
}

/** An error thrown by the @google/genai client (ApiError carries the status and the body as its message), as a ModelCallError. */
export function fromGoogleError(err: unknown, apiError: ErrorClass, site: CallSite): ModelCallError {
  if (err instanceof ModelCallError) return err;
  if (err instanceof apiError) {
    const e = err as Error & { status?: number };
    if (typeof e.status === 'number') return statusError(site, e.status, e.message, googleRetryDelayMs(e.message));
  }
  return otherError(err, site);
}
