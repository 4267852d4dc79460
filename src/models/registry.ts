// From a model spec string to a ChatModel. Keys come from the environment only; the spec,
// which is stored and shown, never holds one.

import { ConfigError } from '../core/index.js';
import type { ChatModel } from './chat-model.js';
import { REFERENCE_AGENTS, ReferenceAgent } from './agents/reference-agent.js';
import { AnthropicChatModel } from './providers/anthropic.js';
import { GoogleChatModel } from './providers/google.js';
import { LlamaCppChatModel } from './providers/llamacpp.js';
import { OpenAiChatModel } from './providers/openai.js';
import { TeamModel } from './team-model.js';

export interface ModelOptions {
  /** Environment variable holding the key for `openai-compatible:` servers (none by default). */
  apiKeyEnv?: string;
  env?: NodeJS.ProcessEnv;
}

export const MODEL_SPEC_FORMS = [
  'openai:MODEL',
  'openai-compatible:BASE_URL#MODEL',
  'anthropic:MODEL',
  'google:MODEL',
  'llamacpp:PATH.gguf',
  `agent:NAME (${Object.keys(REFERENCE_AGENTS).join(', ')})`,
  'team:SPEC+SPEC+... (embodied episodes: agent_i is played by member i)',
];

function requireKey(env: NodeJS.ProcessEnv, spec: string, ...names: string[]): string {
  for (const name of names) {
    const value = env[name];
    if (value) return value;
  }
  throw new ConfigError(`${spec}: set ${names.join(' or ')} in the environment`);
}

export function createModel(spec: string, opts: ModelOptions = {}): ChatModel {
  const env = opts.env ?? process.env;
  const colon = spec.indexOf(':');
  const kind = colon > 0 ? spec.slice(0, colon) : '';
  const rest = colon > 0 ? spec.slice(colon + 1) : '';
  if (!rest) throw new ConfigError(`unknown model spec "${spec}"; use one of: ${MODEL_SPEC_FORMS.join(', ')}`);
  switch (kind) {
    case 'openai':
      return new OpenAiChatModel({
        provider: 'openai',
        model: rest,
        baseUrl: env.OPENAI_BASE_URL || 'https://api.openai.com/v1',
        apiKey: requireKey(env, spec, 'OPENAI_API_KEY'),
      });
    case 'openai-compatible': {
      const hash = rest.lastIndexOf('#');
      if (hash <= 0 || hash === rest.length - 1) throw new ConfigError(`${spec}: expected openai-compatible:BASE_URL#MODEL`);
      const baseUrl = rest.slice(0, hash);
      if (!/^https?:\/\//.test(baseUrl)) throw new ConfigError(`${spec}: BASE_URL must start with http:// or https://`);
      const apiKey = opts.apiKeyEnv ? requireKey(env, spec, opts.apiKeyEnv) : undefined;
      return new OpenAiChatModel({ provider: 'openai-compatible', model: rest.slice(hash + 1), baseUrl, apiKey });
    }
    case 'anthropic':
      return new AnthropicChatModel({
        model: rest,
        baseUrl: env.ANTHROPIC_BASE_URL || 'https://api.anthropic.com',
        apiKey: requireKey(env, spec, 'ANTHROPIC_API_KEY'),
      });
    case 'google':
      return new GoogleChatModel({
        model: rest,
        baseUrl: env.GOOGLE_BASE_URL || 'https://generativelanguage.googleapis.com',
        apiKey: requireKey(env, spec, 'GOOGLE_API_KEY', 'GEMINI_API_KEY'),
      });
    case 'llamacpp':
      return new LlamaCppChatModel(rest);
    case 'team': {
      const members = rest.split('+').filter(Boolean);
      if (members.length === 0) throw new ConfigError(`${spec}: expected team:SPEC+SPEC+...`);
      return new TeamModel(members.map((m) => createModel(m, opts)));
    }
    case 'agent':
      if (!REFERENCE_AGENTS[rest])
        throw new ConfigError(
          `unknown reference agent "${spec}"; known: ${Object.keys(REFERENCE_AGENTS)
            .map((a) => `agent:${a}`)
            .join(', ')}`,
        );
      return new ReferenceAgent(rest);
    default:
      throw new ConfigError(`unknown model spec "${spec}"; use one of: ${MODEL_SPEC_FORMS.join(', ')}`);
  }
}
