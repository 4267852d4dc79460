// What model-server.mjs does beyond plain answers, each the way the real API does it:
//
// Reasoning models, by name. OpenAI's (gpt-5, gpt-5-mini, gpt-5-nano, gpt-5.x, o1, o3, o3-mini,
// o4-mini) reject any temperature but 1, any top_p, and max_tokens (400, OpenAI's messages), and
// spend reasoning tokens before they answer (minimal 0, low 200, medium (default) 600, high 1500):
// a max_completion_tokens that does not cover them gets finish_reason "length" and no text.
// Gemini 2.5 and 3 think by default (600 tokens, or thinkingConfig.thinkingBudget) inside
// maxOutputTokens, finishing MAX_TOKENS with no text when it runs out, and return thought
// summaries with includeThoughts; the Pro models refuse a budget of 0. Claude thinks only with
// `thinking: {type: enabled, budget_tokens}` (at least 1024, below max_tokens, no temperature
// but 1, no forced tool choice), spending min(budget, 600) tokens.
//
// Structured output: OpenAI response_format json_schema (strict schemas must be closed and
// require every property), Anthropic tools with input_schema and tool_choice, Gemini
// responseSchema with upper-case types. The reply is an object built from the schema: the
// model's own JSON answer when it fits, else each property's minimum.
//
// Prompt caching: OpenAI and Gemini report cached tokens for a long (>= 4096 characters) first
// message seen before; Anthropic caches the prefix up to the last cache_control breakpoint when
// it is at least 1024 tokens (4 characters a token), reporting cache_creation_input_tokens the
// first time and cache_read_input_tokens after.

import { createHash } from 'node:crypto';

const EFFORT_TOKENS = { minimal: 0, low: 200, medium: 600, high: 1500 };
const OPENAI_REASONING = /^(gpt-5(\.\d+)?(-mini|-nano|-pro)?|o1|o3|o3-mini|o4-mini)$/;
const GEMINI_THINKING = /^gemini-(2\.5|3)/;
const GEMINI_PRO = /^gemini-(2\.5|3)-pro/;
export const THINK_TOKENS = 600;
const tokens = (chars) => Math.ceil(chars / 4);

const seenPrefixes = new Set();

function invalid(message, param, code = 'unsupported_parameter') {
  return { status: 400, body: { error: { message, type: 'invalid_request_error', param, code } } };
}

/** OpenAI: a 400 for what a reasoning model refuses, else the reasoning tokens it spends. */
export function openAiReasoning(model, body) {
  if (!OPENAI_REASONING.test(model)) return { reasoningTokens: 0 };
  if (body.temperature !== undefined && body.temperature !== 1)
    return {
      error: invalid(
        `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`,
        'temperature',
        'unsupported_value',
      ),
    };
  if (body.top_p !== undefined) return { error: invalid("Unsupported parameter: 'top_p' is not supported with this model.", 'top_p') };
  if (body.max_tokens !== undefined)
    return {
      error: invalid(
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        'max_tokens',
      ),
    };
  const effort = body.reasoning_effort ?? 'medium';
  if (!(effort in EFFORT_TOKENS)) return { error: invalid(`Unsupported value: '${effort}'`, 'reasoning_effort', 'unsupported_value') };
  return { reasoningTokens: EFFORT_TOKENS[effort] };
}

/** Gemini: thinking tokens of this request, or a 400. */
export function geminiThinking(model, config) {
  if (!GEMINI_THINKING.test(model)) return { thinkingTokens: 0 };
  const budget = config?.thinkingConfig?.thinkingBudget;
  if (budget === 0 && GEMINI_PRO.test(model))
    return {
      error: {
        status: 400,
        body: { error: { code: 400, message: 'Budget 0 is invalid. This model only works in thinking mode.', status: 'INVALID_ARGUMENT' } },
      },
    };
  return {
    thinkingTokens: budget === undefined || budget < 0 ? THINK_TOKENS : Math.min(budget, THINK_TOKENS),
    includeThoughts: !!config?.thinkingConfig?.includeThoughts,
  };
}

/** Claude: thinking tokens of this request, or a 400. */
export function anthropicThinking(body) {
  const t = body.thinking;
  if (t?.type !== 'enabled') return { thinkingTokens: 0 };
  const bad = (message) => ({ error: { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message } } } });
  if (!(t.budget_tokens >= 1024)) return bad('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
  if (!(body.max_tokens > t.budget_tokens)) return bad('`max_tokens` must be greater than `thinking.budget_tokens`.');
  if (body.temperature !== undefined && body.temperature !== 1)
    return bad('`temperature` may only be set to 1 when thinking is enabled or in interleaved thinking mode.');
  if (body.tool_choice?.type === 'tool' || body.tool_choice?.type === 'any')
    return bad('Thinking may not be enabled when tool_choice forces tool use.');
  return { thinkingTokens: Math.min(t.budget_tokens, THINK_TOKENS) };
}

