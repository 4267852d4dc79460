// bench/runner: MCQ trials per second through mindscope (store and cache on) against a local
// OpenAI-compatible server that answers at once, beside a same-body fetch loop (a plain loop
// sending byte-identical requests with the built-in fetch at the same concurrency), in
// interleaved rounds: best and median of each, and their ratio; a ceiling (the same bodies
// through node:http with nothing else done: the most any client gets from this server here);
// the store's bytes per trial;
// then peak memory at 5,000 and 50,000 trials. mindscope makes one call through its model
// before its clock starts, as the loop's check of the server's last requests (a fetch) warms
// the built-in fetch: neither side times loading its HTTP client (and mindscope its SDK).
// Each arm runs a full garbage collection just before its clock starts, so that no arm's
// timed window pays for collecting another's set-up (a generated suite, bodies built beforehand).
// With --promptfoo DIR (a folder where promptfoo is installed, outside the repository), promptfoo
// sends the same requests to the same server as one more arm of each round (its loading and
// set-up are not timed, as mindscope's are not); a folder without promptfoo is skipped, saying so.
//
//   npm run build && node bench/runner.mjs [--trials 5000] [--concurrency 64] [--rounds 3] [--quick] [--promptfoo /tmp/pf] [--before OTHER/dist] [--instructions] [--smoke]
//
// --instructions: after the rounds, mindscope's arm, the ceiling's and --before's run once more
// each under valgrind's callgrind, counting the instructions of their timed windows
// (instruction-count.mjs): a ratio to the ceiling that repeats on a shared machine.
//
// --smoke: 200 trials, one round, no end-to-end or memory runs: a check that the bench runs
// (seconds); it records nothing.
//
// Each measurement runs in a child process of its own so that peak RSS is its own. The machine's
// load (uptime) is printed beside the figures: on a shared machine they move with it.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { countedInstructions, instructionWindow, valgrindAvailable, valgrindCommand } from './instruction-count.mjs';
import { keepAliveAgent, postJson } from './node-http-post.mjs';
import ownPeakRss from './own-peak-rss.cjs';
import { recordPerformance } from './performance-table.mjs';

const { ownPeakRssKiB } = ownPeakRss;

const here = fileURLToPath(new URL('.', import.meta.url));
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};

