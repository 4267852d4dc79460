// From a model spec string (`PREFIX:REST`) to a ChatModel, through a table of providers. Keys
// come from the environment only; the spec, which is stored and shown, never holds one. Users
// add providers (defineProvider) through the config's plugins.

import { ConfigError } from '../core/index.js';
import type { ChatModel } from './chat-model.js';
import { AnthropicChatModel } from './providers/anthropic.js';
import { GoogleChatModel } from './providers/google.js';
import { LlamaCppChatModel } from './providers/llamacpp.js';
import { OpenAiChatModel } from './providers/openai.js';
import { hasUrlCredentials, withoutUrlCredentials } from './http.js';
import type { ContextWindowSetting } from './context-window.js';

export interface ModelOptions {
  /** Environment variable holding the key for `openai-compatible:` servers (none by default). */
  apiKeyEnv?: string;
  env?: NodeJS.ProcessEnv;
  /** `openai-compatible:` servers take `response_format: json_schema` (structured judge output); hosted APIs always do. */
  structuredOutput?: boolean;
  /** `openai-compatible:` servers: cut prompts from the left to this context window (tokens, or 'server': as reported). */
  contextWindow?: ContextWindowSetting;
}

/** What a provider's factory gets besides the spec: the environment, and a way to build member models (teams). */
export interface ProviderContext {
  apiKeyEnv?: string;
  structuredOutput?: boolean;
  contextWindow?: ContextWindowSetting;
  env: NodeJS.ProcessEnv;
  create(spec: string): ChatModel;
}

export interface ProviderDefinition {
  /** The part of the spec before the first colon: `openai` in `openai:gpt-4o-mini`. */
  prefix: string;
  /** The spec's form as shown in help and errors, e.g. `openai:MODEL`. */
  form: string;
  /** Build the model from the rest of the spec (after the colon); `spec` is the whole spec as errors show it (no URL credentials). */
  create(rest: string, spec: string, ctx: ProviderContext): ChatModel;
}

/** Declare a provider for `PREFIX:...` model specs. */
export function defineProvider(def: ProviderDefinition): ProviderDefinition {
  if (!/^[a-z][a-z0-9-]*$/.test(def.prefix))
    throw new Error(`provider prefix "${def.prefix}" must be lower-case letters, digits and dashes`);
  return def;
}

/** The first of the named environment variables that is set; an error naming them all otherwise. */
export function requireKey(env: NodeJS.ProcessEnv, spec: string, ...names: string[]): string {
  for (const name of names) {
    const value = env[name];
    if (value) return value;
  }
  throw new ConfigError(`${spec}: set ${names.join(' or ')} in the environment`);
}

/** The hosted and local providers mindscope ships. */
export const BUILTIN_PROVIDERS: readonly ProviderDefinition[] = [
  defineProvider({
    prefix: 'openai',
    form: 'openai:MODEL',
    create: (model, spec, { env }) =>
      new OpenAiChatModel({
        provider: 'openai',
        model,
        baseUrl: env.OPENAI_BASE_URL || 'https://api.openai.com/v1',
        apiKey: requireKey(env, spec, 'OPENAI_API_KEY'),
      }),
  }),
  defineProvider({
    prefix: 'openai-compatible',
    form: 'openai-compatible:BASE_URL#MODEL',
    create: (rest, spec, { env, apiKeyEnv, structuredOutput, contextWindow }) => {
      const hash = rest.lastIndexOf('#');
      if (hash <= 0 || hash === rest.length - 1) throw new ConfigError(`${spec}: expected openai-compatible:BASE_URL#MODEL`);
      const baseUrl = rest.slice(0, hash);
      if (!/^https?:\/\//.test(baseUrl)) throw new ConfigError(`${spec}: BASE_URL must start with http:// or https://`);
      // A spec is the subject's name: stored, printed, exported. Credentials in it would go
      // everywhere; so would a key in a query string (which the SDK would not send right either:
      // it appends the path after it).
      if (/[?]/.test(baseUrl))
        throw new ConfigError(
          `${spec.replace(/\?[^#]*/, '?...')}: the BASE_URL carries a query string (?...); a spec is stored and shown, so give a key in the environment instead (--api-key-env NAME)`,
        );
      if (hasUrlCredentials(baseUrl))
        throw new ConfigError(
          `${spec}: the BASE_URL carries credentials (user:password@); a spec is stored and shown, so give the key in the environment instead (--api-key-env NAME sends it as a bearer token)`,
        );
      const apiKey = apiKeyEnv ? requireKey(env, spec, apiKeyEnv) : undefined;
      return new OpenAiChatModel({
        provider: 'openai-compatible',
        model: rest.slice(hash + 1),
        baseUrl,
        apiKey,
        structuredOutput,
        contextWindow,
      });
    },
  }),
  defineProvider({
    prefix: 'anthropic',
    form: 'anthropic:MODEL',
    create: (model, spec, { env }) =>
      new AnthropicChatModel({
        model,
        baseUrl: env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com',
        apiKey: requireKey(env, spec, 'ANTHROPIC_API_KEY'),
      }),
  }),
  defineProvider({
    prefix: 'google',
    form: 'google:MODEL',
    create: (model, spec, { env }) =>
      new GoogleChatModel({
        model,
        baseUrl: env.GOOGLE_BASE_URL || 'https://generativelanguage.googleapis.com',
        apiKey: requireKey(env, spec, 'GOOGLE_API_KEY', 'GEMINI_API_KEY'),
      }),
  }),
  defineProvider({ prefix: 'llamacpp', form: 'llamacpp:PATH.gguf', create: (path) => new LlamaCppChatModel(path) }),
];

/** A table of providers by prefix; `create` turns a spec into a model. */
export class ProviderRegistry {
  readonly #byPrefix = new Map<string, ProviderDefinition>();

  constructor(defs: readonly ProviderDefinition[] = []) {
    for (const d of defs) this.add(d);
  }

  /** Add a provider; a prefix may be registered once. */
  add(def: ProviderDefinition): void {
    if (this.#byPrefix.has(def.prefix)) throw new ConfigError(`a provider for "${def.prefix}:" is registered twice`);
    this.#byPrefix.set(def.prefix, def);
  }

  /** The spec forms every registered provider accepts. */
  forms(): string[] {
    return [...this.#byPrefix.values()].map((d) => d.form);
  }

  /** Build the model a spec names; errors name the spec and the accepted forms. */
  create(spec: string, opts: ModelOptions = {}): ChatModel {
    const colon = spec.indexOf(':');
    const prefix = colon > 0 ? spec.slice(0, colon) : '';
    const rest = colon > 0 ? spec.slice(colon + 1) : '';
    const def = this.#byPrefix.get(prefix);
    // Errors name the spec as given, less any credentials written into a URL in it.
    const shown = withoutUrlCredentials(spec);
    if (!def || !rest) throw new ConfigError(`unknown model spec "${shown}"; use one of: ${this.forms().join(', ')}`);
    const ctx: ProviderContext = {
      apiKeyEnv: opts.apiKeyEnv,
      structuredOutput: opts.structuredOutput,
      contextWindow: opts.contextWindow,
      env: opts.env ?? process.env,
      create: (s) => this.create(s, opts),
    };
    return def.create(rest, shown, ctx);
  }
}