function lowerType(t) {
  return typeof t === 'string' ? t.toLowerCase() : t;
}

/** An object matching a schema: `preferred` (the model's own JSON) where its values fit, else each property's minimum. */
export function fillSchema(schema, preferred) {
  const out = {};
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    const v = preferred?.[name];
    const type = lowerType(prop.type);
    const fits =
      typeof v === 'number' &&
      (type !== 'integer' || Number.isInteger(v)) &&
      (prop.minimum === undefined || v >= prop.minimum) &&
      (prop.maximum === undefined || v <= prop.maximum);
    out[name] = fits ? v : type === 'string' ? '' : (prop.minimum ?? 0);
  }
  return out;
}

/** OpenAI strict mode: a 400 unless every object is closed and requires all its properties. */
export function checkStrictSchema(format) {
  if (format?.type !== 'json_schema') return undefined;
  const s = format.json_schema?.schema;
  if (!format.json_schema?.name || !s)
    return invalid("Missing required parameter: 'response_format.json_schema'.", 'response_format', 'missing_required_parameter');
  if (
    format.json_schema.strict &&
    (s.additionalProperties !== false || (s.required ?? []).length !== Object.keys(s.properties ?? {}).length)
  )
    return invalid(
      "Invalid schema for response_format: In context=(), 'additionalProperties' is required to be supplied and to be false, and 'required' must list every property.",
      'response_format',
      'invalid_json_schema',
    );
  return undefined;
}

/** Gemini: a 400 unless responseSchema uses the API's upper-case type names. */
export function checkGeminiSchema(schema) {
  const check = (s) => {
    if (s.type && s.type !== String(s.type).toUpperCase()) return `Invalid value at 'generation_config.response_schema.type' (${s.type})`;
    for (const p of Object.values(s.properties ?? {})) {
      const e = check(p);
      if (e) return e;
    }
    return undefined;
  };
  const e = schema && check(schema);
  return e ? { status: 400, body: { error: { code: 400, message: e, status: 'INVALID_ARGUMENT' } } } : undefined;
}

function parseJson(text) {
  try {
    const start = text.indexOf('{');
    return start >= 0 ? JSON.parse(text.slice(start, text.lastIndexOf('}') + 1)) : undefined;
  } catch {
    return undefined;
  }
}

/** The structured reply for a schema, built from the model's plain answer. */
export function structuredReply(schema, plainAnswer) {
  return JSON.stringify(fillSchema(schema, parseJson(plainAnswer)));
}

const textOf = (content) => (typeof content === 'string' ? content : (content ?? []).map((p) => p.text ?? '').join('\n'));

/** OpenAI and Gemini implicit caching: tokens of a long first message seen before (in 128-token steps). */
export function implicitCachedTokens(firstText) {
  if (firstText.length < 4096) return 0;
  const key = createHash('sha256').update(firstText).digest('hex');
  const seen = seenPrefixes.has(key);
  seenPrefixes.add(key);
  return seen ? Math.floor(tokens(firstText.length) / 128) * 128 : 0;
}

/** Anthropic explicit caching: { read, written } tokens of the prefix up to the last cache_control breakpoint. */
export function anthropicCache(body) {
  const pieces = [];
  let breakpoint = -1;
  const system = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system ?? []);
  for (const b of system) {
    pieces.push(b.text ?? '');
    if (b.cache_control) breakpoint = pieces.length;
  }
  for (const m of body.messages ?? []) {
    const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    for (const b of blocks) {
      pieces.push(`${m.role}:${b.text ?? JSON.stringify(b.source ?? b.input ?? '')}`);
      if (b.cache_control) breakpoint = pieces.length;
    }
  }
  const total = tokens(pieces.join('').length);
  if (breakpoint < 0) return { read: 0, written: 0, total };
  const prefix = pieces.slice(0, breakpoint).join('');
  const prefixTokens = tokens(prefix.length);
  if (prefixTokens < 1024) return { read: 0, written: 0, total };
  // A breakpoint also reads an earlier cached prefix of the same conversation: look back over shorter prefixes.
  for (let cut = breakpoint; cut > 0; cut--) {
    const p = pieces.slice(0, cut).join('');
    if (seenPrefixes.has(`a:${p}`)) {
      seenPrefixes.add(`a:${prefix}`);
      const read = tokens(p.length);
      return { read, written: prefixTokens - read, total };
    }
  }
  seenPrefixes.add(`a:${prefix}`);
  return { read: 0, written: prefixTokens, total };
}

export { textOf, tokens };