async function child(mode, url, n, replicates, concurrency, beforeDist) {
  let maxHeap = 0;
  setInterval(() => (maxHeap = Math.max(maxHeap, process.memoryUsage().heapUsed)), 50).unref();
  // `before` is mindscope from another build (--before DIST); the loop uses this build's encoder.
  const dist = mode === 'before' ? pathToFileURL(`${resolve(beforeDist)}/`).href : new URL('../dist/', import.meta.url).href;
  const { evaluate, openStore, createModel, loadTasks, parseRunSpec } = await import(`${dist}index.js`);
  const { generateTomItems } = await import(`${dist}suites/index.js`);
  const { buildMcqMessages, DEFAULT_MCQ_TEMPLATE } = await import(`${dist}protocols/index.js`);
  const { runEvaluation } = await import(`${dist}runner/index.js`);
  const { DEFAULT_SETTINGS } = await import(`${dist}core/index.js`);
  const spec = `openai-compatible:${url}/v1#ok`;
  let elapsed;
  let trials;
  let cpu0;
  const extra = {};
  if (mode === 'bare' || mode === 'raw') {
    // The bodies mindscope sends, byte for byte (its provider's encoder, serialised as the SDK
    // does), built beforehand; the loop only sends them and reads the replies.
    const items = generateTomItems({ count: n, seed: 1 });
    const wire = createModel(spec).wire;
    const bodies = [];
    for (let r = 0; r < replicates; r++) {
      for (const item of items) {
        const options = item.payload.options.map((text, i) => ({ label: 'ABCDEFGH'[i], text }));
        const messages = buildMcqMessages(item, options, DEFAULT_MCQ_TEMPLATE);
        bodies.push(JSON.stringify(wire.encode({ messages, settings: DEFAULT_SETTINGS, timeoutMs: 60_000 })));
      }
    }
    // The last requests the server kept are those of the run before this one: when mindscope's,
    // they must be among these bodies, byte for byte (as JSON: the server keeps them parsed).
    const mine = new Set(bodies.map((b) => JSON.stringify(JSON.parse(b))));
    const seen = (await (await fetch(`${url}/stats`)).json()).bodies.map((b) => JSON.stringify(b.body));
    extra.previousBodiesChecked = seen.length;
    extra.previousBodiesSame = seen.filter((b) => mine.has(b)).length;
    // The ceiling (raw): node:http on a keep-alive agent, the reply parsed, nothing else. No
    // client does less per call, so its rate is the most this server and machine give any client.
    const agent = keepAliveAgent(concurrency);
    const send = mode === 'bare' ? fetchJson : (href, body) => postJson(agent, href, { 'content-type': 'application/json' }, body);
    let next = 0;
    collectSetUpGarbage();
    await instructionWindow('start');
    cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < bodies.length) {
          const json = await send(`${url}/v1/chat/completions`, bodies[next++]);
          if (!json.choices?.[0]?.message) throw new Error('bad response');
        }
      }),
    );
    elapsed = performance.now() - t0;
    trials = bodies.length;
  } else {
    // The suite is generated before the clock starts, as the bare loop builds its bodies first;
    // the end-to-end figure (generation included) is printed separately.
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-bench-'));
    const store = await openStore(join(dir, 'bench.db'));
    if (mode === 'mindscope-e2e') {
      collectSetUpGarbage();
      await instructionWindow('start');
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
      // One call first, as the loop's first fetch (/stats) warms the built-in fetch: the clock
      // then times trials, not loading the SDK and the HTTP client.
      const model = createModel(spec);
      await model.chat({ messages: [{ role: 'user', content: 'warm-up' }], settings: DEFAULT_SETTINGS, timeoutMs: 60_000 });
      collectSetUpGarbage();
      await instructionWindow('start');
      cpu0 = process.cpuUsage();
      const t0 = performance.now();
      const r = await runEvaluation({
        store,
        runId: 'bench',
        config: {},
        tasks,
        subjects: [{ model, settings: DEFAULT_SETTINGS }],
        replicates,
        seed: 1,
        calls: { store, concurrency, timeoutMs: 60_000 },
      });
      elapsed = performance.now() - t0;
      trials = r.done;
      if (r.failed || r.done !== n * replicates)
        throw new Error(`expected ${n * replicates} trials, got ${r.done} done and ${r.failed} failed`);
    }
    await store.close();
    extra.storeBytesPerTrial = statSync(join(dir, 'bench.db')).size / trials;
    rmSync(dir, { recursive: true, force: true });
  }
  await instructionWindow('end');
  const cpu = process.cpuUsage(cpu0);

  const cpuMsPerTrial = (cpu.user + cpu.system) / 1000 / trials;
  process.stdout.write(
    `${JSON.stringify({ mode, trials, seconds: elapsed / 1000, perSecond: (trials / elapsed) * 1000, cpuMsPerTrial, peakRssMiB: ownPeakRssKiB() / 1024, peakHeapMiB: maxHeap / 2 ** 20, ...extra })}\n`,
  );
}

/**
 * A full collection before an arm's clock starts (children run with --expose-gc): the garbage of
 * its set-up (a generated suite, the bodies built beforehand) is then not collected inside the
 * timed window of one arm and outside another's. What the trials themselves leave is still timed.
 */
function collectSetUpGarbage() {
  globalThis.gc?.();
}

