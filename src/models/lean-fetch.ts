// A lean `fetch` for the SDK clients: a JSON request with a string body goes over keep-alive
// connections (https: undici's pools, the HTTP client Node's own fetch is built on, called
// directly; plain http, a local model server: the smaller HTTP/1.1 client of http1-client.ts),
// and the whole reply is read before the promise resolves. It skips what the built-in fetch
// does per call that a model call never needs (a Request and a Response with web streams, body
// cloning kept for redirects, a stream per body): bench/http-clients.mjs measured the built-in
// fetch at 0.46 ms of client CPU a call, node:http 0.125 ms, undici's pools 0.081 ms. Anything
// else (a form or a stream body, another scheme) goes to the built-in fetch unchanged.
//
// What differs from the built-in fetch: the SDK's time limit covers the whole reply, not only
// its headers; redirects are not followed (model APIs do not redirect a POST); the response
// is a small object with what the SDKs read (status, headers, json, text), body null; a
// connection the server closes fails as node:http's does (code ECONNRESET; undici's error is its
// cause), other errors are undici's or the system's (ECONNREFUSED, ...).

import type { IncomingHttpHeaders } from 'node:http';
import type { Agent, Dispatcher } from 'undici';
import { type CallOptions, Http1Agent } from './http1-client.js';
import type { CallControl, ReplyHandler } from './http1-reply.js';
import { ReplyOverLimit, replyLimitOf } from './reply-limit.js';

/** Connections a pool keeps open per origin: the most calls the runner has in flight to one endpoint. */
const MAX_CONNECTIONS = 256;

let agent: Promise<Agent> | undefined;
let plain: Promise<Http1Agent> | undefined;
/** The connection pools, made on first use (loading undici costs a few milliseconds). */
function pools(): Promise<Agent> {
  agent ??= import('undici').then(
    ({ Agent }) =>
      // No time limits of undici's own (10 s to connect, 300 s for headers and between body
      // chunks by default): the SDK's covers the whole call, and a reasoning model may think
      // longer than five minutes; a connection that does not open in time is the SDK's timeout.
      new Agent({ connections: MAX_CONNECTIONS, headersTimeout: 0, bodyTimeout: 0, connect: { timeout: 0 } }),
  );
  return agent;
}

