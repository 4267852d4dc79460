// HTTP failures sorted into ModelCallError kinds, and small helpers the providers share.
// Providers never retry: the runner owns retries, backoff and concurrency.

import { redact } from '../core/index.js';
import { ModelCallError } from './call-error.js';

/** Where a call went, for error messages: the model's label, the base URL, and the secrets to scrub. */
export interface CallSite {
  /** Names the model in every error message, e.g. `openai:gpt-4o-mini`. */
  label: string;
  url: string;
  timeoutMs: number;
  /** Values to scrub from any error text (API keys). */
  secrets: string[];
}

/**
 * Credentials written into a URL (`https://user:secret@host/`): the part between the scheme and
 * the last `@` before the path (a password may hold `@`; URL parsers take the last one too).
 */
const URL_USERINFO = /^(https?:\/\/)([^/?#]*)@/i;

/**
 * A base URL as the SDK gets it (trailing slashes cut) and as errors, logs and the runner's
 * endpoint name show it: without the credentials a URL may carry, which are secrets to scrub.
 */
export function baseUrlParts(baseUrl: string): { sdkUrl: string; endpoint: string; secrets: string[] } {
  const sdkUrl = baseUrl.replace(/\/+$/, '');
  const m = URL_USERINFO.exec(sdkUrl);
  if (!m) return { sdkUrl, endpoint: sdkUrl, secrets: [] };
  const secrets = new Set<string>();
  // The user, and the password after the first ':' (a password may hold ':' too).
  const userinfo = m[2]!;
  const colon = userinfo.indexOf(':');
  for (const part of colon < 0 ? [userinfo] : [userinfo.slice(0, colon), userinfo.slice(colon + 1)]) {
    secrets.add(part);
    try {
      secrets.add(decodeURIComponent(part));
    } catch {
      // Not percent-encoded text: the raw form is scrubbed.
    }
  }
  return { sdkUrl, endpoint: sdkUrl.replace(URL_USERINFO, '$1'), secrets: [...secrets] };
}

/** A text (a model spec) with the credentials of every http(s) URL in it left out. */
export function withoutUrlCredentials(text: string): string {
  return text.replace(/(https?:\/\/)[^/?#\s]*@/gi, '$1');
}

/** Whether a URL carries credentials (user or password before the host). */
export function hasUrlCredentials(url: string): boolean {
  return URL_USERINFO.test(url);
}

const BODY_SNIPPET = 300;

/** The error for an HTTP status other than 2xx; `body` is what the server said (scrubbed and shortened here). */
export function statusError(site: CallSite, status: number, body: string, retryAfterMs: number | undefined): ModelCallError {
  const scrub = (s: string) => redact(s, site.secrets);
  // Scrubbed before it is cut (a key cut in two would be found only in pieces), over a window
  // that holds whole any secret that starts within the snippet.
  const window = BODY_SNIPPET + 2 * Math.max(0, ...site.secrets.map((x) => x.length));
  const snippet = scrub(body.slice(0, window)).slice(0, BODY_SNIPPET).replace(/\s+/g, ' ').trim();
  const where = `${site.label}: HTTP ${status} from ${scrub(site.url)}`;
  if (status === 429) return new ModelCallError(`${where}: rate limited ${snippet}`, 'rate_limit', status, retryAfterMs);
  if (status === 401 || status === 403) return new ModelCallError(`${where}: the API key was rejected ${snippet}`, 'auth', status);
  if (status === 404) return new ModelCallError(`${where}: model or endpoint not found ${snippet}`, 'not_found', status);
  if (status === 408) return new ModelCallError(`${where}: request timeout`, 'timeout', status);
  if (status >= 500) return new ModelCallError(`${where}: server error ${snippet}`, 'server', status, retryAfterMs);
  return new ModelCallError(`${where}: ${snippet}`, 'bad_request', status);
}

/** No complete answer within the call's time limit. */
export function timeoutError(site: CallSite): ModelCallError {
  return new ModelCallError(`${site.label}: no answer within ${site.timeoutMs / 1000}s (${redact(site.url, site.secrets)})`, 'timeout');
}

/** The server could not be reached; `cause` is the system's code (ECONNREFUSED, ECONNRESET) or message. */
export function networkError(site: CallSite, cause: string): ModelCallError {
  return new ModelCallError(`${site.label}: cannot reach ${redact(site.url, site.secrets)} (${redact(cause, site.secrets)})`, 'network');
}

/** Fail with a `malformed` error when a response lacks what the protocol promises. */
export function malformed(label: string, what: string): never {
  throw new ModelCallError(`${label}: malformed response: ${what}`, 'malformed');
}

/** Split a data URL into media type and base64 payload. */
export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return m?.[1] !== undefined && m[2] !== undefined ? { mediaType: m[1], data: m[2] } : undefined;
}
