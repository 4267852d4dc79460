// A real HTTP server, run as a child process by tests, that answers Gemini generateContent
// (POST /v1beta/models/M:generateContent) as a subject describing an animated-triangles clip,
// with a description whose richness depends on how the clip was sent: the native video, N frames
// as separate pictures, or a grid of N frames (N read from the request's text) of a given size
// (read from the PNG's header). The description is made of the Castelli rubric's keywords, so
// that agent:keyword-judge scores it (Intent, Approp) exactly as FORMATS below says.
//
// Prompt tokens follow Gemini's accounting: 258 a picture up to 384 x 384, else 258 a 768 x 768
// tile; 263 a second of video (clips of 20 s); and one a word of text. GET /stats: the formats
// seen, in order. Prints {"port": N} first.

import { createServer } from 'node:http';

const INTENT = ['wants', 'tries', 'persuade', 'trick', 'pretends'];
const APPROP = ['triangle', 'door', 'house'];

/** (Intent, Approp) per format: native video, frames_N, or grid_N_WxH. */
const FORMATS = {
  video: [5, 3],
  frames_16: [3, 2],
  frames_32: [4, 2],
  frames_64: [4, 3],
  grid_16_1280x960: [4, 2],
  grid_32_2560x960: [3, 3],
  grid_64_2560x1920: [2, 2],
  grid_16_2560x1920: [4, 2],
  grid_64_5120x3840: [3, 2],
};

const seen = [];

function pngSize(base64) {
  const b = Buffer.from(base64.slice(0, 40), 'base64');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

function imageTokens([w, h]) {
  return w <= 384 && h <= 384 ? 258 : Math.ceil(w / 768) * Math.ceil(h / 768) * 258;
}

function describe(parts) {
  const text = parts
    .filter((p) => p.text)
    .map((p) => p.text)
    .join(' ');
  const words = (text.match(/\S+/g) ?? []).length;
  const video = parts.find((p) => p.inlineData?.mimeType?.startsWith('video/'));
  const images = parts.filter((p) => p.inlineData?.mimeType === 'image/png').map((p) => pngSize(p.inlineData.data));
  let format;
  let tokens = words;
  if (video) {
    format = 'video';
    tokens += 263 * 20;
  } else if (images.length > 1) {
    format = `frames_${images.length}`;
    tokens += images.reduce((n, s) => n + imageTokens(s), 0);
  } else {
    const n = /shows (\d+) frames/.exec(text)?.[1] ?? '?';
    format = `grid_${n}_${images[0][0]}x${images[0][1]}`;
    tokens += imageTokens(images[0]);
  }
  seen.push(format);
  const [intent, approp] = FORMATS[format] ?? [0, 0];
  return { text: `Seen: ${[...INTENT.slice(0, intent), ...APPROP.slice(0, approp)].join(' ')}.`, tokens };
}

const server = createServer((req, res) => {
  let raw = '';
  req.on('data', (c) => {
    raw += c;
  });
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    if (req.method === 'GET' && req.url === '/stats') return res.end(JSON.stringify({ seen }));
    if (req.method !== 'POST' || !req.url.includes(':generateContent')) {
      res.statusCode = 404;
      return res.end('{}');
    }
    const body = JSON.parse(raw);
    const { text, tokens } = describe(body.contents.flatMap((c) => c.parts));
    res.end(
      JSON.stringify({
        candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP' }],
        usageMetadata: { promptTokenCount: tokens, candidatesTokenCount: 5 },
      }),
    );
  });
});

server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
process.on('SIGTERM', () => process.exit(0));
