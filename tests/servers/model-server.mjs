// A real HTTP server, run as a child process by tests and benchmarks, that speaks three
// providers' protocols: OpenAI chat completions (POST /v1/chat/completions), Anthropic messages
// (POST /v1/messages) and Gemini generateContent (POST /v1beta/models/M:generateContent).
//
// It answers multiple-choice prompts with "Answer: X", where X is the first option label unless
// the model name asks otherwise; embodied episode turns with "Wait" ("garbage": no action at
// all) and probes with {"answer": "unknown"}; judge prompts (models judge-exact, judge-repair,
// judge-range, judge-noisy, judge-lenient: always 5) with {"score": N}, judge-anchored with Castelli {"intent", "approp"}
// (Intent at the top of an "Expected Intent: a-b" range when the prompt shows one, 1 otherwise, as a judge the informed
// rubric anchors); StoryTurn authoring prompts (storyteller: a valid
// story; any other model: one whose feedback names an unknown option); and it injects faults
// chosen by the model name:
//   ok                 answer at once
//   last-option        answer the last listed option
//   flaky-429-K        the first K attempts of each distinct request get 429 with Retry-After: 1
//   flaky-500-K        ... get HTTP 500
//   hang-K             ... get no answer at all (the connection stays open)
//   reset-K            ... get the connection reset with no response
//   stall-K            ... get the headers and the start of a body that never ends
//   malformed-K        ... get a 200 with a body that is not JSON
//   bad-shape-K        ... get a 200 JSON without choices
//   always-500         every request gets HTTP 500
//   rl-K-MS            the first K attempts of each distinct request get 429 with retry-after-ms: MS
//                      (and Retry-After in whole seconds); rl-K-none: 429 with no delay named at all
//   huge-KIB           answer with a reply of KIB kibibytes of text
//   echo-key-500-N     HTTP 500 whose error message holds the key sent, after N characters
//   echo-key-badjson   a 200 whose body is not JSON and holds the key sent
//   echo-key-reply     a normal answer whose text quotes the key sent
//   slow-MS            answer after MS milliseconds (judge-slow-MS: as judge-exact, after MS milliseconds)
//   teacher-reasoner   answer the second option, with eight sentences of reasoning (reasoning_content) that name options
//   masker             answer a trace-masking prompt with the trace after "Reasoning trace:", options masked as [MASK]
// With MODEL_SERVER_KEY set, requests must carry that key (Bearer, x-api-key or x-goog-api-key)
// or get 401. GET /stats returns the request counts and the last 50 request bodies (with the
// headers each carried, by name in `headersSeen` and with their values in `headers`, where an
// authorisation header's value is only its length) and `log`, the last 200 requests'
// model, arrival time (ms since the epoch) and status or fault. Reasoning models, structured
// output and prompt caching behave as each API does: see wire-features.mjs. Errors have each
// API's body shape (Gemini's 429 says how long to wait in RetryInfo, as Google does).
// The batch APIs of all three (files + batches, message batches, batchGenerateContent) are in batch-api.mjs.
// On start it prints {"port": N} as its first line.

import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import {
  anthropicCache,
  anthropicThinking,
  checkGeminiSchema,
  checkStrictSchema,
  geminiThinking,
  implicitCachedTokens,
  openAiReasoning,
  structuredReply,
  textOf,
  tokens,
} from './wire-features.mjs';
import { handleBatch } from './batch-api.mjs';

const requiredKey = process.env.MODEL_SERVER_KEY || '';
const GEMINI_INLINE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/heic',
  'image/heif',
  'video/mp4',
  'video/mpeg',
  'video/mov',
  'video/avi',
  'video/x-flv',
  'video/mpg',
  'video/webm',
  'video/wmv',
  'video/3gpp',
]);
const attempts = new Map();
const stats = { requests: 0, byModel: {}, bodies: [], log: [] };

function lastUserText(messages) {
  const m = [...messages].reverse().find((x) => x.role === 'user');
  if (!m) return '';
  if (typeof m.content === 'string') return m.content;
  return m.content.map((p) => p.text ?? '').join('\n');
}

