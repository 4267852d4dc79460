// The openai SDK's client with lighter per-call work, for mindscope's OpenAI provider
// (openai.ts): its headers built once per kind of call, no AbortController, listener and timer
// per call, and a direct path for JSON POSTs (postJson) that skips the SDK's request pipeline.
// The same requests on the wire (tests/providers-openai.test.ts).

import type { OpenAI as StockClient } from 'openai';
import { withTimeout } from '../lean-fetch.js';

type OpenAiModule = typeof import('openai');

/** The lean client: the SDK's, with a direct JSON POST. */
export interface LeanOpenAi extends StockClient {
  /**
   * POST `body` as JSON to `path` (e.g. `/chat/completions`) and resolve to the parsed reply, as
   * the SDK's resource method does with retries off; its errors are the SDK's own classes.
   */
  postJson(path: string, body: unknown, timeout: number, fetchOptions: object | undefined): Promise<unknown>;
}
type LeanClass = new (...args: ConstructorParameters<OpenAiModule['OpenAI']>) => LeanOpenAi;

let leanClient: LeanClass | undefined;

/** What the SDK's JSON encoder adds to a request's headers. */
const JSON_BODY_HEADERS = { 'content-type': 'application/json' };
/** The security options the SDK's resource methods pass: a bearer key when there is one. */
const BEARER = { bearerAuth: true };

/** A JSON parse that yields undefined on bad input (the SDK's safeJSON). */
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What the SDK's (private) header builder takes. */
interface HeaderBuild {
  options: { headers?: unknown; timeout?: number; __security?: unknown };
  method: string;
  bodyHeaders: Record<string, string> | undefined;
  authenticationHeaders?: unknown;
  retryCount: number;
}
type BuildHeaders = (this: unknown, args: HeaderBuild) => Promise<unknown>;

/** The SDK's header builder: private to its types, a method all the same, overridden under this name. */
const BUILD_HEADERS: string = 'buildHeaders';

/**
 * The SDK's client with lighter header handling: the same headers on the wire
 * (tests/providers-openai.test.ts compares them with the stock client's, call after call).
 * The SDK merges its header sources into a Headers object on every call (auth built as two
 * nested header objects, each name validated and lower-cased), then reads it back for the fetch
 * and for the debug-log formatting it does even with logging off: about 7% of the runner's
 * thread. Here the SDK's own builder still makes the headers, once per kind of call, and each
 * call gets a plain copy. A kind is what the builder reads that may differ between calls of one
 * client: method, retry count, timeout, body headers, auth schemes, key, organisation and
 * project (its default headers and User-Agent are fixed with the client). Calls with headers of
 * their own, and clients that send idempotency keys (OpenAI's does not), go through the builder
 * every time. Made once, from the module loaded on first use.
 */
