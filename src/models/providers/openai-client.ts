// The openai SDK's client with lighter per-call work, for mindscope's OpenAI provider
// (openai.ts): its headers built once per kind of call, and no AbortController, listener and
// timer per call. The same requests on the wire (tests/providers-openai.test.ts).

import { withTimeout } from '../lean-fetch.js';

type OpenAiModule = typeof import('openai');

let leanClient: OpenAiModule['OpenAI'] | undefined;

/** What the SDK's (private) header builder takes. */
interface HeaderBuild {
  options: { headers?: unknown; timeout?: number; __security?: unknown };
  method: string;
  bodyHeaders: Record<string, string> | undefined;
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
export function leanClientClass(mod: OpenAiModule): OpenAiModule['OpenAI'] {
  if (leanClient) return leanClient;
  const stock = (mod.OpenAI.prototype as unknown as Record<string, BuildHeaders>)[BUILD_HEADERS];
  if (typeof stock !== 'function') throw new Error('openai SDK: no buildHeaders method to wrap (a new SDK version?)');
  // Named as the SDK's own: its User-Agent header is its class name ("OpenAI/JS 6.49.0").
  leanClient = class OpenAI extends mod.OpenAI {
    #bearer: { key: string; header: { Authorization: string } } | undefined;
    /** Built headers by kind of call (at most 64 kinds: timeouts of every size start it afresh). */
    #built = new Map<string, Record<string, string>>();

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

    /** The headers of a call: the SDK's builder's, built once per kind of call (see above). */
    async [BUILD_HEADERS](args: HeaderBuild): Promise<unknown> {
      const { options, method, bodyHeaders, retryCount } = args;
      if (options.headers !== undefined || this.idempotencyHeader) return stock.call(this, args);
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
        plain = {};
        for (const [k, v] of headers) plain[k] = v;
        if (this.#built.size >= 64) this.#built.clear();
        this.#built.set(kind, plain);
      }
      return { ...plain };
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
  };
  return leanClient;
}
