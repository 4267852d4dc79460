// The soak test's model server: an OpenAI-compatible chat endpoint that answers MCQ prompts
// with the first option ("Answer: A"), and with SOAK_CHAOS=1 injects faults per request attempt
// at seeded rates: 429 with and without Retry-After, 500, a 200 whose body is not JSON, a reply
// that never comes (hung), and a reset connection. A fault never changes what a successful
// answer says, so a run through the chaos gives the same matrix as a clean one.
//
//   PORT=N SOAK_CHAOS=1 SOAK_SEED=7 node bench/soak-server.mjs
// Prints {"port": N}; GET /stats returns { requests, answered, byFault, answeredBodies }.

import { createHash } from 'node:crypto';
import { createServer } from 'node:http';

const chaos = process.env.SOAK_CHAOS === '1';
const seed = process.env.SOAK_SEED ?? '7';
// Per attempt: cumulative thresholds over [0, 1).
const FAULTS = [
  ['429-retry-after', 0.01],
  ['429', 0.02],
  ['500', 0.04],
  ['malformed', 0.05],
  ['hang', 0.052],
  ['reset', 0.062],
];
const attempts = new Map();
const stats = { requests: 0, answered: 0, byFault: {}, distinctAnswered: 0 };
const answeredKeys = new Map();

function u01(key) {
  return createHash('sha256').update(key).digest().readUInt32BE(0) / 2 ** 32;
}

function answer(body) {
  const user = [...(body.messages ?? [])].reverse().find((m) => m.role === 'user');
  const text = typeof user?.content === 'string' ? user.content : '';
  const labels = [...text.matchAll(/^([A-Z])\. /gm)].map((m) => m[1]);
  return labels.length ? `Answer: ${labels[0]}` : 'Hello.';
}

const server = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/stats') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ...stats, distinctAnswered: answeredKeys.size }));
    return;
  }
  let raw = '';
  req.on('data', (c) => (raw += c));
  req.on('end', () => {
    stats.requests++;
    let body;
    try {
      body = JSON.parse(raw);
    } catch {
      res.writeHead(400).end('{"error":{"message":"bad json"}}');
      return;
    }
    const key = createHash('sha256').update(raw).digest('hex');
    const n = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, n);
    if (chaos) {
      const x = u01(`${seed}:${key}:${n}`);
      const f = FAULTS.find(([, t]) => x < t)?.[0];
      if (f) {
        stats.byFault[f] = (stats.byFault[f] ?? 0) + 1;
        if (f === '429-retry-after')
          return res.writeHead(429, { 'retry-after': '1', 'content-type': 'application/json' }).end('{"error":{"message":"rate limited"}}');
        if (f === '429') return res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{"message":"rate limited"}}');
        if (f === '500') return res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"internal"}}');
        if (f === 'malformed') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices": [ {');
        if (f === 'hang') return; // no answer; the client's time limit ends it
        if (f === 'reset') return req.socket.destroy();
      }
    }
    stats.answered++;
    answeredKeys.set(key, (answeredKeys.get(key) ?? 0) + 1);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'soak',
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: answer(body) }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: 3, total_tokens: 103 },
      }),
    );
  });
});
server.keepAliveTimeout = 5000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