/** The same-body loop's request: the built-in fetch, the reply read as JSON. */
async function fetchJson(href, body) {
  const res = await fetch(href, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  return res.json();
}

/** promptfoo (installed in `dir`, outside the repository) sending the same MCQ prompts to the same server. */
async function promptfooChild(url, n, concurrency, dir) {
  const { createRequire } = await import('node:module');
  const require = createRequire(join(dir, 'package.json'));
  const version = JSON.parse(readFileSync(join(dir, 'node_modules', 'promptfoo', 'package.json'), 'utf8')).version;
  const promptfoo = (await import(require.resolve('promptfoo'))).default;
  const { generateTomItems } = await import('../dist/suites/index.js');
  const { buildMcqMessages, DEFAULT_MCQ_TEMPLATE } = await import('../dist/protocols/index.js');
  const tests = generateTomItems({ count: n, seed: 1 }).map((item) => {
    const options = item.payload.options.map((text, i) => ({ label: 'ABCDEFGH'[i], text }));
    return { vars: { messages: buildMcqMessages(item, options, DEFAULT_MCQ_TEMPLATE) } };
  });
  collectSetUpGarbage();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const summary = await promptfoo.evaluate(
    {
      prompts: ['{{ messages | dump | safe }}'],
      providers: [{ id: 'openai:chat:ok', config: { apiBaseUrl: `${url}/v1`, apiKey: 'none', temperature: 0, max_tokens: 256 } }],
      tests,
      writeLatestResults: false,
    },
    { maxConcurrency: concurrency, cache: false, showProgressBar: false },
  );
  const elapsed = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const results = summary.results ?? (await summary.toEvaluateSummary()).results;
  const ok = results.filter((r) => !r.error && r.response?.output).length;
  if (ok !== n) throw new Error(`promptfoo: ${ok} of ${n} requests answered`);
  process.stdout.write(
    `${JSON.stringify({ mode: 'promptfoo', version, trials: n, seconds: elapsed / 1000, perSecond: (n / elapsed) * 1000, cpuMsPerTrial: (cpu.user + cpu.system) / 1000 / n, peakRssMiB: ownPeakRssKiB() / 1024 })}\n`,
  );
  process.exit(0);
}

/** Run a child arm; `callgrind` (a file for its counts): under valgrind, its timed window counted. */
function runChild(args, nodeFlags = [], callgrind = undefined) {
  return new Promise((resolve, reject) => {
    const nodeArgs = ['--expose-gc', ...nodeFlags, fileURLToPath(import.meta.url), '--child', ...args];
    const run = callgrind
      ? valgrindCommand(callgrind, nodeArgs, { window: true })
      : { command: process.execPath, args: nodeArgs, env: process.env };
    // promptfoo keeps its database and settings in a folder of its own, here a fresh one.
    const env = {
      ...run.env,
      PROMPTFOO_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'pf-')),
      PROMPTFOO_DISABLE_TELEMETRY: '1',
      PROMPTFOO_DISABLE_UPDATE: '1',
    };
    const p = spawn(run.command, run.args, {
      stdio: ['ignore', 'pipe', callgrind ? 'ignore' : 'inherit'],
      env,
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop())) : reject(new Error(`child ${args.join(' ')} exited ${code}`)),
    );
  });
}

