// A real HTTP server for StoryTurn illustration tests, run as a child process. It speaks two
// parts of OpenAI's API:
//   POST /v1/images/generations   a small PNG (1x1, its colour from the prompt and the request
//                                 count, so every drawing differs) as b64_json; by model:
//                                 painter      the PNG as b64_json
//                                 url-painter  a URL on this server that serves the PNG
//                                 not-a-png    b64_json of bytes that are no image
//                                 echo-key-400 HTTP 400 whose message quotes the key sent
//                                 refuse-first HTTP 400 (a safety refusal) for a story's first
//                                              scene (no earlier events), the PNG otherwise
//   POST /v1/chat/completions     the StoryTurn author "picture-storyteller": a story with two
//                                 image ids (one per condition) named after the prefix the
//                                 prompt asks for.
// With IMAGE_SERVER_KEY set, requests must carry that key as a bearer token or get 401.
// GET /stats returns { requests, images: [{ model, prompt, size, response_format, auth }] }
// (auth: whether a bearer token came, never its value). On start it prints {"port": N}.

import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { crc32, deflateSync } from 'node:zlib';

const KEY = process.env.IMAGE_SERVER_KEY;
const images = [];
const files = new Map();
let requests = 0;

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A 1x1 RGB PNG of the given colour. */
function png([r, g, b]) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const raw = Buffer.from([0, r, g, b]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function storyFor(prompt) {
  const prefix = /starting with "([^"]+)_"/.exec(prompt)?.[1] ?? 'story';
  return {
    mental_state: 'percept',
    setting: 'image-dependent',
    turns: [
      {
        story: 'Grandpa stands under an apple tree with three apples.',
        feedback: '',
        question: 'Which apple is the biggest?',
        image: `${prefix}_tree`,
        answer: 'big',
      },
      {
        story: 'Mia asks Grandpa for the big apple.',
        feedback: 'If right: Yes, the big one is biggest.; If wrong: Look again: the big one is biggest.',
        question: 'Which apple will Grandpa pick?',
        image: `${prefix}_right;${prefix}_wrong`,
        answer: 'medium',
      },
    ],
  };
}

const send = (res, status, body) => {
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify(body));
};

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'GET' && req.url === '/stats') return send(res, 200, { requests, images });
    if (req.method === 'GET' && files.has(req.url)) {
      res.writeHead(200, { 'content-type': 'image/png', connection: 'close' });
      return res.end(files.get(req.url));
    }
    requests++;
    const auth = req.headers.authorization;
    if (KEY && auth !== `Bearer ${KEY}`) return send(res, 401, { error: { message: 'invalid api key' } });
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
    if (req.url === '/v1/chat/completions') {
      const prompt = body.messages.at(-1).content;
      return send(res, 200, {
        id: 'c',
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(storyFor(prompt)) } }],
        usage: { prompt_tokens: 10, completion_tokens: 10 },
      });
    }
    if (req.url !== '/v1/images/generations') return send(res, 404, { error: { message: `no route ${req.url}` } });
    images.push({ model: body.model, prompt: body.prompt, size: body.size, response_format: body.response_format, auth: !!auth });
    if (body.model === 'echo-key-400') return send(res, 400, { error: { message: `no such model for key ${auth?.slice(7)}` } });
    if (body.model === 'refuse-first' && body.prompt.includes('(Context): (none) CURRENT SCENE:'))
      return send(res, 400, { error: { message: 'rejected by the safety system' } });
    const digest = createHash('sha256').update(`${body.prompt}#${images.length}`).digest();
    const bytes = png([digest[0], digest[1], digest[2]]);
    if (body.model === 'not-a-png')
      return send(res, 200, { created: 1, data: [{ b64_json: Buffer.from('GIF-ish text').toString('base64') }] });
    if (body.model === 'url-painter') {
      const path = `/files/${images.length}.png`;
      files.set(path, bytes);
      return send(res, 200, { created: 1, data: [{ url: `http://127.0.0.1:${server.address().port}${path}` }] });
    }
    return send(res, 200, { created: 1, data: [{ b64_json: bytes.toString('base64'), revised_prompt: 'as asked' }] });
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
