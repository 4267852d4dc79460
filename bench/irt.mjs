// bench/irt: item response theory at scale, on simulated panels.
//   1. Speed: 2PL, 3PL (c fixed at 0.25) and bifactor calibrations of 300 models x 2,860 and
//      16,774 items (bifactor: 2,860), CPU time of one thread, in interleaved rounds beside the
//      same estimators as vectorised NumPy (bench/irt_peer.py, dense BLAS, one thread), whose
//      estimates are compared with ours; then standard errors, the panel's EAP abilities and item
//      fit once at the largest 2PL size.
//   2. Recovery at 27, 100 and 300 models (1,000 items): correlation, bias and RMSE against the
//      truth (rescaled to the panel's ability mean and SD).
//   3. Leave-one-model-out tiny benchmarks (100 of 2,860 items, ToMBench's size and categories):
//      each held-out model's full-suite accuracy estimated from a bank calibrated without it,
//      against 100 random items; intervals with 20 parameter draws (the default); at 27 models
//      (all held out) and 300 (every third, or all with --all).
//   4. Adaptive tests on the 300-model panel: items used to reach SE 0.3 and 0.25, agreement
//      with full-suite abilities, accuracy error.
//
//   npm run build && node bench/irt.mjs [--smoke] [--rounds 3] [--models 2pl,3pl,bifactor]
//     [--items 2860,16774] [--all] [--python python3] [--no-peer] [--only 1,2,3,4] [--dist DIR]
//   --smoke: tiny sizes, one round, every figure, in seconds; nothing written to docs/performance.md.
//   --dist: the build to measure (default dist/; another build's dist gives its figures).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pythonInterpreter } from './python-interpreter.mjs';

import { recordPerformance } from './performance-table.mjs';

const argv = process.argv.slice(2);
const argValue = (flag, fallback) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : fallback);
const smoke = argv.includes('--smoke');
// The IRT core is in mindscope/stats (calibration, abilities, fit), banks, selection, estimation
// and simulation in mindscope/analysis; the matrix writer in mindscope itself.
const dist = argv.includes('--dist') ? pathToFileURL(`${resolve(argValue('--dist'))}/`).href : new URL('../dist/', import.meta.url).href;
const lib = {
  ...(await import(`${dist}index.js`)),
  ...(await import(`${dist}stats/index.js`)),
  ...(await import(`${dist}analysis/index.js`)),
};
const rows = [];
const here = fileURLToPath(new URL('.', import.meta.url));
const python = pythonInterpreter(argv.includes('--python') ? argv[argv.indexOf('--python') + 1] : 'python3');
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1].split(',').map(Number) : [1, 2, 3, 4];
const want = (n) => only.includes(n);
/** Why the NumPy peer cannot run here, or null when it can. */
function numpyMissing() {
  const r = spawnSync(python, ['-c', 'import numpy'], { encoding: 'utf8' });
  if (r.error) return `${python} not found`;
  return r.status === 0 ? null : `NumPy is not installed for ${python}`;
}
const TOMBENCH = smoke
  ? { belief: 40, desire: 20, emotion: 20, intention: 20, knowledge: 20, 'non-literal': 30 }
  : { belief: 882, desire: 180, emotion: 420, intention: 340, knowledge: 290, 'non-literal': 748 };

