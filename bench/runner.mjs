// bench/runner: MCQ trials per second through mindscope (store and cache on) against a local
// OpenAI-compatible server that answers at once, and a bare loop of the same HTTP requests at
// the same concurrency, measured in the same run; then peak memory at 5,000 and 50,000 trials.
//
//   npm run build && node bench/runner.mjs [--trials 5000] [--concurrency 64] [--rounds 2]
//
// Each measurement runs in a child process of its own so that peak RSS is its own.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};

async function child(mode, url, n, replicates, concurrency) {
  let maxHeap = 0;
  setInterval(() => (maxHeap = Math.max(maxHeap, process.memoryUsage().heapUsed)), 50).unref();
  const { evaluate, openStore, generateTomItems, buildMcqMessages, DEFAULT_MCQ_TEMPLATE } = await import('../dist/index.js');
  const spec = `openai-compatible:${url}/v1#ok`;
  let elapsed;
  let trials;
  let cpu0;
  if (mode === 'bare') {
    // The same requests mindscope sends: same prompts, same settings, same concurrency. The
    // messages are built beforehand; each request body is serialised in the loop, as any
    // client has to.
    const items = generateTomItems({ count: n, seed: 1 });
    const requests = [];
    for (let r = 0; r < replicates; r++) {
      for (const item of items) {
        const options = item.payload.options.map((text, i) => ({ label: 'ABCDEFGH'[i], text }));
        requests.push({ model: 'ok', messages: buildMcqMessages(item, options, DEFAULT_MCQ_TEMPLATE), temperature: 0, max_tokens: 256 });
      }
    }
    let next = 0;
    cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < requests.length) {
          const body = JSON.stringify(requests[next++]);
          const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          const json = await res.json();
          if (!json.choices?.[0]?.message) throw new Error('bad response');
        }
      }),
    );
    elapsed = performance.now() - t0;
    trials = requests.length;
  } else {
    // The suite is generated before the clock starts, as the bare loop builds its bodies first;
    // the end-to-end figure (generation included) is printed separately.
    const { loadTasks, parseRunSpec, runEvaluation, createModel, DEFAULT_SETTINGS } = await import('../dist/index.js');
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-bench-'));
    const store = openStore(join(dir, 'bench.db'));
    if (mode === 'mindscope-e2e') {
      cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await evaluate(
        { suites: ['generated-tom'], limit: n, seed: 1, trials: replicates, models: [spec] },
        { store, concurrency, timeoutMs: 60_000 },
      );
      elapsed = performance.now() - t0;
      trials = r.done;
      if (r.failed || r.done !== n * replicates)
        throw new Error(`expected ${n * replicates} trials, got ${r.done} done and ${r.failed} failed`);
    } else {
      const { tasks } = await loadTasks(parseRunSpec({ suites: ['generated-tom'], models: [spec], limit: n, seed: 1 }));
      cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await runEvaluation({
        store,
        runId: 'bench',
        config: {},
        tasks,
        subjects: [{ model: createModel(spec), settings: DEFAULT_SETTINGS }],
        replicates,
        seed: 1,
        calls: { store, concurrency, timeoutMs: 60_000 },
      });
      elapsed = performance.now() - t0;
      trials = r.done;
      if (r.failed || r.done !== n * replicates)
        throw new Error(`expected ${n * replicates} trials, got ${r.done} done and ${r.failed} failed`);
    }
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const cpu = process.cpuUsage(cpu0);
  const cpuMsPerTrial = (cpu.user + cpu.system) / 1000 / trials;
  process.stdout.write(
    `${JSON.stringify({ mode, trials, seconds: elapsed / 1000, perSecond: (trials / elapsed) * 1000, cpuMsPerTrial, peakRssMiB: process.resourceUsage().maxRSS / 1024, peakHeapMiB: maxHeap / 2 ** 20 })}\n`,
  );
}

function runChild(args, nodeFlags = []) {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [...nodeFlags, fileURLToPath(import.meta.url), '--child', ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(`child ${args.join(' ')} exited ${code}`)),
    );
  });
}

async function main() {
  const n = Number(arg('trials', 5000));
  const concurrency = Number(arg('concurrency', 64));
  const rounds = Number(arg('rounds', 3));
  const server = spawn(process.execPath, [join(here, '..', 'tests', 'servers', 'model-server.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve) => createInterface({ input: server.stdout }).once('line', (l) => resolve(JSON.parse(l).port)));
  const url = `http://127.0.0.1:${port}`;
  try {
    console.log(
      `bench/runner: ${n} MCQ trials, concurrency ${concurrency}, local OpenAI-compatible server, ${rounds} rounds (alternating)`,
    );
    const results = { bare: [], mindscope: [] };
    for (let r = 0; r < rounds; r++) {
      for (const mode of r % 2 === 0 ? ['bare', 'mindscope'] : ['mindscope', 'bare']) {
        const res = await runChild([mode, url, String(n), '1', String(concurrency)]);
        results[mode].push(res);
        console.log(
          `  ${mode.padEnd(9)} ${res.trials} trials in ${res.seconds.toFixed(2)} s = ${res.perSecond.toFixed(0)} trials/s, client CPU ${res.cpuMsPerTrial.toFixed(2)} ms/trial, peak RSS ${res.peakRssMiB.toFixed(0)} MiB`,
        );
      }
    }
    const best = (xs) => Math.max(...xs.map((x) => x.perSecond));
    const ratio = best(results.mindscope) / best(results.bare);
    console.log(
      `run phase, best of ${rounds}: mindscope ${best(results.mindscope).toFixed(0)}/s, bare loop ${best(results.bare).toFixed(0)}/s, ratio ${(ratio * 100).toFixed(1)}% (target >= 80%)`,
    );
    const e2e = await runChild(['mindscope-e2e', url, String(n), '1', String(concurrency)]);
    console.log(
      `end to end (generating the ${n} items included, as \`mindscope run\` does): ${e2e.perSecond.toFixed(0)} trials/s, ${((e2e.perSecond / best(results.bare)) * 100).toFixed(1)}% of the best bare loop`,
    );
    // Memory: the same heap cap for 5,000 and 50,000 trials (5,000 items x 10 replicates); V8
    // grows its heap lazily when it may, so peak RSS without a cap says little.
    const cap = ['--max-old-space-size=128'];
    const m5 = await runChild(['mindscope', url, String(n), '1', String(concurrency)], cap);
    const m50 = await runChild(['mindscope', url, String(n), '10', String(concurrency)], cap);
    console.log(
      `memory (heap capped at 128 MiB): ${m5.trials} trials peak heap ${m5.peakHeapMiB.toFixed(0)} MiB, RSS ${m5.peakRssMiB.toFixed(0)} MiB; ${m50.trials} trials peak heap ${m50.peakHeapMiB.toFixed(0)} MiB, RSS ${m50.peakRssMiB.toFixed(0)} MiB`,
    );
    console.log(`uncapped end-to-end run above: ${e2e.trials} trials, peak RSS ${e2e.peakRssMiB.toFixed(0)} MiB`);
  } finally {
    server.kill();
  }
}

if (process.argv[2] === '--child') {
  const [, , , mode, url, n, replicates, concurrency] = process.argv;
  await child(mode, url, Number(n), Number(replicates), Number(concurrency));
} else {
  await main();
}
