// bench/http-clients: client CPU per request of the ways mindscope could send a model call, each
// sending the bench's MCQ bodies with the openai SDK's headers to the same local
// OpenAI-compatible server at concurrency 64: the built-in fetch, node:http with a keep-alive
// agent, undici's pools (its request API), the lean fetch the SDK clients use
// (src/models/lean-fetch.ts: over plain http, its HTTP/1.1 client, http1-client.ts), the
// stock openai SDK client over the lean fetch, and mindscope's openai provider (the SDK client
// with its lighter header handling, the reply cap, encoding the request and decoding the reply):
// what a model call costs the runner before its own work (cache, store, protocol).
// Each in a child process of its own, in interleaved rounds; best and median of each.
//
//   npm run build && node bench/http-clients.mjs [--requests 10000] [--rounds 3] [--smoke]
//
// --smoke: 300 requests, one round: a check that the bench runs; it records nothing.

import { spawn } from 'node:child_process';
import { keepAliveAgent, postJson } from './node-http-post.mjs';
import { recordPerformance } from './performance-table.mjs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const MODES = ['fetch', 'node-http', 'undici', 'lean-fetch', 'openai-sdk', 'provider'];
const CONCURRENCY = 64;

async function child(mode, base, n) {
  const { createModel } = await import('../dist/index.js');
  const { generateTomItems } = await import('../dist/suites/index.js');
  const { buildMcqMessages, DEFAULT_MCQ_TEMPLATE } = await import('../dist/protocols/index.js');
  const { DEFAULT_SETTINGS } = await import('../dist/core/index.js');
  const { leanFetch } = await import('../dist/models/lean-fetch.js');
  const { OpenAI } = await import('openai');
  const model = createModel(`openai-compatible:${base}/v1#ok`);
  const requests = generateTomItems({ count: n, seed: 1 }).map((item) => {
    const options = item.payload.options.map((text, i) => ({ label: 'ABCDEFGH'[i], text }));
    return { messages: buildMcqMessages(item, options, DEFAULT_MCQ_TEMPLATE), settings: DEFAULT_SETTINGS, timeoutMs: 60_000 };
  });
  const bodies = requests.map((r) => JSON.stringify(model.wire.encode(r)));
  // The headers the openai SDK sends (no key: no Authorization).
  const headers = {
    accept: 'application/json',
    'content-type': 'application/json',
    'user-agent': 'OpenAI/JS 6.49.0',
    'x-stainless-arch': 'x64',
    'x-stainless-lang': 'js',
    'x-stainless-os': 'Linux',
    'x-stainless-package-version': '6.49.0',
    'x-stainless-retry-count': '0',
    'x-stainless-runtime': 'node',
    'x-stainless-runtime-version': process.version,
    'x-stainless-timeout': '60',
  };
  const url = `${base}/v1/chat/completions`;
  let send;
  if (mode === 'fetch') send = async (body) => (await fetch(url, { method: 'POST', headers, body })).json();
  else if (mode === 'node-http') {
    // node:http with a keep-alive agent, the reply read whole (the lean fetch before undici).
    const agent = keepAliveAgent(256);
    send = (body) => postJson(agent, url, headers, body);
  } else if (mode === 'undici') {
    // undici's pools through its request API (what the lean fetch uses for https).
    const { Agent, request } = await import('undici');
    const dispatcher = new Agent({ connections: 256 });
    send = async (body) => (await request(url, { method: 'POST', headers, body, dispatcher })).body.json();
  } else if (mode === 'lean-fetch') send = async (body) => (await leanFetch(url, { method: 'POST', headers, body })).json();
  else if (mode === 'provider') {
    let k = 0;
    send = async () => {
      const r = await model.chat(requests[k++ % requests.length]);
      return { choices: [{ message: { content: r.text } }] };
    };
  } else {
    const client = new OpenAI({
      baseURL: `${base}/v1`,
      apiKey: 'no-key',
      defaultHeaders: { Authorization: null },
      organization: null,
      project: null,
      maxRetries: 0,
      logLevel: 'off',
      fetch: leanFetch,
    });
    send = (body) => client.chat.completions.create(JSON.parse(body), { timeout: 60_000 });
  }
  // Warm: connections open, code compiled.
  for (let i = 0; i < 200; i++) await send(bodies[i % bodies.length]);
  let next = 0;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) {
        const json = await send(bodies[next++]);
        if (!json.choices?.[0]?.message) throw new Error(`${mode}: bad response`);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  process.stdout.write(`${JSON.stringify({ mode, perSecond: n / seconds, cpuMs: (cpu.user + cpu.system) / 1000 / n })}\n`);
  process.exit(0);
}

function runChild(args) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [fileURLToPath(import.meta.url), '--child', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(`child ${args[0]} exited ${code}`)),
    );
  });
}

async function main() {
  const smoke = process.argv.includes('--smoke');
  const n = Number(arg('requests', smoke ? 300 : 10_000));
  const rounds = Number(arg('rounds', smoke ? 1 : 3));
  const server = spawn(process.execPath, [join(here, '..', 'tests', 'servers', 'model-server.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve) => createInterface({ input: server.stdout }).once('line', (l) => resolve(JSON.parse(l).port)));
  const base = `http://127.0.0.1:${port}`;
  try {
    console.log(
      `bench/http-clients: ${n} requests a run, concurrency ${CONCURRENCY}, ${rounds} rounds (alternating); load average ${loadavg()[0].toFixed(2)}`,
    );
    const results = Object.fromEntries(MODES.map((m) => [m, []]));
    for (let r = 0; r < rounds; r++) {
      for (const mode of r % 2 ? [...MODES].reverse() : MODES) {
        const res = await runChild([mode, base, String(n)]);
        results[mode].push(res);
        console.log(`  ${mode.padEnd(10)} ${res.perSecond.toFixed(0)} requests/s, client CPU ${res.cpuMs.toFixed(3)} ms a request`);
      }
    }
    const median = (xs) => {
      const v = [...xs].sort((a, b) => a - b);
      return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    };
    const medianCpu = (mode) => median(results[mode].map((x) => x.cpuMs));
    recordPerformance(
      'http-clients',
      MODES.filter((mode) => mode !== 'fetch').map((mode) => ({
        figure: `client CPU per request, ${mode}, median of the rounds (${n} requests, concurrency ${CONCURRENCY}); peer: the built-in fetch`,
        value: `${medianCpu(mode).toFixed(3)} ms (${rounds} rounds)`,
        peer: `${medianCpu('fetch').toFixed(3)} ms`,
        ratio: medianCpu(mode) / medianCpu('fetch'),
      })),
    );
    for (const mode of MODES) {
      const cpu = results[mode].map((x) => x.cpuMs);
      console.log(
        `${mode.padEnd(10)} client CPU best ${Math.min(...cpu).toFixed(3)}, median ${median(cpu).toFixed(3)} ms a request; median ${median(results[mode].map((x) => x.perSecond)).toFixed(0)} requests/s`,
      );
    }
  } finally {
    server.kill();
  }
}

if (process.argv[2] === '--child') await child(process.argv[3], process.argv[4], Number(process.argv[5]));
else await main();
