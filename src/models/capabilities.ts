// What a model accepts and how it spends its output budget, by provider and exact model name or
// family pattern. Reasoning models differ from chat models in ways that break a naive client:
// OpenAI's o-series and GPT-5 reject any temperature but the default, take only
// max_completion_tokens, and spend hidden output tokens reasoning before they answer, so the
// chat-model default of 256 output tokens leaves them nothing to answer with. Gemini 2.5 and 3
// think by default; Claude thinks only when given a thinking budget.

import { ConfigError, DEFAULT_SETTINGS, type GenerationSettings, type ReasoningEffort } from '../core/index.js';

export interface ModelCapabilities {
  /** The table row that matched, for messages and the documentation. */
  family: string;
  /** Takes temperature and top_p (OpenAI's reasoning models take neither: they sample at temperature 1). */
  sampling: boolean;
  /** The request parameter that limits output tokens. */
  maxTokensParam: 'max_tokens' | 'max_completion_tokens';
  /** Spends output tokens reasoning before it answers, unasked. */
  reasons: boolean;
  /** The reasoning control it takes: OpenAI's effort levels, or a thinking budget in tokens (Anthropic, Gemini). */
  reasoningControl?: 'effort' | 'thinking-budget';
  /** The effort levels it accepts (reasoningControl 'effort'). */
  efforts?: readonly ReasoningEffort[];
  /** Smallest thinking budget the provider accepts (Anthropic 1024); 0 turns thinking off where allowed. */
  minThinkingBudget?: number;
  /** Whether a thinking budget of 0 (no thinking) is allowed. */
  thinkingCanBeOff?: boolean;
  /** While thinking it samples at temperature 1 and takes no temperature or top_p (Anthropic). */
  thinkingFixesSampling?: boolean;
  /** Output-token limit used when none is given: room for reasoning and the answer. */
  defaultMaxTokens: number;
  /** Structured output through the provider's schema parameter (judges use it). */
  structuredOutput: boolean;
}

/** Output tokens left for the answer on top of a thinking budget, when no --max-tokens is given. */
export const ANSWER_ROOM_TOKENS = 1024;
/** Default output-token limit of models that reason unasked: room for the reasoning and the answer. */
export const REASONING_MAX_TOKENS = 16_384;

const CHAT: Omit<ModelCapabilities, 'family' | 'structuredOutput'> = {
  sampling: true,
  maxTokensParam: 'max_tokens',
  reasons: false,
  defaultMaxTokens: DEFAULT_SETTINGS.maxTokens,
};
const OPENAI_REASONING = {
  ...CHAT,
  sampling: false,
  maxTokensParam: 'max_completion_tokens',
  reasons: true,
  reasoningControl: 'effort',
  defaultMaxTokens: REASONING_MAX_TOKENS,
} as const;
const DATE = '(-\\d{4}-\\d{2}-\\d{2})?';

interface Row {
  family: string;
  providers: readonly string[];
  pattern: RegExp;
  caps: Omit<ModelCapabilities, 'family' | 'structuredOutput'>;
}

const OPENAI = ['openai', 'openai-compatible'];

/** First matching row wins; patterns match the whole model name (after a vendor prefix such as `openai/`). */
const ROWS: readonly Row[] = [
  {
    family: 'gpt-5-chat',
    providers: OPENAI,
    pattern: /^gpt-5(\.\d+)?-chat(-latest)?$/,
    caps: { ...CHAT, maxTokensParam: 'max_completion_tokens' },
  },
  {
    family: 'gpt-5-pro',
    providers: OPENAI,
    pattern: new RegExp(`^gpt-5(\\.\\d+)?-pro${DATE}$`),
    caps: { ...OPENAI_REASONING, efforts: ['high'] },
  },
  {
    family: 'gpt-5',
    providers: OPENAI,
    pattern: new RegExp(`^gpt-5(-mini|-nano|-codex)?${DATE}$`),
    caps: { ...OPENAI_REASONING, efforts: ['minimal', 'low', 'medium', 'high'] },
  },
  {
    family: 'gpt-5.x',
    providers: OPENAI,
    pattern: new RegExp(`^gpt-5\\.\\d+(-mini|-nano|-codex(-mini|-max)?)?${DATE}$`),
    caps: { ...OPENAI_REASONING, efforts: ['low', 'medium', 'high'] },
  },
  {
    family: 'o1-mini',
    providers: OPENAI,
    pattern: new RegExp(`^o1-mini${DATE}$`),
    caps: { ...OPENAI_REASONING, reasoningControl: undefined },
  },
  {
    family: 'o-series',
    providers: OPENAI,
    pattern: new RegExp(`^o[134](-mini|-pro)?${DATE}$`),
    caps: { ...OPENAI_REASONING, efforts: ['low', 'medium', 'high'] },
  },
  // Open reasoning models behind OpenAI-compatible servers: they take sampling settings and show their reasoning.
  {
    family: 'open-reasoning',
    providers: ['openai-compatible'],
    pattern: /(deepseek-r1|deepseek-reasoner|qwq|gpt-oss|magistral)/i,
    caps: { ...CHAT, reasons: true, defaultMaxTokens: REASONING_MAX_TOKENS },
  },
  {
    family: 'claude-thinking',
    providers: ['anthropic'],
    pattern: /^claude-((opus|sonnet|haiku)-4|3-7-sonnet|sonnet-3-7)/,
    caps: { ...CHAT, reasoningControl: 'thinking-budget', minThinkingBudget: 1024, thinkingCanBeOff: true, thinkingFixesSampling: true },
  },
  {
    family: 'gemini-thinking-pro',
    providers: ['google'],
    pattern: /^gemini-(2\.5-pro|3(\.\d+)?-pro)/,
    caps: { ...CHAT, reasons: true, reasoningControl: 'thinking-budget', minThinkingBudget: 128, defaultMaxTokens: REASONING_MAX_TOKENS },
  },
  {
    family: 'gemini-thinking',
    providers: ['google'],
    pattern: /^gemini-(2\.5|3(\.\d+)?)-flash/,
    caps: { ...CHAT, reasons: true, reasoningControl: 'thinking-budget', thinkingCanBeOff: true, defaultMaxTokens: REASONING_MAX_TOKENS },
  },
];

