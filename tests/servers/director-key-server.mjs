// A real HTTP server, run as a child process by tests, that answers OpenAI chat completions
// (POST /v1/chat/completions) to Director-Task prompts from an answer key: KEY_FILE holds
// { models: { <model>: { <sha256 of the scene picture's data URL>: { a: "...", b: "..." } } } }.
// The scene is the first image part of the conversation; the prompt is (a) when the last user
// message asks which blocks the director can see, (b) otherwise (c.Q1 and c.Q2 get the same
// answers as a and b). A picture the key does not hold gets "Answer: none". GET /stats: calls
// per model. Prints {"port": N} first.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const key = JSON.parse(readFileSync(process.env.KEY_FILE, 'utf8'));
const calls = {};

const partsOf = (m) => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content);

function answer(model, messages) {
  const picture = messages.flatMap(partsOf).find((p) => p.type === 'image_url')?.image_url?.url ?? '';
  const last = [...messages].reverse().find((m) => m.role === 'user');
  const text = partsOf(last)
    .map((p) => p.text ?? '')
    .join(' ');
  const prompt = /Which blocks can the director see/.test(text) ? 'a' : 'b';
  const entry = key.models[model]?.[createHash('sha256').update(picture).digest('hex')];
  return entry ? `Answer: ${entry[prompt]}` : 'Answer: none';
}

const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => {
    raw += c;
  });
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    if (req.method === 'GET' && req.url === '/stats') return res.end(JSON.stringify({ calls }));
    if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
      res.statusCode = 404;
      return res.end('{}');
    }
    const body = JSON.parse(raw);
    calls[body.model] = (calls[body.model] ?? 0) + 1;
    res.end(
      JSON.stringify({
        id: `d${calls[body.model]}`,
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer(body.model, body.messages) } }],
        usage: { prompt_tokens: 100, completion_tokens: 4, total_tokens: 104 },
      }),
    );
  });
});

server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => process.exit(0));