const sec = (ms) => `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;
// CPU time of this process (user + system), to read "one core" on a shared machine.
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const pp = (x) => (100 * x).toFixed(2);
const mean = (x) => x.reduce((s, v) => s + v, 0) / x.length;
function corr(x, y) {
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) ** 2;
    syy += (y[i] - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}
function standardised(truth) {
  const m = mean(truth.theta);
  const sd = Math.sqrt(mean(truth.theta.map((t) => (t - m) ** 2)));
  return { theta: truth.theta.map((t) => (t - m) / sd), a: truth.a.map((a) => a * sd), b: truth.b.map((b) => (b - m) / sd) };
}
const stats = (est, truth) => {
  const d = Array.from(est, (v, i) => v - truth[i]);
  return `r ${corr(Array.from(est), truth).toFixed(3)}, bias ${mean(d).toFixed(3)}, RMSE ${Math.sqrt(mean(d.map((v) => v * v))).toFixed(3)}`;
};

// ---- 1. Speed, in interleaved rounds beside the NumPy peer ----
// One round: our calibration (CPU time of this process), then the peer's (its own CPU time of
// the EM, reading excluded), for each model and size; best and median over the rounds.
const median = (x) => {
  const s = [...x].sort((p, q) => p - q);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmtItems = (n) => n.toLocaleString('en-US');
function speedCase(kind, models, nItems) {
  const perCat = Math.floor(nItems / 6);
  const items = {
    belief: nItems - 5 * perCat,
    desire: perCat,
    emotion: perCat,
    intention: perCat,
    knowledge: perCat,
    'non-literal': perCat,
  };
  const model = kind === '2pl' ? '2pl' : kind === '3pl' ? '3pl' : 'bifactor';
  const panel = lib.simulateIrtPanel({
    models,
    suites: [{ name: 'sim', items }],
    model,
    seed: 1,
    ...(kind === '3pl' ? { guessing: 0.25 } : {}),
  });
  const responses = lib.matrixToIrtResponses(panel.matrix);
  const cats = Object.keys(items);
  const categories = panel.matrix.items.map((it) => cats.indexOf(it.category));
  const run = () =>
    kind === 'bifactor'
      ? lib.calibrateBifactor(responses, { categories })
      : lib.calibrateIrt(responses, { model: kind, standardErrors: false, ...(kind === '3pl' ? { guessing: 0.25 } : {}) });
  return { kind, models, nItems, panel, responses, categories, run };
}
function writePeerInput(c) {
  const dir = mkdtempSync(join(tmpdir(), 'mindscope-bench-irt-'));
  const path = join(dir, 'responses.u8');
  const bytes = new Uint8Array(c.responses.values.length);
  for (let k = 0; k < bytes.length; k++) bytes[k] = Number.isNaN(c.responses.values[k]) ? 255 : c.responses.values[k];
  writeFileSync(path, bytes);
  if (c.kind === 'bifactor') writeFileSync(join(dir, 'categories.u8'), Uint8Array.from(c.categories));
  return { dir, path };
}
function runPeer(c, input) {
  const oneThread = { OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1', MKL_NUM_THREADS: '1' };
  const args = [join(here, 'irt_peer.py'), input.path, String(c.models), String(c.nItems), '1e-4', '--model', c.kind];
  if (c.kind === '3pl') args.push('--guessing', '0.25');
  if (c.kind === 'bifactor') args.push('--categories', join(input.dir, 'categories.u8'));
  const r = spawnSync(python, args, { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...oneThread } });
  if (r.status !== 0) return { error: r.stderr.trim().split('\n').pop() };
  return JSON.parse(r.stdout);
}
function largestDifference(c, fit, peer) {
  const ours = c.kind === 'bifactor' ? { a: fit.aGeneral, b: fit.d, s: fit.aSpecific } : { a: fit.items.a, b: fit.items.b };
  let da = 0;
  let db = 0;
  for (let i = 0; i < peer.a.length; i++) {
    da = Math.max(da, Math.abs(peer.a[i] - ours.a[i]), c.kind === 'bifactor' ? Math.abs(peer.s[i] - ours.s[i]) : 0);
    db = Math.max(db, Math.abs(peer.b[i] - ours.b[i]));
  }
  return { da, db };
}
if (want(1)) {
  const kinds = smoke ? ['2pl', '3pl', 'bifactor'] : argValue('--models', '2pl,3pl,bifactor').split(',');
  const sizes = smoke ? [120] : argValue('--items', '2860,16774').split(',').map(Number);
  const models = smoke ? 30 : 300;
  const rounds = smoke ? 1 : Number(argValue('--rounds', '3'));
  const peerReason = argv.includes('--no-peer') ? '--no-peer' : numpyMissing();
  if (peerReason) console.log(`   NumPy peer skipped: ${peerReason}`);
  console.log(
    `1. Calibration CPU time, one thread, ${rounds} interleaved round(s) beside the NumPy peer (load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')})`,
  );
  for (const kind of kinds)
    for (const nItems of kind === 'bifactor' && !smoke ? sizes.filter((n) => n <= 2860) : sizes) {
      const c = speedCase(kind, models, nItems);
      const input = peerReason ? null : writePeerInput(c);
      const ours = [];
      const peers = [];
      let fit;
      let peer;
      for (let round = 0; round < rounds; round++) {
        const c0 = cpuMs();
        fit = c.run();
        ours.push(cpuMs() - c0);
        if (input) {
          peer = runPeer(c, input);
          if (peer.error) {
            console.log(`   peer failed: ${peer.error}`);
            break;
          }
          peers.push(peer.cpu * 1000);
        }
      }
      if (input) rmSync(input.dir, { recursive: true, force: true });
      const label = `${kind === 'bifactor' ? 'bifactor 2PL (6 categories)' : kind.toUpperCase()}${kind === '3pl' ? ' (c fixed at 0.25)' : ''}, ${models} models x ${fmtItems(nItems)} items`;
      const oursText = `best ${sec(Math.min(...ours))}, median ${sec(median(ours))} CPU (${fit.iterations} iterations, converged ${fit.converged})`;
      const havePeer = peers.length === rounds && peers.length > 0;
      const peerText = havePeer ? `best ${sec(Math.min(...peers))}, median ${sec(median(peers))} CPU (${peer.iterations} iterations)` : '';
      const ratio = havePeer ? median(ours) / median(peers) : null;
      console.log(`   ${label}: ours ${oursText}${havePeer ? `; NumPy ${peerText}; ours / NumPy (medians) ${ratio.toFixed(2)}` : ''}`);
      let diff = '';
      if (havePeer) {
        const { da, db } = largestDifference(c, fit, peer);
        diff = `; largest difference from the peer's estimates: ${kind === 'bifactor' ? 'slopes' : 'a'} ${da.toExponential(1)}, ${kind === 'bifactor' ? 'd' : 'b'} ${db.toExponential(1)}`;
        console.log(`     largest difference from the peer's estimates${diff.slice(diff.indexOf(':'))}`);
      }
      rows.push({
        figure: `${label}: calibration CPU time, one thread, ${rounds} interleaved rounds; peer: the same estimator in NumPy, dense BLAS, one thread`,
        value: `${oursText}${diff}`,
        peer: peerText,
        ratio,
      });
    }
  // Standard errors, abilities and item fit: once, at the largest 2PL size.
  const c = speedCase('2pl', models, Math.max(...sizes));
  let t = cpuMs();
  const fit = lib.calibrateIrt(c.responses, { model: '2pl', standardErrors: false });
  const emCpu = cpuMs() - t;
  t = cpuMs();
  lib.calibrateIrt(c.responses, { model: '2pl', start: fit.items, maxIterations: 1 });
  const seCpu = cpuMs() - t;
  t = cpuMs();
  const abilities = lib.estimateAbilities(fit.items, c.responses.values, models);
  lib.itemFit(fit.items, c.responses, abilities.theta);
  const diagCpu = cpuMs() - t;
  const truth = standardised(c.panel.truth);
  console.log(
    `   2PL, ${models} x ${fmtItems(c.nItems)}: EM and standard errors ${sec(emCpu + seCpu)} CPU; the panel's EAP abilities and item fit ${sec(diagCpu)} CPU`,
  );
  console.log(
    `   a: ${stats(fit.items.a, truth.a)}; b: ${stats(fit.items.b, truth.b)}; theta (EAP): ${stats(abilities.theta, truth.theta)}`,
  );
  rows.push(
    {
      figure: `2PL EM and standard errors (Louis blocks), ${models} models x ${fmtItems(c.nItems)} items (CPU time)`,
      value: `${sec(emCpu + seCpu)} CPU`,
    },
    {
      figure: `the panel's EAP abilities and item fit, ${models} models x ${fmtItems(c.nItems)} items (CPU time)`,
      value: `${sec(diagCpu)} CPU`,
    },
  );
}