/**
 * The capabilities of `provider:model`. `structuredOutput` says whether the server takes a schema:
 * always for the hosted APIs, opt-in for OpenAI-compatible servers (many do not).
 */
export function capabilitiesFor(provider: string, model: string, opts: { structuredOutput?: boolean } = {}): ModelCapabilities {
  const name = model.includes('/') ? model.slice(model.lastIndexOf('/') + 1) : model;
  const structuredOutput = provider === 'openai-compatible' ? (opts.structuredOutput ?? false) : true;
  const row = ROWS.find((r) => r.providers.includes(provider) && r.pattern.test(name));
  if (row) return { family: row.family, structuredOutput, ...row.caps };
  const maxTokensParam = provider === 'openai' ? 'max_completion_tokens' : 'max_tokens';
  return { family: 'chat', structuredOutput, ...CHAT, maxTokensParam };
}

/** Whether a call with these settings may carry temperature and top_p. */
export function takesSampling(caps: ModelCapabilities | undefined, s: GenerationSettings): boolean {
  if (!caps) return true;
  if (!caps.sampling) return false;
  return !(caps.thinkingFixesSampling && (s.thinkingBudget ?? 0) > 0);
}

/** The settings a model can actually be sent: what it cannot take is dropped, silently (see `settingsFor` for the warnings). */
export function normalizeSettings(caps: ModelCapabilities | undefined, s: GenerationSettings): GenerationSettings {
  if (!caps) return s;
  let out = s;
  if (!takesSampling(caps, s) && (s.temperature !== 1 || s.topP !== undefined)) {
    const { topP: _topP, ...rest } = s;
    out = { ...rest, temperature: 1 };
  }
  if (out.reasoningEffort !== undefined && caps.reasoningControl !== 'effort') {
    const { reasoningEffort: _e, ...rest } = out;
    out = rest;
  }
  if (out.thinkingBudget !== undefined && caps.reasoningControl !== 'thinking-budget') {
    const { thinkingBudget: _b, ...rest } = out;
    out = rest;
  }
  return out;
}

/**
 * A subject's generation settings: the defaults, the model's own defaults (an output budget with
 * room for reasoning), then what the user gave (`explicit`). What the model cannot take is not
 * sent, with a warning saying so; an impossible combination is a ConfigError naming the flags.
 */
export function settingsFor(
  spec: string,
  caps: ModelCapabilities | undefined,
  explicit: Partial<GenerationSettings>,
): { settings: GenerationSettings; warnings: string[] } {
  const warnings: string[] = [];
  if (!caps) return { settings: { ...DEFAULT_SETTINGS, ...explicit }, warnings };
  const budget = explicit.thinkingBudget;
  if (explicit.reasoningEffort !== undefined) {
    if (caps.reasoningControl !== 'effort') warnings.push(`${spec} takes no reasoning effort: --reasoning-effort is not sent`);
    else if (caps.efforts && !caps.efforts.includes(explicit.reasoningEffort))
      throw new ConfigError(
        `${spec}: --reasoning-effort ${explicit.reasoningEffort} is not accepted; use one of ${caps.efforts.join(', ')}`,
      );
  }
  if (budget !== undefined) {
    if (caps.reasoningControl !== 'thinking-budget') warnings.push(`${spec} takes no thinking budget: --thinking-budget is not sent`);
    else if (budget === 0 && !caps.thinkingCanBeOff) throw new ConfigError(`${spec}: thinking cannot be turned off (--thinking-budget 0)`);
    else if (budget > 0 && budget < (caps.minThinkingBudget ?? 1))
      throw new ConfigError(`${spec}: --thinking-budget must be at least ${caps.minThinkingBudget} tokens, got ${budget}`);
  }
  const thinking = caps.reasoningControl === 'thinking-budget' && budget !== undefined && budget > 0;
  let maxTokens = explicit.maxTokens ?? caps.defaultMaxTokens;
  if (thinking && explicit.maxTokens === undefined) maxTokens = Math.max(maxTokens, budget + ANSWER_ROOM_TOKENS);
  if (thinking && maxTokens <= budget)
    throw new ConfigError(`${spec}: --max-tokens (${maxTokens}) must exceed --thinking-budget (${budget}): thinking counts against it`);
  if (!caps.sampling || (caps.thinkingFixesSampling && thinking)) {
    if (explicit.temperature !== undefined && explicit.temperature !== 1)
      warnings.push(
        `${spec} takes no temperature${caps.sampling ? ' while thinking' : ''} (it samples at 1): --temperature ${explicit.temperature} is not sent`,
      );
    if (explicit.topP !== undefined) warnings.push(`${spec} takes no top_p: it is not sent`);
  }
  const settings = normalizeSettings(caps, { ...DEFAULT_SETTINGS, ...explicit, maxTokens });
  return { settings, warnings };
}
