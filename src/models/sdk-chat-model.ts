// What the providers that call a hosted API through its official SDK (OpenAI, Anthropic, Google)
// share: the base URL split into the SDK's URL and an endpoint without credentials, the key and
// those credentials registered as secrets, the SDK loaded and its client made on the first call
// (commands that make no call do not pay for it), and a call timed with its errors translated.
// The key stays in private fields: nothing a model object shows or serialises holds it.

import type { ChatResponse } from '../core/index.js';
import { registerSecret } from '../core/index.js';
import type { ModelCallError } from './call-error.js';
import type { ModelCapabilities } from './capabilities.js';
import type { ChatModel, ChatRequest, WireFormat } from './chat-model.js';
import { baseUrlParts, type CallSite } from './http.js';

/** A provider's SDK client, with the module it came from (whose error classes its failures are told by). */
export interface SdkConnection<Client, Module> {
  client: Client;
  mod: Module;
}

/** Where the SDK's client sends its requests, and with which key. */
export interface SdkTarget {
  url: string;
  apiKey: string | undefined;
}

export interface SdkChatModelOptions {
  provider: string;
  model: string;
  baseUrl: string;
  apiKey?: string;
  /** The model's spec, from the endpoint (the base URL without credentials). */
  spec: (endpoint: string) => string;
  capabilities: ModelCapabilities;
  /** The API the wire bodies belong to, e.g. `/v1/messages`. */
  api: string;
  /** The request body of a call. */
  encode: (model: string, capabilities: ModelCapabilities, request: ChatRequest) => unknown;
  /** A response body as a ChatResponse; `label` (the spec) names the model in errors. */
  decode: (label: string, body: unknown, latencyMs: number) => ChatResponse;
}

/** A hosted model called through its provider's SDK (retries off: the runner owns them). */
export abstract class SdkChatModel<Client, Module> implements ChatModel {
  readonly spec: string;
  readonly provider: string;
  readonly model: string;
  readonly endpoint: string;
  readonly local = false;
  readonly capabilities: ModelCapabilities;
  readonly wire: WireFormat;
  readonly #apiKey?: string;
  /** The base URL with any credentials it carries, for the SDK only. */
  readonly #sdkUrl: string;
  /** What every error is scrubbed of: the key and any credentials in the base URL. */
  readonly #secrets: string[];
  #client?: Promise<SdkConnection<Client, Module>>;

  protected constructor(opts: SdkChatModelOptions) {
    this.provider = opts.provider;
    this.model = opts.model;
    const url = baseUrlParts(opts.baseUrl);
    this.#sdkUrl = url.sdkUrl;
    this.endpoint = url.endpoint;
    this.spec = opts.spec(this.endpoint);
    this.#apiKey = opts.apiKey;
    this.#secrets = [...(opts.apiKey ? [opts.apiKey] : []), ...url.secrets];
    for (const secret of this.#secrets) registerSecret(secret);
    this.capabilities = opts.capabilities;
    this.wire = {
      api: opts.api,
      encode: (req) => opts.encode(this.model, this.capabilities, req),
      decode: (body, latencyMs) => opts.decode(this.spec, body, latencyMs),
    };
  }

  /** Load the SDK and make its client. */
  protected abstract connect(target: SdkTarget): Promise<SdkConnection<Client, Module>>;

  /** Send one request body; resolves to the response body. */
  protected abstract send(client: Client, body: unknown, timeoutMs: number, maxReplyBytes: number | undefined): Promise<unknown>;

  /** The SDK's error as the runner's. */
  protected abstract callError(err: unknown, mod: Module, site: CallSite): ModelCallError;

  /** The client, made on first use and shared by every call (and the batch API) after. */
  protected connection(): Promise<SdkConnection<Client, Module>> {
    return (this.#client ??= this.connect({ url: this.#sdkUrl, apiKey: this.#apiKey }));
  }

  /** Where a call with this time limit goes, for its errors. */
  protected site(timeoutMs: number): CallSite {
    return { label: this.spec, url: this.endpoint, timeoutMs, secrets: this.#secrets };
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    const body = this.wire.encode(req);
    const timeout = Math.max(1, Math.round(req.timeoutMs));
    const { client, mod } = await this.connection();
    const started = performance.now();
    let json: unknown;
    try {
      json = await this.send(client, body, timeout, req.maxReplyBytes);
    } catch (err) {
      throw this.callError(err, mod, this.site(req.timeoutMs));
    }
    return this.wire.decode(json, performance.now() - started);
  }
}