/** Response headers as the SDKs read them (get, has, entries, iteration); names in lower case. */
class ReplyHeaders {
  constructor(readonly raw: IncomingHttpHeaders) {}
  get(name: string): string | null {
    const v = this.raw[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  }
  has(name: string): boolean {
    return this.raw[name.toLowerCase()] !== undefined;
  }
  entries(): IterableIterator<[string, string]> {
    return Object.keys(this.raw)
      .sort()
      .map((k): [string, string] => [k, this.get(k)!])
      [Symbol.iterator]();
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

/** Header pairs from what the SDK passes (a Headers, a record or pairs); a record as it is (undici only reads it). */
function headerRecord(h: RequestInit['headers']): Record<string, string> {
  if (!h) return {};
  if (!(h instanceof Headers) && !Array.isArray(h)) return h as Record<string, string>;
  const out: Record<string, string> = {};
  for (const [k, v] of h) out[k] = v;
  return out;
}

interface Target {
  origin: string;
  path: string;
  /** Basic credentials from the URL's user and password (http://user:pass@host/), as node:http sends them. */
  basic?: string;
}
const targets = new Map<string, Target>();
/** A URL's origin and path, remembered: an SDK client sends every call to the same few. */
function target(href: string): Target {
  let t = targets.get(href);
  if (!t) {
    if (targets.size > 1000) targets.clear();
    const u = new URL(href);
    t = { origin: u.origin, path: `${u.pathname}${u.search}` };
    if (u.username || u.password)
      t.basic = `Basic ${Buffer.from(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`).toString('base64')}`;
    targets.set(href, t);
  }
  return t;
}

/** The field of a fetch's init that carries a time limit (withTimeout; not a RequestInit field: fetch ignores it). */
const TIMEOUT_FIELD = 'mindscopeTimeoutMs';

/**
 * The init with a time limit for the whole call: the lean fetch stops the call after `ms` and
 * fails with an AbortError, as a fetch whose signal an SDK's timer fired does, without a signal
 * and its listeners per call (a body it hands to the built-in fetch: up to the reply's headers,
 * as the SDKs' timers). `init` is changed and returned.
 */
export function withTimeout(init: RequestInit, ms: number): RequestInit {
  (init as Record<string, unknown>)[TIMEOUT_FIELD] = ms;
  return init;
}

function timeoutOf(init: RequestInit | undefined): number | undefined {
  const v = (init as Record<string, unknown> | undefined)?.[TIMEOUT_FIELD];
  return typeof v === 'number' ? v : undefined;
}

const abortError = () => new DOMException('This operation was aborted', 'AbortError');

/** undici's errors as node:http's: the system code the error mapping names (a closed socket is a reset). */
function systemError(err: unknown): unknown {
  const e = err as { code?: string; message?: string; name?: string };
  if (e?.name === 'AbortError') return err;
  if (e?.code === 'UND_ERR_SOCKET' || e?.code === 'UND_ERR_CLOSED')
    return Object.assign(new Error(`socket hang up (${e.message})`, { cause: err }), { code: 'ECONNRESET' });
  return err;
}

/**
 * The built-in fetch with a time limit: an AbortError when it passes, as the lean path's (and
 * the SDKs' own timers', which also stop at the reply's headers); a caller's signal still stops it.
 */
async function fetchWithin(input: string | URL | Request, init: RequestInit, ms: number): Promise<Response> {
  const timer = new AbortController();
  const t = setTimeout(() => timer.abort(), ms);
  try {
    // The caller's signal, from the init or a Request, still stops it.
    const own = init.signal ?? (input instanceof Request ? input.signal : undefined);
    return await fetch(input, { ...init, signal: own ? AbortSignal.any([own, timer.signal]) : timer.signal });
  } finally {
    clearTimeout(t);
  }
}

/** `fetch` for SDK clients: lean for JSON string bodies over http(s), the built-in fetch otherwise. */
export function leanFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const href = typeof input === 'string' ? input : input instanceof URL ? input.href : undefined;
  const body = init?.body;
  // Only calls with a JSON string body: a GET (batch results, files) may be read as a stream.
  if (href === undefined || !(href.startsWith('http:') || href.startsWith('https:')) || typeof body !== 'string') {
    const ms = timeoutOf(init);
    return ms === undefined ? fetch(input, init) : fetchWithin(input, init!, ms);
  }
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortError());
  // Plain http (a local server) through the small HTTP/1.1 client, https through undici's pools.
  const dispatcher: Promise<Dispatch> = href.startsWith('http:') ? (plain ??= Promise.resolve(new Http1Agent(MAX_CONNECTIONS))) : pools();
  return dispatcher.then((d) => send(d, href, body, init, signal));
}

/** What send() calls of a dispatcher: undici's dispatch, in the form both clients take. */
interface Dispatch {
  dispatch(options: CallOptions, handler: ReplyHandler): unknown;
}

function send(
  dispatcher: Dispatch,
  href: string,
  body: string,
  init: RequestInit | undefined,
  signal: AbortSignal | undefined,
): Promise<Response> {
  const limit = replyLimitOf(init);
  const { origin, path, basic } = target(href);
  const method = (init?.method ?? 'GET') as Dispatcher.HttpMethod;
  const timeoutMs = timeoutOf(init);
  let headers = headerRecord(init?.headers);
  if (basic && !Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')) headers = { ...headers, authorization: basic };
  return new Promise<Response>((resolve, reject) => {
    let settled = false;
    let call: CallControl | undefined;
    const chunks: Buffer[] = [];
    let total = 0;
    let status = 0;
    let replyHeaders: IncomingHttpHeaders = {};
    const timer = timeoutMs === undefined ? undefined : setTimeout(() => fail(abortError()), timeoutMs);
    const settle = () => {
      settled = true;
      if (timer) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const fail = (err: unknown) => {
      if (settled) return;
      settle();
      call?.abort(err as Error);
      // The SDK's time limit fires its signal: the call stops, and it fails as the built-in fetch's would.
      reject(signal?.aborted ? abortError() : systemError(err));
    };
    const onAbort = () => fail(abortError());
    signal?.addEventListener('abort', onAbort, { once: true });
    // Aborted while the pools were loading (or by the caller right after the call): no event comes.
    if (signal?.aborted) {
      fail(abortError());
      return;
    }
    // undici's dispatch with a handler of our own: the reply's chunks are collected as they come,
    // without the stream undici's request() makes for each reply.
    dispatcher.dispatch(
      { origin, path, method, headers, body },
      {
        onRequestStart(controller) {
          call = controller;
          if (settled) controller.abort(abortError());
        },
        onResponseStart(_controller, statusCode, h) {
          status = statusCode;
          replyHeaders = h;
          // The reply cap (--max-reply-bytes): stop reading past it, as boundedFetch does for streams.
          const declared = Number(h['content-length'] ?? Number.NaN);
          if (limit !== undefined && declared > limit) fail(new ReplyOverLimit(limit, declared, true));
        },
        onResponseData(_controller, chunk) {
          if (settled) return;
          total += chunk.length;
          if (limit !== undefined && total > limit) return fail(new ReplyOverLimit(limit, total, false));
          chunks.push(chunk);
        },
        onResponseEnd() {
          if (settled) return;
          settle();
          const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          resolve(new Reply(status, '', new ReplyHeaders(replyHeaders), href, bytes) as unknown as Response);
        },
        onResponseError(_controller, err) {
          fail(err);
        },
      },
    );
  });
}