async function main() {
  const smoke = process.argv.includes('--smoke');
  const n = Number(arg('trials', smoke ? 200 : 5000));
  const concurrency = Number(arg('concurrency', 64));
  const rounds = Number(arg('rounds', smoke ? 1 : 3));
  const quick = smoke || process.argv.includes('--quick');
  let promptfooDir = arg('promptfoo', undefined);
  if (promptfooDir && !existsSync(join(promptfooDir, 'node_modules', 'promptfoo', 'package.json'))) {
    console.log(`promptfoo is skipped: it is not installed in ${promptfooDir} (npm i --prefix ${promptfooDir} promptfoo)`);
    promptfooDir = undefined;
  }
  const beforeDist = arg('before', undefined);
  const server = spawn(process.execPath, [join(here, '..', 'tests', 'servers', 'model-server.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve) => createInterface({ input: server.stdout }).once('line', (l) => resolve(JSON.parse(l).port)));
  const url = `http://127.0.0.1:${port}`;
  try {
    const load = () =>
      `load average ${loadavg()
        .map((x) => x.toFixed(2))
        .join(', ')} on ${availableParallelism()} CPUs`;
    console.log(
      `bench/runner: ${n} MCQ trials, concurrency ${concurrency}, local OpenAI-compatible server, ${rounds} rounds (alternating); ${load()}`,
    );
    const results = { bare: [], mindscope: [], before: [], raw: [], promptfoo: [] };
    const modes = ['bare', 'mindscope', 'raw', ...(beforeDist ? ['before'] : []), ...(promptfooDir ? ['promptfoo'] : [])];
    let previous;
    for (let r = 0; r < rounds; r++) {
      for (const mode of r % 2 === 0 ? modes : [...modes].reverse()) {
        const dirArg = mode === 'before' ? [beforeDist] : mode === 'promptfoo' ? [promptfooDir] : [];
        const res = await runChild([mode, url, String(n), '1', String(concurrency), ...dirArg]);
        results[mode].push(res);
        const note =
          (mode === 'bare' || mode === 'raw') && previous === 'mindscope'
            ? `; mindscope's last ${res.previousBodiesChecked} bodies: ${res.previousBodiesSame} byte-identical to the loop's`
            : mode === 'mindscope' || mode === 'before'
              ? `; store ${res.storeBytesPerTrial.toFixed(0)} B/trial`
              : '';
        const label = { bare: 'fetch loop', mindscope: 'mindscope ', before: 'before    ', raw: 'http loop ', promptfoo: 'promptfoo ' }[
          mode
        ];
        console.log(
          `  ${label} ${res.trials} trials in ${res.seconds.toFixed(2)} s = ${res.perSecond.toFixed(0)} trials/s, client CPU ${res.cpuMsPerTrial.toFixed(2)} ms/trial, peak RSS ${res.peakRssMiB.toFixed(0)} MiB${note}`,
        );
        previous = mode;
      }
    }
    const rates = (xs) => xs.map((x) => x.perSecond).sort((a, b) => a - b);
    const best = (xs) => Math.max(...rates(xs));
    const median = (xs) => {
      const v = rates(xs);
      return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    };
    const cpu = (xs) => median(xs.map((x) => ({ perSecond: x.cpuMsPerTrial })));
    console.log(
      `run phase, ${rounds} rounds: mindscope best ${best(results.mindscope).toFixed(0)}/s, median ${median(results.mindscope).toFixed(0)}/s; same-body fetch loop best ${best(results.bare).toFixed(0)}/s, median ${median(results.bare).toFixed(0)}/s; ratio best ${(best(results.mindscope) / best(results.bare)).toFixed(2)}, median ${(median(results.mindscope) / median(results.bare)).toFixed(2)} (target >= 0.90); client CPU (median) ${cpu(results.mindscope).toFixed(2)} vs ${cpu(results.bare).toFixed(2)} ms/trial; ${load()}`,
    );
    console.log(
      `ceiling: a node:http keep-alive loop sending the same bodies and parsing the replies, nothing else (no SDK, no store, no scoring): best ${best(results.raw).toFixed(0)}/s, median ${median(results.raw).toFixed(0)}/s, client CPU (median) ${cpu(results.raw).toFixed(2)} ms/trial; mindscope is ${(median(results.mindscope) / median(results.raw)).toFixed(2)} of it (median), the fetch loop ${(median(results.bare) / median(results.raw)).toFixed(2)}`,
    );
    const cpuBest = (xs) => Math.min(...xs.map((x) => x.cpuMsPerTrial));
    console.log(
      `client CPU per trial against the ceiling's (target <= 2): median ${(cpu(results.mindscope) / cpu(results.raw)).toFixed(2)}x (${cpu(results.mindscope).toFixed(3)} vs ${cpu(results.raw).toFixed(3)} ms), best ${(cpuBest(results.mindscope) / cpuBest(results.raw)).toFixed(2)}x (${cpuBest(results.mindscope).toFixed(3)} vs ${cpuBest(results.raw).toFixed(3)} ms)`,
    );
    const perSecond = (x) => `${x.toFixed(0)} trials/s`;
    const ms = (x) => `${x.toFixed(2)} ms`;
    const rows = [
      {
        figure: `MCQ trials per second, median of the rounds (${n} trials, concurrency ${concurrency}); peer: the same-body fetch loop, target ratio >= 0.90`,
        value: `${perSecond(median(results.mindscope))} (${rounds} rounds)`,
        peer: perSecond(median(results.bare)),
        ratio: median(results.mindscope) / median(results.bare),
      },
      {
        figure: 'MCQ trials per second, best round; peer: the same-body fetch loop',
        value: perSecond(best(results.mindscope)),
        peer: perSecond(best(results.bare)),
        ratio: best(results.mindscope) / best(results.bare),
      },
      {
        figure: 'client CPU per trial, median; peer: the same-body fetch loop',
        value: ms(cpu(results.mindscope)),
        peer: ms(cpu(results.bare)),
        ratio: cpu(results.mindscope) / cpu(results.bare),
      },
      {
        figure: 'client CPU per trial, median; peer: the node:http ceiling (sends and parses, nothing else), target ratio <= 2',
        value: ms(cpu(results.mindscope)),
        peer: ms(cpu(results.raw)),
        ratio: cpu(results.mindscope) / cpu(results.raw),
      },
      {
        figure: 'MCQ trials per second, median; peer: the node:http ceiling (sends and parses, nothing else)',
        value: perSecond(median(results.mindscope)),
        peer: perSecond(median(results.raw)),
        ratio: median(results.mindscope) / median(results.raw),
      },
      {
        figure: `SQLite store bytes per trial (${n} items, one trial each, median)`,
        value: `${median(results.mindscope.map((x) => ({ perSecond: x.storeBytesPerTrial }))).toFixed(0)} B`,
        peer: '',
        ratio: null,
      },
    ];
    if (beforeDist)
      rows.push({
        figure: `MCQ trials per second, median; peer: another build (${beforeDist})`,
        value: perSecond(median(results.mindscope)),
        peer: perSecond(median(results.before)),
        ratio: median(results.mindscope) / median(results.before),
      });
    if (beforeDist)
      console.log(
        `before (${beforeDist}): best ${best(results.before).toFixed(0)}/s, median ${median(results.before).toFixed(0)}/s, ratio to the loop best ${(best(results.before) / best(results.bare)).toFixed(2)}, median ${(median(results.before) / median(results.bare)).toFixed(2)}; client CPU (median) ${cpu(results.before).toFixed(2)} ms/trial`,
      );
    if (promptfooDir) {
      const pf = results.promptfoo;
      rows.push({
        figure: `MCQ trials per second, median; peer: promptfoo ${pf[0].version}, the same requests to the same server (target ratio >= 20)`,
        value: perSecond(median(results.mindscope)),
        peer: `${median(pf).toFixed(1)} trials/s`,
        ratio: median(results.mindscope) / median(pf),
      });
      console.log(
        `promptfoo (${pf[0].version}), the same requests to the same server, ${rounds} interleaved rounds: best ${best(pf).toFixed(1)}/s, median ${median(pf).toFixed(1)}/s, client CPU ${cpu(pf).toFixed(2)} ms/trial; mindscope is ${(best(results.mindscope) / best(pf)).toFixed(1)}x (best), ${(median(results.mindscope) / median(pf)).toFixed(1)}x (median) (target >= 20x); the node:http ceiling is ${(median(results.raw) / median(pf)).toFixed(1)}x (median); ${load()}`,
      );
    }
    if (process.argv.includes('--instructions')) rows.push(...(await countArms(url, n, concurrency, beforeDist)));
    if (quick) {
      recordPerformance('runner', rows);
      return;
    }
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
    rows.push(
      {
        figure: `end to end, generating the ${n} items included (as \`mindscope run\` does); peer: the best same-body fetch loop`,
        value: perSecond(e2e.perSecond),
        peer: perSecond(best(results.bare)),
        ratio: e2e.perSecond / best(results.bare),
      },
      {
        figure: `peak heap at ${m5.trials} trials; limit: the 128 MiB heap cap`,
        value: `${m5.peakHeapMiB.toFixed(0)} MiB (RSS ${m5.peakRssMiB.toFixed(0)} MiB)`,
        peer: '128 MiB',
        ratio: m5.peakHeapMiB / 128,
      },
      {
        figure: `peak heap at ${m50.trials} trials; limit: the 128 MiB heap cap`,
        value: `${m50.peakHeapMiB.toFixed(0)} MiB (RSS ${m50.peakRssMiB.toFixed(0)} MiB)`,
        peer: '128 MiB',
        ratio: m50.peakHeapMiB / 128,
      },
    );
    recordPerformance('runner', rows);
  } finally {
    server.kill();
  }
}

/**
 * --instructions: mindscope's arm and the ceiling's (and --before's) once more each, under
 * callgrind, their timed windows' instructions counted (instruction-count.mjs): a ratio that
 * repeats where CPU time does not. Skipped, saying so, without valgrind.
 */
async function countArms(url, n, concurrency, beforeDist) {
  if (!valgrindAvailable()) {
    console.log('instruction counts are skipped: valgrind (with callgrind_control) is not installed (apt-get install valgrind)');
    return [];
  }
  const dir = mkdtempSync(join(tmpdir(), 'mindscope-bench-callgrind-'));
  const counts = {};
  try {
    for (const mode of ['mindscope', 'raw', ...(beforeDist ? ['before'] : [])]) {
      const out = join(dir, `${mode}.out`);
      const res = await runChild([mode, url, String(n), '1', String(concurrency), ...(mode === 'before' ? [beforeDist] : [])], [], out);
      counts[mode] = countedInstructions(out) / res.trials;
      console.log(
        `  ${mode.padEnd(10)} ${res.trials} trials under callgrind: ${(counts[mode] / 1000).toFixed(0)} k instructions per trial`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const k = (x) => `${(x / 1000).toFixed(0)} k`;
  console.log(
    `instructions per trial against the ceiling's (target <= 2, as for CPU): ${(counts.mindscope / counts.raw).toFixed(2)}x (${k(counts.mindscope)} vs ${k(counts.raw)})`,
  );
  const rows = [
    {
      figure: `instructions per trial under callgrind (${n} trials, one run each); peer: the node:http ceiling, target ratio <= 2`,
      value: k(counts.mindscope),
      peer: k(counts.raw),
      ratio: counts.mindscope / counts.raw,
    },
  ];
  if (beforeDist) {
    console.log(
      `before (${beforeDist}): ${k(counts.before)} instructions per trial; this build / before ${(counts.mindscope / counts.before).toFixed(3)}`,
    );
    rows.push({
      figure: `instructions per trial under callgrind (${n} trials); peer: another build (${beforeDist})`,
      value: k(counts.mindscope),
      peer: k(counts.before),
      ratio: counts.mindscope / counts.before,
    });
  }
  return rows;
}

if (process.argv[2] === '--child') {
  const [, , , mode, url, n, replicates, concurrency, dir] = process.argv;
  if (mode === 'promptfoo') await promptfooChild(url, Number(n), Number(concurrency), dir);
  else await child(mode, url, Number(n), Number(replicates), Number(concurrency), dir);
} else {
  await main();
}