let noisy = 0;

/** Judge models (names starting judge-): one rubric field, "score", from 0 to 5. */
function judgeAnswer(model, prompt) {
  if (model === 'judge-anchored') {
    const range = /Expected Intent: (\d)-(\d)/.exec(prompt);
    return JSON.stringify({ intent: range ? Number(range[2]) : 1, approp: 1 });
  }
  if (model === 'judge-repair') return /could not be used/.test(prompt) ? '{"score": 3}' : 'It looks fine to me.';
  if (model === 'judge-range') return '{"score": 99}';
  if (model === 'judge-lenient') return '{"score": 5}';
  if (model === 'judge-noisy') return `{"score": ${(noisy++ * 7) % 6}}`;
  const expected = /Expected: (.*)/.exec(prompt)?.[1]?.trim().toLowerCase() ?? '';
  const response = /Response: ([\s\S]*?)(\nExpected:|$)/.exec(prompt)?.[1]?.trim().toLowerCase() ?? '';
  return `{"score": ${expected && response.includes(expected) ? 5 : 0}}`;
}

const STORY = {
  mental_state: 'desire',
  setting: 'text-complete',
  turns: [
    { story: 'Ana can have tea or juice.', feedback: '', question: 'Which would you pick: tea or juice?', image: '', answer: 'tea; juice' },
    {
      story: 'Ana likes something different.',
      feedback: 'If the previous answer is tea: Ana does not want tea.; If the previous answer is juice: Ana does not want juice.',
      question: 'What does Ana pick?',
      image: '',
      answer: 'juice; tea',
    },
  ],
};

/** The options listed in a prompt ("A. text" or "A: text" lines). */
function listedOptions(prompt) {
  return [...prompt.matchAll(/^([A-Z])[.:] (.+)$/gm)].map((m) => ({ label: m[1], text: m[2].trim() }));
}

/**
 * A teacher's reasoning about a multiple-choice prompt (model teacher-reasoner): eight sentences
 * that name options by label, by ordinal and by text, the last ones declaring its pick (B).
 */
function teacherReasoning(prompt) {
  const options = listedOptions(prompt);
  const a = options[0]?.text ?? 'the first continuation';
  return [
    "I read the client's mental state first.",
    `Option A, "${a}", clashes with the stated belief.`,
    'The second option fits the desire better.',
    'Comparing the rest, (C) sounds too cold for the emotion.',
    'Weighing the trust attribute once more settles it.',
    'B matches every attribute I checked.',
    'So the answer is B.',
    'Final answer: B.',
  ].join(' ');
}

/**
 * The masking model (model masker): the trace after "Reasoning trace:" with every option text,
 * label ("Option A", "(C)", "B matches", "answer is B", "answer: B") and ordinal replaced by [MASK].
 */
function maskTrace(prompt) {
  const trace = /Reasoning trace:\n([\s\S]*?)(?:\n\nOutput only[\s\S]*)?$/.exec(prompt)?.[1] ?? '';
  const options = listedOptions(/Answer options:\n([\s\S]*?)\n\n/.exec(prompt)?.[1] ?? '');
  let out = trace;
  for (const o of options) out = out.split(o.text).join('[MASK]');
  return out
    .replace(/\b[Oo]ption [A-Z]\b/g, '[MASK]')
    .replace(/\([A-Z]\)/g, '[MASK]')
    .replace(/\b(answer(?: is|:)) [A-Z]\b/g, '$1 [MASK]')
    .replace(/\b[A-Z](?= matches)/g, '[MASK]')
    .replace(/\bThe (first|second|third|fourth|last) option\b/g, 'The [MASK] option');
}

