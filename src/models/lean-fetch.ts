// A lean `fetch` for the SDK clients: a JSON request with a string body goes over node:http(s)
// through a keep-alive pool, and the whole reply is read before the promise resolves. It skips
// what the built-in fetch does per call that a model call never needs (a Request and a
// Response with web streams, body cloning kept for redirects, a stream per body). Anything
// else (a form or a stream body, another scheme) goes to the built-in fetch unchanged.
//
// What differs from the built-in fetch: the SDK's time limit covers the whole reply, not only
// its headers; redirects are not followed (model APIs do not redirect a POST); the response
// is a small object with what the SDKs read (status, headers, json, text), body null.

import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ReplyOverLimit, replyLimitOf } from './reply-limit.js';

/** Sockets a pool keeps open per host: the most calls the runner has in flight to one endpoint. */
const MAX_SOCKETS = 256;
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS, maxFreeSockets: MAX_SOCKETS, scheduling: 'lifo' });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS, maxFreeSockets: MAX_SOCKETS, scheduling: 'lifo' });

/** Response headers as the SDKs read them (get, has, entries, iteration); names in lower case. */
class ReplyHeaders {
  constructor(readonly raw: IncomingMessage['headers']) {}
  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }
  *entries(): IterableIterator<[string, string]> {
    for (const k of Object.keys(this.raw).sort()) yield [k, this.get(k)!];
  }
  keys(): IterableIterator<string> {
    return Object.keys(this.raw).sort()[Symbol.iterator]();
  }
  *values(): IterableIterator<string> {
    for (const [, v] of this.entries()) yield v;
  }
  forEach(fn: (value: string, key: string, parent: ReplyHeaders) => void): void {
    for (const [k, v] of this.entries()) fn(v, k, this);
  }
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

/** A complete reply: what the SDKs read from a Response. */
class Reply {
  readonly ok: boolean;
  readonly redirected = false;
  readonly type = 'basic';
  readonly body = null;
  bodyUsed = false;
  constructor(
    readonly status: number,
    readonly statusText: string,
    readonly headers: ReplyHeaders,
    readonly url: string,
    readonly bytes: Buffer,
  ) {
    this.ok = status >= 200 && status < 300;
  }
  async text(): Promise<string> {
    if (this.bodyUsed) throw new TypeError('Body is unusable: Body has already been read');
    this.bodyUsed = true;
    return this.bytes.toString('utf8');
  }
  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
  async arrayBuffer(): Promise<ArrayBuffer> {
    this.bodyUsed = true;
    return new Uint8Array(this.bytes).buffer;
  }
}

/** Header pairs from what the SDK passes (a Headers, a record or pairs). */
function headerRecord(h: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h) return out;
  if (h instanceof Headers || Array.isArray(h)) for (const [k, v] of h) out[k] = v;
  else for (const [k, v] of Object.entries(h)) out[k] = v;
  return out;
}

const urls = new Map<string, URL>();
/** A parsed URL, remembered: an SDK client sends every call to the same few. */
function urlOf(href: string): URL {
  let u = urls.get(href);
  if (!u) {
    if (urls.size > 1000) urls.clear();
    u = new URL(href);
    urls.set(href, u);
  }
  return u;
}

const abortError = () => new DOMException('This operation was aborted', 'AbortError');

/** `fetch` for SDK clients: lean for JSON string bodies over http(s), the built-in fetch otherwise. */
export function leanFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  const body = init?.body;
  const https = href?.startsWith('https:');
  // Only calls with a JSON string body: a GET (batch results, files) may be read as a stream.
  if (href === undefined || (!https && !href.startsWith('http:')) || typeof body !== 'string') return fetch(input, init);
  const limit = replyLimitOf(init);
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError());
  return new Promise<Response>((resolve, reject) => {
    const url = urlOf(href);
    const headers = headerRecord(init?.headers);
    if (typeof body === 'string') headers['content-length'] = String(Buffer.byteLength(body));
    const req = (https ? httpsRequest : httpRequest)(
      url,
      { method: init?.method ?? 'GET', headers, agent: https ? httpsAgent : httpAgent },
      (res) => {
        const chunks: Buffer[] = [];
        // The reply cap (--max-reply-bytes): stop reading past it, as boundedFetch does for streams.
        const declared = Number(res.headers['content-length'] ?? Number.NaN);
        if (limit !== undefined && declared > limit) return fail(new ReplyOverLimit(limit, declared, true));
        let total = 0;
        res.on('data', (c: Buffer) => {
          total += c.length;
          if (limit !== undefined && total > limit) return fail(new ReplyOverLimit(limit, total, false));
          chunks.push(c);
        });
        res.on('error', fail);
        res.on('aborted', () => fail(Object.assign(new TypeError('terminated'), { cause: { code: 'ECONNRESET' } })));
        res.on('end', () => {
          if (!res.complete) return fail(Object.assign(new TypeError('terminated'), { cause: { code: 'ECONNRESET' } }));
          if (settled) return;
          settled = true;
          signal?.removeEventListener('abort', onAbort);
          const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          resolve(
            new Reply(res.statusCode ?? 0, res.statusMessage ?? '', new ReplyHeaders(res.headers), href, bytes) as unknown as Response,
          );
        });
      },
    );
    let settled = false;
    function fail(err: Error) {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      req.destroy();
      reject(err);
    }
    function onAbort() {
      fail(abortError());
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', fail);
    req.end(body);
  });
}