// ---- 2. Recovery ----
if (want(2)) console.log(`\n2. Recovery, 2PL, ${smoke ? 100 : '1,000'} items (truth rescaled to the panel)`);
for (const models of want(2) ? (smoke ? [27] : [27, 100, 300]) : []) {
  const half = smoke ? 50 : 500;
  const panel = lib.simulateIrtPanel({ models, suites: [{ name: 'sim', items: { belief: half, desire: half } }], model: '2pl', seed: 2 });
  const responses = lib.matrixToIrtResponses(panel.matrix);
  const t = performance.now();
  const fit = lib.calibrateIrt(responses, { model: '2pl' });
  const ms = performance.now() - t;
  const ab = lib.estimateAbilities(fit.items, responses.values, models);
  const truth = standardised(panel.truth);
  let covered = 0;
  for (let i = 0; i < 2 * half; i++) if (Math.abs(fit.items.b[i] - truth.b[i]) <= 1.96 * fit.se.b[i]) covered++;
  rows.push({
    figure: `recovery, 2PL, ${models} models x 1,000 items (simulated, seed 2): correlation with the truth of a, b and ability; calibration time`,
    value: `a ${corr(Array.from(fit.items.a), truth.a).toFixed(3)}, b ${corr(Array.from(fit.items.b), truth.b).toFixed(3)}, ability ${corr(Array.from(ab.theta), truth.theta).toFixed(3)}; ${sec(ms)}`,
  });
  console.log(
    `   ${String(models).padStart(3)} models (${sec(ms)}): a ${stats(fit.items.a, truth.a)}; b ${stats(fit.items.b, truth.b)}; theta ${stats(ab.theta, truth.theta)}; b within 1.96 SE: ${((100 * covered) / (2 * half)).toFixed(1)}%`,
  );
}

