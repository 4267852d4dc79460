// One JSON POST with a time limit, its failures sorted into ModelCallError kinds.
// Providers never retry: the runner owns retries, backoff and concurrency.

import { redact } from '../core/index.js';
import { ModelCallError, parseRetryAfter } from './call-error.js';

export interface PostJsonOptions {
  /** Names the model in every error message, e.g. `openai:gpt-4o-mini`. */
  label: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  timeoutMs: number;
  /** Values to scrub from any error text (API keys). */
  secrets: string[];
}

const BODY_SNIPPET = 300;

export async function postJson(opts: PostJsonOptions): Promise<unknown> {
  const { label, url, timeoutMs } = opts;
  const scrub = (s: string) => redact(s, opts.secrets);
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...opts.headers },
      body: JSON.stringify(opts.body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    text = await response.text();
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      throw new ModelCallError(`${label}: no answer within ${timeoutMs / 1000}s (${scrub(url)})`, 'timeout');
    }
    const code = e.cause?.code ?? e.cause?.message ?? e.message;
    throw new ModelCallError(`${label}: cannot reach ${scrub(url)} (${scrub(String(code))})`, 'network');
  }
  if (!response.ok) {
    const status = response.status;
    const snippet = scrub(text.slice(0, BODY_SNIPPET).replace(/\s+/g, ' ').trim());
    const where = `${label}: HTTP ${status} from ${scrub(url)}`;
    if (status === 429) {
      throw new ModelCallError(
        `${where}: rate limited ${snippet}`,
        'rate_limit',
        status,
        parseRetryAfter(response.headers.get('retry-after')),
      );
    }
    if (status === 401 || status === 403) {
      throw new ModelCallError(`${where}: the API key was rejected ${snippet}`, 'auth', status);
    }
    if (status === 404) throw new ModelCallError(`${where}: model or endpoint not found ${snippet}`, 'not_found', status);
    if (status === 408) throw new ModelCallError(`${where}: request timeout`, 'timeout', status);
    if (status >= 500) {
      throw new ModelCallError(`${where}: server error ${snippet}`, 'server', status, parseRetryAfter(response.headers.get('retry-after')));
    }
    throw new ModelCallError(`${where}: ${snippet}`, 'bad_request', status);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ModelCallError(`${label}: malformed response body (not JSON): ${scrub(text.slice(0, 80))}`, 'malformed', response.status);
  }
}

/** Fail with a `malformed` error when a response lacks what the protocol promises. */
export function malformed(label: string, what: string): never {
  throw new ModelCallError(`${label}: malformed response: ${what}`, 'malformed');
}

/** Split a data URL into media type and base64 payload. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return m ? { mediaType: m[1]!, data: m[2]! } : undefined;
}