export function leanClientClass(mod: OpenAiModule): LeanClass {
  if (leanClient) return leanClient;
  const stock = (mod.OpenAI.prototype as unknown as Record<string, BuildHeaders>)[BUILD_HEADERS];
  if (typeof stock !== 'function') throw new Error('openai SDK: no buildHeaders method to wrap (a new SDK version?)');
  // Named as the SDK's own: its User-Agent header is its class name ("OpenAI/JS 6.49.0").
  leanClient = class OpenAI extends mod.OpenAI {
    #bearer: { key: string; header: { Authorization: string } } | undefined;
    /** Built headers by kind of call (at most 64 kinds: timeouts of every size start it afresh). */
    #built = new Map<string, Readonly<Record<string, string>>>();
    /** Full URLs by API path. */
    #urls = new Map<string, string>();
    /**
     * postJson's last headers and what they were built for (the time limit and the client's
     * key, organisation and project: the rest of its kind is fixed): a run's calls share them,
     * found without the kind's text.
     */
    #lastPost:
      | { timeout: number; apiKey: unknown; organization: unknown; project: unknown; headers: Readonly<Record<string, string>> }
      | undefined;

    // As the SDK's: a bearer header when asked for one (this client has no admin key, and
    // workload identity, which the SDK excludes beside a key, is never set up); a keyless
    // server's client removes it again through its default headers.
    protected override async authHeaders(
      _opts: Parameters<InstanceType<OpenAiModule['OpenAI']>['authHeaders']>[0],
      schemes: { bearerAuth?: boolean } = { bearerAuth: true },
    ): ReturnType<InstanceType<OpenAiModule['OpenAI']>['authHeaders']> {
      if (!schemes.bearerAuth || this.apiKey == null) return undefined;
      if (this.#bearer?.key !== this.apiKey) this.#bearer = { key: this.apiKey, header: { Authorization: `Bearer ${this.apiKey}` } };
      return this.#bearer.header as never;
    }

    /** The headers of a call: the SDK's builder's, built once per kind of call (see above); a copy of its own. */
    async [BUILD_HEADERS](args: HeaderBuild): Promise<unknown> {
      const headers = await this.#headers(args);
      return headers instanceof Headers ? headers : { ...headers };
    }

    /**
     * The headers of a kind of call, built once and frozen (shared by its calls: a client that
     * writes them out, http1-client.ts, writes a frozen set once); the builder's own Headers when
     * the call has headers of its own.
     */
    async #headers(args: HeaderBuild): Promise<Readonly<Record<string, string>> | Headers> {
      const { options, method, bodyHeaders, retryCount } = args;
      if (options.headers !== undefined || this.idempotencyHeader) return (await stock.call(this, args)) as Headers;
      const kind = JSON.stringify([
        method,
        retryCount,
        options.timeout,
        bodyHeaders ?? null,
        options.__security ?? null,
        this.apiKey,
        this.organization,
        this.project,
      ]);
      let plain = this.#built.get(kind);
      if (!plain) {
        const headers = (await stock.call(this, args)) as Headers;
        const built: Record<string, string> = {};
        for (const [k, v] of headers) built[k] = v;
        plain = Object.freeze(built);
        if (this.#built.size >= 64) this.#built.clear();
        this.#built.set(kind, plain);
      }
      return plain;
    }

    // The SDK's own makes a signal per call (its AbortController's), listens on the caller's and
    // sets a timer; a call with a JSON body and no signal of its own goes to the lean fetch with
    // the time limit instead (withTimeout), which fails the same way (an AbortError) when it passes.
    protected override async fetchWithAuth(
      url: string,
      init: RequestInit,
      timeout: number,
      controller: AbortController,
      schemes?: Parameters<InstanceType<OpenAiModule['OpenAI']>['fetchWithAuth']>[4],
    ): Promise<Response> {
      const fetch = this._options.fetch;
      if (!fetch || init.signal || typeof init.body !== 'string') return super.fetchWithAuth(url, init, timeout, controller, schemes);
      if (init.method) init.method = init.method.toUpperCase();
      return fetch(url, withTimeout(init, timeout));
    }

    // The SDK's create() runs a pipeline per call (options resolved through promises, the body
    // watched while it is encoded, a request log id, log lines formatted with logging off, an
    // APIPromise, the reply parsed through hooks): about a tenth of the runner's thread. This is
    // what that pipeline does for a JSON POST on this client (no retries, no hooks, no
    // workload identity, no idempotency keys): the same URL, headers (the SDK's own builder's,
    // as above) and body, and the same errors. Anything else goes through the SDK.
    async postJson(path: string, body: unknown, timeout: number, fetchOptions: object | undefined): Promise<unknown> {
      const fetch = this._options.fetch;
      const hooked = (this as unknown as { _provider?: unknown })._provider !== undefined;
      if (!fetch || hooked || this.idempotencyHeader || this.fetchOptions || this.maxRetries !== 0)
        return this.post(path, { body, timeout, ...(fetchOptions && { fetchOptions }) } as never);
      let url = this.#urls.get(path);
      if (url === undefined) this.#urls.set(path, (url = this.buildURL(path, undefined)));
      const last = this.#lastPost;
      let headers: Readonly<Record<string, string>> | Headers;
      if (
        last !== undefined &&
        last.timeout === timeout &&
        last.apiKey === this.apiKey &&
        last.organization === this.organization &&
        last.project === this.project
      )
        headers = last.headers;
      else {
        const options = { method: 'post', path, body, timeout, __security: BEARER };
        // As buildRequest: the auth headers made first, for the builder to merge (a cached object here).
        const authenticationHeaders = await this.authHeaders(options as never, BEARER);
        headers = await this.#headers({
          options,
          method: 'post',
          bodyHeaders: JSON_BODY_HEADERS,
          authenticationHeaders,
          retryCount: 0,
        });
        if (!(headers instanceof Headers))
          this.#lastPost = { timeout, apiKey: this.apiKey, organization: this.organization, project: this.project, headers };
      }
      const init = { method: 'POST', headers, body: JSON.stringify(body), ...fetchOptions } as RequestInit;
      let response: Response;
      try {
        response = await fetch(url, withTimeout(init, timeout));
      } catch (err) {
        // As the SDK's makeRequest: an abort or a message about a timeout is a timeout, anything else a connection error.
        const e = err instanceof Error ? err : new Error(String(err));
        const cause = (e as { cause?: unknown }).cause;
        if (e.name === 'AbortError' || /timed? ?out/i.test(String(e) + (cause === undefined ? '' : String(cause))))
          throw Object.assign(new mod.APIConnectionTimeoutError(), { cause: e });
        throw new mod.APIConnectionError({ message: undefined, cause: e });
      }
      if (!response.ok) {
        const text = await response.text().catch((err: unknown) => (err instanceof Error ? err.message : String(err)));
        const json = safeJson(text);
        throw this.makeStatusError(response.status, json as never, json ? undefined : text, response.headers);
      }
      // As the SDK's defaultParseResponse: JSON by its content type, otherwise the text.
      if (response.status === 204) return null;
      const mediaType = response.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
      if (!(mediaType?.includes('application/json') || mediaType?.endsWith('+json'))) return response.text();
      if (response.headers.get('content-length') === '0') return undefined;
      const text = await response.text();
      return text ? JSON.parse(text) : undefined;
    }
  };
  return leanClient;
}