// ---- 3. Leave-one-model-out tiny benchmarks ----
const suiteSize = Object.values(TOMBENCH).reduce((s, v) => s + v, 0);
if (want(3))
  console.log(
    `\n3. Leave-one-model-out: full-suite accuracy from ${smoke ? 20 : 100} of ${suiteSize.toLocaleString('en-US')} items (ToMBench categories)`,
  );
function lomo(models, strategies, heldOut) {
  const panel = lib.simulateIrtPanel({ models, suites: [{ name: 'tombench', items: TOMBENCH }], model: '2pl', seed: 3 });
  const t = performance.now();
  const v = lib.validateTinyBenchmarks(panel.matrix, { calibration: { model: '2pl' }, k: smoke ? 20 : 100, strategies, seed: 1, heldOut });
  console.log(
    `   ${models} models, ${v.rows.length} held out (${sec(performance.now() - t)}): MAE / SD / 90th percentile / max of |error| in points, bias, 95% interval coverage`,
  );
  const random = v.summary.find((s) => s.strategy === 'random-sample');
  for (const s of v.summary)
    if (s.estimator === 'pIrt' || (s.strategy === 'correctness' && s.estimator === 'gpIrt'))
      rows.push({
        figure: `tiny benchmark, ${models} models (${v.rows.length} held out), 100 of 2,860 items: MAE of the ${s.strategy} design's ${s.estimator} estimate (95% coverage); peer: the mean of 100 random items`,
        value: `${pp(s.mae)} points (${s.coverage === null ? '-' : `${(100 * s.coverage).toFixed(0)}%`})`,
        peer: random ? `${pp(random.mae)} points` : '',
        ratio: random ? s.mae / random.mae : null,
      });
  for (const s of v.summary)
    console.log(
      `     ${s.strategy.padEnd(13)} ${s.estimator.padEnd(6)} MAE ${pp(s.mae)}  SD ${pp(s.sdAbsError)}  p90 ${pp(s.p90AbsError)}  max ${pp(s.maxAbsError)}  bias ${pp(s.bias)}  coverage ${s.coverage === null ? '-' : `${(100 * s.coverage).toFixed(0)}%`}`,
    );
}
if (want(3) && smoke) lomo(12, ['information', 'random'], [0, 1]);
else if (want(3)) {
  lomo(27, ['information', 'irt', 'stratified', 'correctness', 'random'], undefined);
  lomo(300, ['information', 'irt', 'stratified'], argv.includes('--all') ? undefined : Array.from({ length: 100 }, (_, k) => 3 * k));
}