function answerFor(model, prompt) {
  if (model === 'masker') return maskTrace(prompt);
  const huge = /^huge-(\d+)$/.exec(model);
  if (huge) return 'x'.repeat(Number(huge[1]) * 1024);
  if (/^judge-slow-\d+$/.test(model)) return judgeAnswer('judge-exact', prompt);
  if (model.startsWith('judge-')) return judgeAnswer(model, prompt);
  if (/You are a DialToM item writer/.test(prompt)) {
    const states = ['Belief', 'Desires', 'Intentions', 'Emotions', 'Knowledge', 'Trust'];
    return JSON.stringify({
      true: Object.fromEntries(states.map((s) => [s, `I truly hold this ${s.toLowerCase()}.`])),
      wrong: Object.fromEntries(states.map((s) => [s, [1, 2, 3].map((k) => `A wrong ${s.toLowerCase()} number ${k}.`)])),
      distractor_trajectories: [1, 2, 3].map((k) => `helper: Something else ${k}.\nclient: Fine ${k}.`),
      summary: 'They talk.',
    });
  }
  // StoryTurn authoring: a valid story, or one whose feedback names an option that does not exist.
  if (/Create a NEW, DISTINCT multi-turn story/.test(prompt)) {
    if (model === 'storyteller') return `Here is the story:\n${JSON.stringify(STORY)}`;
    const bad = structuredClone(STORY);
    bad.turns[1].feedback = 'If the previous answer is milk: no.; If the previous answer is tea: yes.';
    return JSON.stringify(bad);
  }
  // Embodied episodes: every turn ends with "Your action?"; probes ask for JSON.
  if (/Your action\?\s*$/.test(prompt)) return model === 'garbage' ? 'I am not sure what to do.' : 'I will wait for my partners.\nWait';
  if (/Answer in JSON/.test(prompt)) return '{"answer": "unknown"}';
  const labels = [...prompt.matchAll(/^([A-Z])\. /gm)].map((m) => m[1]);
  if (labels.length === 0) return 'Hello.';
  return `Answer: ${model === 'last-option' ? labels[labels.length - 1] : model === 'teacher-reasoner' ? (labels[1] ?? labels[0]) : labels[0]}`;
}

function fault(model, body) {
  const rl = /^rl-(\d+)-(none|\d+)$/.exec(model);
  if (rl) {
    const key = createHash('sha256')
      .update(JSON.stringify([model, body]))
      .digest('hex');
    const n = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, n);
    return n <= Number(rl[1]) ? `rl:${rl[2]}` : undefined;
  }
  const m = /^(flaky-429|flaky-500|hang|reset|stall|malformed|bad-shape)-(\d+)$/.exec(model);
  if (m) {
    const key = createHash('sha256')
      .update(JSON.stringify([model, body]))
      .digest('hex');
    const n = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, n);
    return n <= Number(m[2]) ? m[1] : undefined;
  }
  if (model === 'always-500') return 'flaky-500';
  return undefined;
}

