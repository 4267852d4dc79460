// A real HTTP server, run as a child process by tests, that answers OpenAI chat completions
// (POST /v1/chat/completions) within a context window and rejects longer prompts the way its
// server does, with the endpoints a client reads the window and counts tokens through.
//
// Its tokenizer: one token per whitespace-separated word; its chat template wraps each message as
// "<|role|> content <|end|>" and adds "<|assistant|>", so a prompt's tokens are its words, two
// per message and one more. A request whose prompt tokens plus max_tokens pass the window is
// refused with HTTP 400.
//
// SERVER_KIND (environment):
//   vllm      GET /v1/models reports max_model_len; POST /tokenize takes {model, messages,
//             add_generation_prompt} (or {model, prompt}) and returns {count, max_model_len,
//             tokens}; the 400 is vLLM's ("This model's maximum context length is N tokens. ...").
//   llamacpp  GET /v1/models reports no length, GET /props default_generation_settings.n_ctx;
//             POST /apply-template {messages} -> {prompt}; POST /tokenize {content} -> {tokens};
//             the 400 is llama.cpp's exceed_context_size_error.
//   plain     no /tokenize, no length anywhere (a client must be given the window, and estimate).
// CONTEXT_LIMIT: the window in tokens (default 200). GET /stats: the chat requests seen (prompt
// tokens, max_tokens, the last message's first words, status). Prints {"port": N} first.

import { createServer } from 'node:http';

const KIND = process.env.SERVER_KIND || 'vllm';
const LIMIT = Number(process.env.CONTEXT_LIMIT || 200);
const seen = [];

const words = (text) => (text.match(/\S+/g) ?? []).length;
const textOf = (content) => (typeof content === 'string' ? content : content.map((p) => p.text ?? '').join('\n'));
const template = (messages) => `${messages.map((m) => `<|${m.role}|> ${textOf(m.content)} <|end|>`).join(' ')} <|assistant|>`;
const tokenIds = (text) => (text.match(/\S+/g) ?? []).map((w) => w.length);

function send(res, status, body) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

function tooLong(promptTokens, maxTokens) {
  if (KIND === 'llamacpp')
    return {
      error: {
        code: 400,
        message: `the request exceeds the available context size (${promptTokens} prompt tokens, ${LIMIT} in the context), try increasing it`,
        type: 'exceed_context_size_error',
        n_prompt_tokens: promptTokens,
        n_ctx: LIMIT,
      },
    };
  return {
    object: 'error',
    message: `This model's maximum context length is ${LIMIT} tokens. However, you requested ${promptTokens + maxTokens} tokens (${promptTokens} in the messages, ${maxTokens} in the completion). Please reduce the length of the messages or completion.`,
    type: 'BadRequestError',
    param: null,
    code: 400,
  };
}

const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => {
    raw += c;
  });
  req.on('end', () => {
    const body = raw ? JSON.parse(raw) : {};
    const path = req.url.split('?')[0];
    if (req.method === 'GET' && path === '/stats') return send(res, 200, { requests: seen });
    if (req.method === 'GET' && path === '/v1/models')
      return send(res, 200, {
        object: 'list',
        data: [{ id: 'm', object: 'model', ...(KIND === 'vllm' ? { max_model_len: LIMIT } : {}) }],
      });
    if (req.method === 'GET' && path === '/props' && KIND === 'llamacpp')
      return send(res, 200, { default_generation_settings: { n_ctx: LIMIT }, total_slots: 1 });
    if (req.method === 'POST' && path === '/tokenize' && KIND === 'vllm') {
      const text = body.messages ? template(body.messages) : String(body.prompt ?? '');
      const tokens = tokenIds(text);
      return send(res, 200, { count: tokens.length, max_model_len: LIMIT, tokens });
    }
    if (req.method === 'POST' && path === '/apply-template' && KIND === 'llamacpp')
      return send(res, 200, { prompt: template(body.messages ?? []) });
    if (req.method === 'POST' && path === '/tokenize' && KIND === 'llamacpp')
      return send(res, 200, { tokens: tokenIds(String(body.content ?? '')) });
    if (req.method === 'POST' && path === '/v1/chat/completions') {
      const promptTokens = words(template(body.messages));
      const maxTokens = body.max_tokens ?? body.max_completion_tokens ?? 16;
      const last = textOf(body.messages.at(-1).content);
      const entry = { promptTokens, maxTokens, start: last.split(/\s+/).slice(0, 3).join(' '), status: 200 };
      seen.push(entry);
      if (promptTokens + maxTokens > LIMIT) {
        entry.status = 400;
        return send(res, 400, tooLong(promptTokens, maxTokens));
      }
      return send(res, 200, {
        id: 'c',
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: 'Answer: A' }, finish_reason: 'stop' }],
        usage: { prompt_tokens: promptTokens, completion_tokens: 2, total_tokens: promptTokens + 2 },
      });
    }
    send(res, 404, { error: { message: `no route ${req.method} ${path}` } });
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
