// Image generation through the official openai SDK (`images.generate`): OpenAI itself
// (`openai:MODEL`, OPENAI_API_KEY, OPENAI_BASE_URL) and any server that copies its images API
// (`openai-compatible:BASE_URL#MODEL`, its key in the environment variable the caller names).
// The reply's image is its base64 bytes (`b64_json`), or a URL that is fetched; either must be
// a PNG, JPEG, GIF or WebP by its first bytes. The key is registered as a secret and scrubbed
// from every error; the spec, which is shown, never holds it.

import type OpenAI from 'openai';
import { ConfigError, imageMediaType, type ImageMediaType, registerSecret } from '../core/index.js';
import { ModelCallError } from './call-error.js';
import { baseUrlParts, hasUrlCredentials, malformed } from './http.js';
import { requireKey } from './provider-registry.js';
import { fromStainlessError } from './sdk-errors.js';

export interface GeneratedImage {
  bytes: Uint8Array;
  mediaType: ImageMediaType;
  /** The prompt as the service rewrote it, when it says. */
  revisedPrompt?: string;
}

export interface ImageModel {
  /** The model as shown: `openai:MODEL` or `openai-compatible:URL#MODEL` (no credentials). */
  readonly spec: string;
  /** One image for the prompt; `size` as the API takes it (e.g. 1024x1024). */
  generate(prompt: string, opts?: { size?: string }): Promise<GeneratedImage>;
}

/** The largest image fetched from a URL reply (bytes). */
const MAX_IMAGE_BYTES = 64 * 1024 * 1024;

/** The forms of image model spec this module takes. */
const FORMS = 'openai:MODEL or openai-compatible:BASE_URL#MODEL';

/**
 * An image model from its spec (see the file comment). `apiKeyEnv` names the environment variable
 * holding an openai-compatible server's key (none: no key is sent).
 */
export function createImageModel(spec: string, opts: { apiKeyEnv?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): ImageModel {
  const env = opts.env ?? process.env;
  const colon = spec.indexOf(':');
  const prefix = colon > 0 ? spec.slice(0, colon) : '';
  const rest = spec.slice(colon + 1);
  let baseUrl: string;
  let model: string;
  let apiKey: string | undefined;
  if (prefix === 'openai' && rest) {
    model = rest;
    baseUrl = env.OPENAI_BASE_URL || 'https://api.openai.com/v1';
    apiKey = requireKey(env, spec, 'OPENAI_API_KEY');
  } else if (prefix === 'openai-compatible') {
    const hash = rest.lastIndexOf('#');
    if (hash <= 0 || hash === rest.length - 1) throw new ConfigError(`${spec}: expected openai-compatible:BASE_URL#MODEL`);
    baseUrl = rest.slice(0, hash);
    model = rest.slice(hash + 1);
    if (!/^https?:\/\//.test(baseUrl)) throw new ConfigError(`${spec}: BASE_URL must start with http:// or https://`);
    if (hasUrlCredentials(baseUrl) || baseUrl.includes('?'))
      throw new ConfigError(
        `${prefix}:...#${model}: the BASE_URL carries credentials or a query string; a spec is shown, so give the key in the environment instead (--api-key-env NAME)`,
      );
    apiKey = opts.apiKeyEnv ? requireKey(env, spec, opts.apiKeyEnv) : undefined;
  } else {
    throw new ConfigError(`image generation takes ${FORMS}, not "${spec}"`);
  }
  registerSecret(apiKey);
  const url = baseUrlParts(baseUrl);
  const shown = prefix === 'openai' ? `openai:${model}` : `openai-compatible:${url.endpoint}#${model}`;
  const timeoutMs = opts.timeoutMs ?? 300_000;
  const site = { label: shown, url: url.endpoint, timeoutMs, secrets: apiKey ? [apiKey] : [] };
  let client: Promise<{ client: OpenAI; mod: typeof import('openai') }> | undefined;
  const connect = async () => {
    const mod = await import('openai');
    return {
      mod,
      client: new mod.OpenAI({
        baseURL: url.sdkUrl,
        // A server without keys gets no Authorization header at all.
        apiKey: apiKey ?? 'no-key',
        defaultHeaders: apiKey ? undefined : { Authorization: null },
        organization: null,
        project: null,
        maxRetries: 2,
        timeout: timeoutMs,
        logLevel: 'off',
      }),
    };
  };
  return {
    spec: shown,
    async generate(prompt, o = {}) {
      const { client: c, mod } = await (client ??= connect());
      const body: OpenAI.Images.ImageGenerateParamsNonStreaming = { model, prompt, n: 1 };
      if (o.size) body.size = o.size as OpenAI.Images.ImageGenerateParamsNonStreaming['size'];
      // GPT image models always answer with base64 and refuse the parameter; the others are asked for it.
      if (!/^gpt-image/i.test(model)) body.response_format = 'b64_json';
      let reply: OpenAI.Images.ImagesResponse;
      try {
        reply = await c.images.generate(body);
      } catch (err) {
        throw fromStainlessError(err, mod, site);
      }
      const first = reply.data?.[0];
      if (!first) malformed(shown, 'no data[0] in the images response');
      const bytes = first.b64_json ? Buffer.from(first.b64_json, 'base64') : first.url ? await download(first.url, shown) : undefined;
      if (!bytes) malformed(shown, 'the image has neither b64_json nor url');
      const mediaType = imageMediaType(bytes);
      if (!mediaType) malformed(shown, 'the image is not a PNG, JPEG, GIF or WebP (by its first bytes)');
      return { bytes, mediaType, ...(first.revised_prompt ? { revisedPrompt: first.revised_prompt } : {}) };
    },
  };
}

/** An image a reply names by URL (http(s) or data:), its bytes capped at MAX_IMAGE_BYTES. */
async function download(ref: string, label: string): Promise<Uint8Array> {
  const data = /^data:[^;,]*;base64,(.*)$/s.exec(ref);
  if (data) return Buffer.from(data[1]!, 'base64');
  if (!/^https?:\/\//i.test(ref)) malformed(label, 'the image URL is neither http(s) nor data:');
  const res = await fetch(ref);
  if (!res.ok) throw new ModelCallError(`${label}: HTTP ${res.status} fetching the generated image`, 'server', res.status);
  const size = Number(res.headers.get('content-length') ?? 0);
  if (size > MAX_IMAGE_BYTES) throw new ModelCallError(`${label}: the generated image is over ${MAX_IMAGE_BYTES} bytes`, 'oversized');
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > MAX_IMAGE_BYTES)
    throw new ModelCallError(`${label}: the generated image is over ${MAX_IMAGE_BYTES} bytes`, 'oversized');
  return bytes;
}