function send(res, status, body, headers = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') return send(res, 200, stats);
  if (handleBatch(req, res, server.address().port)) return;
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 400, { error: { message: 'request body is not JSON' } });
    }
    const url = req.url ?? '';
    const protocol = url.endsWith('/chat/completions')
      ? 'openai'
      : url.endsWith('/v1/messages')
        ? 'anthropic'
        : url.includes(':generateContent')
          ? 'google'
          : undefined;
    if (!protocol) return send(res, 404, { error: { message: `no route ${url}` } });
    const model = protocol === 'google' ? decodeURIComponent(/models\/([^:]+):/.exec(url)[1]) : body.model;
    // Calls a batch makes through this endpoint (batch-api.mjs) are counted there, not here.
    if (!req.headers['x-batch-internal']) {
      stats.requests++;
      stats.byModel[model] = (stats.byModel[model] ?? 0) + 1;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).map(([k, v]) => [k, /authorization|api-key/.test(k) ? `<${String(v).length} characters>` : v]),
    );
    stats.bodies.push({ protocol, url, headersSeen: Object.keys(req.headers), headers, body });
    const google429 = {
      error: {
        code: 429,
        message: 'Resource has been exhausted (e.g. check quota).',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }],
      },
    };
    if (stats.bodies.length > 50) stats.bodies.shift();
    if (requiredKey) {
      const given = (req.headers.authorization ?? '').replace(/^Bearer /, '') || req.headers['x-api-key'] || req.headers['x-goog-api-key'];
      if (given !== requiredKey) return send(res, 401, { error: { message: 'invalid api key' } });
    }
    if (model === 'unknown-model') return send(res, 404, { error: { message: 'model not found' } });
    // A careless server echoing the key it was sent (a check that errors never show it, even in part).
    const echoed = /^echo-key-(500-(\d+)|badjson|reply)$/.exec(model);
    if (echoed) {
      const key = (req.headers.authorization ?? '').replace(/^Bearer /, '') || req.headers['x-api-key'] || 'NO-KEY';
      if (echoed[1] === 'reply')
        return send(res, 200, {
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: `Answer: A (sent with ${key})` }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 40, completion_tokens: 5 },
        });
      if (echoed[1] === 'badjson') return send(res, 200, `{"choices": ${key} broken`);
      return send(res, 500, { error: { message: `${'x'.repeat(Number(echoed[2]))}${key} was used` } });
    }
    const f = fault(model, body);
    stats.log.push({ model, at: Date.now(), outcome: f ?? 'answer' });
    if (stats.log.length > 200) stats.log.shift();
    if (f?.startsWith('rl:')) {
      const ms = f.slice(3);
      const headers = ms === 'none' ? {} : { 'retry-after-ms': ms, 'retry-after': String(Math.ceil(Number(ms) / 1000)) };
      return send(res, 429, { error: { message: 'rate limited' } }, headers);
    }
    if (f === 'flaky-429' && protocol === 'google') return send(res, 429, google429);
    if (f === 'flaky-429') return send(res, 429, { error: { message: 'rate limited' } }, { 'retry-after': '1' });
    if (f === 'flaky-500') return send(res, 500, { error: { message: 'internal error' } });
    if (f === 'hang') return; // never answer
    if (f === 'reset') return req.socket.destroy();
    if (f === 'stall') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.write('{"id": "stalled", "choices": [');
    }
    if (f === 'malformed') return send(res, 200, '{"choices": [ this is not json');
    if (f === 'bad-shape') return send(res, 200, { object: 'nothing here' });

    const messages =
      protocol === 'google'
        ? (body.contents ?? []).map((c) => ({ role: c.role, content: c.parts.map((p) => ({ text: p.text })) }))
        : (body.messages ?? []);
    const plain = answerFor(model, lastUserText(messages));
    const allText = messages.map((m) => textOf(m.content)).join('');
    const firstText = messages.length ? textOf(messages[0].content) : '';
    let reply;
    if (protocol === 'openai') {
      const r = openAiReasoning(model, body);
      const bad = r.error ?? checkStrictSchema(body.response_format);
      if (bad) return send(res, bad.status, bad.body);
      const schema = body.response_format?.type === 'json_schema' ? body.response_format.json_schema.schema : undefined;
      const text = schema ? structuredReply(schema, plain) : plain;
      const limit = body.max_completion_tokens ?? body.max_tokens ?? Number.POSITIVE_INFINITY;
      const cut = r.reasoningTokens > 0 && limit < r.reasoningTokens + 3;
      const reasoningTokens = Math.min(r.reasoningTokens, limit);
      const cached = implicitCachedTokens(firstText);
      const promptTokens = allText.length >= 4096 ? tokens(allText.length) : 40;
      const completionTokens = cut ? limit : reasoningTokens + 3;
      const message = { role: 'assistant', content: cut ? '' : text };
      // Servers of open reasoning models return the reasoning beside the answer.
      if (/deepseek-r1|qwq/.test(model)) message.reasoning_content = 'The story says the marble was moved while she was away.';
      if (model === 'teacher-reasoner') message.reasoning_content = teacherReasoning(lastUserText(messages));
      reply = () =>
        send(res, 200, {
          id: 'chatcmpl-test',
          object: 'chat.completion',
          model,
          choices: [
            {
              index: 0,
              message,
              finish_reason: cut ? 'length' : 'stop',
              logprobs: body.logprobs ? { content: text.split(/(?= )/).map((t) => ({ token: t, logprob: -0.25 })) } : null,
            },
          ],
          usage: {
            prompt_tokens: promptTokens,
            completion_tokens: completionTokens,
            total_tokens: promptTokens + completionTokens,
            prompt_tokens_details: { cached_tokens: cached },
            completion_tokens_details: { reasoning_tokens: reasoningTokens },
          },
        });
    } else if (protocol === 'anthropic') {
      const t = anthropicThinking(body);
      if (t.error) return send(res, t.error.status, t.error.body);
      const cache = anthropicCache(body);
      const tool = body.tools?.[0];
      const content = [];
      if (t.thinkingTokens)
        content.push({ type: 'thinking', thinking: `I weigh who saw the move (${t.thinkingTokens} tokens).`, signature: 'sig-test' });
      const cut = body.max_tokens < t.thinkingTokens + 4;
      if (!cut && tool)
        content.push({ type: 'tool_use', id: 'toolu_test', name: tool.name, input: JSON.parse(structuredReply(tool.input_schema, plain)) });
      else if (!cut) content.push({ type: 'text', text: plain });
      const cachedAny = cache.read + cache.written > 0;
      reply = () =>
        send(res, 200, {
          id: 'msg-test',
          type: 'message',
          role: 'assistant',
          model,
          content,
          stop_reason: cut ? 'max_tokens' : tool ? 'tool_use' : 'end_turn',
          usage: {
            input_tokens: cachedAny ? cache.total - cache.read - cache.written : 41,
            output_tokens: cut ? body.max_tokens : t.thinkingTokens + 4,
            cache_creation_input_tokens: cache.written,
            cache_read_input_tokens: cache.read,
          },
        });
    } else {
      // Gemini takes images and videos inline, by media type; anything else is refused as the API does.
      const inline = (body.contents ?? []).flatMap((c) => c.parts ?? []).filter((p) => p.inlineData);
      const refused = inline.find((p) => !GEMINI_INLINE_TYPES.has(p.inlineData.mimeType) || !p.inlineData.data);
      if (refused)
        return send(res, 400, {
          error: { code: 400, message: `Unsupported MIME type: ${refused.inlineData.mimeType}`, status: 'INVALID_ARGUMENT' },
        });
      const config = body.generationConfig ?? {};
      const g = geminiThinking(model, config);
      const bad = g.error ?? checkGeminiSchema(config.responseSchema);
      if (bad) return send(res, bad.status, bad.body);
      const text = config.responseSchema ? structuredReply(config.responseSchema, plain) : plain;
      const limit = config.maxOutputTokens ?? Number.POSITIVE_INFINITY;
      const cut = g.thinkingTokens > 0 && limit < g.thinkingTokens + 5;
      const thoughts = Math.min(g.thinkingTokens, limit);
      const parts = [];
      if (g.includeThoughts && thoughts) parts.push({ text: '**Tracking beliefs** She did not see the move.', thought: true });
      if (!cut) parts.push({ text });
      const cached = implicitCachedTokens(firstText);
      const usageMetadata = { promptTokenCount: allText.length >= 4096 ? tokens(allText.length) : 42, candidatesTokenCount: cut ? 0 : 5 };
      if (thoughts) usageMetadata.thoughtsTokenCount = thoughts;
      if (cached) usageMetadata.cachedContentTokenCount = cached;
      reply = () =>
        send(res, 200, {
          candidates: [{ content: parts.length ? { role: 'model', parts } : { role: 'model' }, finishReason: cut ? 'MAX_TOKENS' : 'STOP' }],
          usageMetadata,
          modelVersion: model,
        });
    }
    const slow = /^(?:judge-)?slow-(\d+)$/.exec(model);
    if (slow) setTimeout(reply, Number(slow[1]));
    else reply();
  });
});

server.keepAliveTimeout = 60_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