// ---- 4. Adaptive tests ----
if (want(4)) {
  const nModels = smoke ? 20 : 300;
  console.log(
    `\n4. Adaptive tests on ${nModels} models x ${Object.values(TOMBENCH).reduce((s, v) => s + v, 0)} items (randomesque 5, content balancing)`,
  );
  const panel = lib.simulateIrtPanel({ models: nModels, suites: [{ name: 'tombench', items: TOMBENCH }], model: '2pl', seed: 4 });
  const bank = lib.calibrateBank(panel.matrix, { model: '2pl', source: 'bench', diagnostics: false, validate: false });
  const params = lib.bankItemParams(bank);
  const full = panel.matrix.subjects.map(
    (_, j) =>
      lib.estimateAbility(
        params,
        Float64Array.from(panel.matrix.cells, (row) => row[j]),
      ).theta,
  );
  for (const targetSe of [0.3, 0.25]) {
    const t = performance.now();
    const used = [];
    const theta = [];
    const accErr = [];
    let covered = 0;
    const exposure = new Map();
    panel.matrix.subjects.forEach((_, j) => {
      const s = lib.createAdaptiveSession(bank, { targetSe, seed: j });
      const y = new Map(panel.matrix.items.map((it, i) => [it.itemId, panel.matrix.cells[i][j]]));
      for (let wave = s.nextWave(4); wave.length > 0; wave = s.nextWave(4))
        for (const id of wave) {
          s.record(id, y.get(id));
          exposure.set(id, (exposure.get(id) ?? 0) + 1);
        }
      const r = s.result();
      used.push(r.itemsUsed);
      theta.push(r.theta);
      const truth = mean(panel.matrix.cells.map((row) => row[j]));
      const est = r.accuracy.find((a) => a.category === null).pIrt;
      accErr.push(Math.abs(est.estimate - truth));
      if (truth >= est.lower && truth <= est.upper) covered++;
    });
    rows.push({
      figure: `adaptive tests to SE ${targetSe}, 300 models x 2,860 items: items asked on average; limit: the whole suite`,
      value: `${mean(used).toFixed(1)} items (max ${Math.max(...used)}; r ${corr(theta, full).toFixed(3)} with full-suite abilities)`,
      peer: '2,860 items',
      ratio: `1/${(2860 / mean(used)).toFixed(0)}`,
    });
    console.log(
      `   SE ${targetSe}: ${mean(used).toFixed(1)} items on average (max ${Math.max(...used)}; ${(suiteSize / mean(used)).toFixed(0)}x fewer than ${suiteSize.toLocaleString('en-US')}), r with full-suite ability ${corr(theta, full).toFixed(3)}, accuracy MAE ${pp(mean(accErr))} points, interval coverage ${((100 * covered) / nModels).toFixed(0)}%, largest item exposure ${((100 * Math.max(...exposure.values())) / nModels).toFixed(0)}% (${sec(performance.now() - t)} for ${nModels} tests)`,
    );
  }
}

if (smoke) console.log('smoke run: nothing written to docs/performance.md');
else recordPerformance('irt', rows);
