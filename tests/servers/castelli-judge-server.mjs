// A real HTTP server, run as a child process by tests, that answers OpenAI chat completions
// (POST /v1/chat/completions) as Castelli judges ({"intent", "approp"}) on an anchor battery.
// The judge prompt names the anchor ("subject anchor-<id>"); the server looks its expected
// intervals up in ANCHORS_FILE (the battery's YAML or JSON) and answers by the model's name:
//   faithful   the low end of each expected interval (Approp 2 where the anchor gives none)
//   over       Intent one above the top of its interval, capped at 5 (an over-attributing judge)
//   unstable   as faithful, but Approp alternates between the low end and two above it, capped
//              at 3, from one call on an anchor to the next (a judge that fails the SD gate)
// A prompt that names no known anchor gets Intent 0, Approp 0. GET /stats: calls per model.
// Prints {"port": N} first.

import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import YAML from 'yaml';

const anchors = new Map(YAML.parse(readFileSync(process.env.ANCHORS_FILE, 'utf8')).map((a) => [String(a.id), a.expected]));
const calls = {};
const seen = new Map();

function answer(model, prompt) {
  const id = /subject anchor-([\w-]+)/.exec(prompt)?.[1];
  const expected = id === undefined ? undefined : anchors.get(id);
  if (!expected) return { intent: 0, approp: 0 };
  const approp = expected.approp ? expected.approp[0] : 2;
  if (model === 'over') return { intent: Math.min(5, expected.intent[1] + 1), approp };
  if (model === 'unstable') {
    const n = seen.get(id) ?? 0;
    seen.set(id, n + 1);
    return { intent: expected.intent[0], approp: n % 2 ? Math.min(3, approp + 2) : approp };
  }
  return { intent: expected.intent[0], approp };
}

const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => {
    raw += c;
  });
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ calls }));
    }
    if (req.method !== 'POST' || !req.url.endsWith('/chat/completions')) {
      res.writeHead(404);
      return res.end();
    }
    const body = JSON.parse(raw);
    calls[body.model] = (calls[body.model] ?? 0) + 1;
    const prompt = body.messages
      .map((m) => (typeof m.content === 'string' ? m.content : m.content.map((p) => p.text ?? '').join('\n')))
      .join('\n');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: `c${calls[body.model]}`,
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(answer(body.model, prompt)) } }],
        usage: { prompt_tokens: 40, completion_tokens: 3, total_tokens: 43 },
      }),
    );
  });
});

server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => process.exit(0));
