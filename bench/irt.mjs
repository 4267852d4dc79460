// bench/irt: item response theory at scale, on simulated 2PL panels.
//   1. Speed: a 2PL calibration of 300 models x 16,774 items (EM, then standard errors, then the
//      panel's EAP abilities and item fit), one thread; in the same run the same estimator as
//      vectorised NumPy (bench/irt_peer.py, dense BLAS), whose estimates are compared with ours.
//   2. Recovery at 27, 100 and 300 models (1,000 items): correlation, bias and RMSE against the
//      truth (rescaled to the panel's ability mean and SD).
//   3. Leave-one-model-out tiny benchmarks (100 of 2,860 items, ToMBench's size and categories):
//      each held-out model's full-suite accuracy estimated from a bank calibrated without it,
//      against 100 random items; intervals with 20 parameter draws (the default); at 27 models
//      (all held out) and 300 (every third, or all with --all).
//   4. Adaptive tests on the 300-model panel: items used to reach SE 0.3 and 0.25, agreement
//      with full-suite abilities, accuracy error.
//
//   npm run build && node bench/irt.mjs [--all] [--python python3] [--no-peer] [--only 1,2,3,4]

import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pythonInterpreter } from './python-interpreter.mjs';

import { recordPerformance } from './performance-table.mjs';

// The IRT core is in mindscope/stats (calibration, abilities, fit), banks, selection, estimation
// and simulation in mindscope/analysis; the matrix writer in mindscope itself.
const lib = {
  ...(await import('../dist/index.js')),
  ...(await import('../dist/stats/index.js')),
  ...(await import('../dist/analysis/index.js')),
};
const rows = [];
const here = fileURLToPath(new URL('.', import.meta.url));
const argv = process.argv.slice(2);
const python = pythonInterpreter(argv.includes('--python') ? argv[argv.indexOf('--python') + 1] : 'python3');
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1].split(',').map(Number) : [1, 2, 3, 4];
const want = (n) => only.includes(n);
const TOMBENCH = { belief: 882, desire: 180, emotion: 420, intention: 340, knowledge: 290, 'non-literal': 748 };

const sec = (ms) => `${(ms / 1000).toFixed(1)} s`;
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

// ---- 1. Speed ----
if (want(1)) {
  const items = { belief: 16774 - 5 * 2795, desire: 2795, emotion: 2795, intention: 2795, knowledge: 2795, 'non-literal': 2795 };
  const panel = lib.simulateIrtPanel({ models: 300, suites: [{ name: 'sim', items }], model: '2pl', seed: 1 });
  const responses = lib.matrixToIrtResponses(panel.matrix);
  console.log('1. 2PL calibration, 300 models x 16,774 items (one thread)');
  let t = performance.now();
  let c = cpuMs();
  const fit = lib.calibrateIrt(responses, { model: '2pl', standardErrors: false });
  const emMs = performance.now() - t;
  const emCpu = cpuMs() - c;
  t = performance.now();
  c = cpuMs();
  const withSe = lib.calibrateIrt(responses, { model: '2pl', start: fit.items, maxIterations: 1 });
  const seMs = performance.now() - t;
  const seCpu = cpuMs() - c;
  t = performance.now();
  c = cpuMs();
  const abilities = lib.estimateAbilities(fit.items, responses.values, 300);
  lib.itemFit(fit.items, responses, abilities.theta);
  const diagMs = performance.now() - t;
  const diagCpu = cpuMs() - c;
  console.log(
    `   EM: ${sec(emMs)} wall, ${sec(emCpu)} CPU (${fit.iterations} iterations, converged ${fit.converged}); standard errors (one more iteration + Louis blocks): ${sec(seMs)} wall, ${sec(seCpu)} CPU`,
  );
  console.log(
    `   EM + standard errors: ${sec(emMs + seMs)} wall, ${sec(emCpu + seCpu)} CPU; panel EAP abilities + item fit: ${sec(diagMs)} wall, ${sec(diagCpu)} CPU`,
  );
  const truth = standardised(panel.truth);
  console.log(
    `   a: ${stats(fit.items.a, truth.a)}; b: ${stats(fit.items.b, truth.b)}; theta (EAP): ${stats(abilities.theta, truth.theta)}`,
  );
  void withSe;
  let peerRow = { peer: '', ratio: null };
  if (!argv.includes('--no-peer')) {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-bench-irt-'));
    const path = join(dir, 'matrix.csv');
    lib.writeMatrixCsv(path, panel.matrix);
    t = performance.now();
    const oneThread = { OMP_NUM_THREADS: '1', OPENBLAS_NUM_THREADS: '1', MKL_NUM_THREADS: '1' };
    const r = spawnSync(python, [join(here, 'irt_peer.py'), path, '1e-4'], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      env: { ...process.env, ...oneThread },
    });
    const wall = performance.now() - t;
    if (r.status !== 0) console.log(`   peer failed: ${r.stderr.trim().split('\n').pop()}`);
    else {
      const peer = JSON.parse(r.stdout);
      let da = 0;
      let db = 0;
      for (let i = 0; i < peer.a.length; i++) {
        da = Math.max(da, Math.abs(peer.a[i] - fit.items.a[i]));
        db = Math.max(db, Math.abs(peer.b[i] - fit.items.b[i]));
      }
      console.log(
        `   NumPy peer (dense BLAS, one thread, same estimator): EM ${sec(peer.seconds * 1000)} wall, ${sec(peer.cpu * 1000)} CPU (${peer.iterations} iterations; ${sec(wall)} with start-up and reading the CSV); ours / peer (CPU) = ${(emCpu / 1000 / peer.cpu).toFixed(2)}`,
      );
      console.log(`   largest difference from the peer's estimates: a ${da.toExponential(2)}, b ${db.toExponential(2)}`);
      peerRow = { peer: `${sec(peer.cpu * 1000)} CPU (${peer.iterations} iterations)`, ratio: emCpu / 1000 / peer.cpu };
      rows.push({
        figure: "2PL calibration, 300 models x 16,774 items: largest difference from the NumPy peer's estimates",
        value: `a ${da.toExponential(1)}, b ${db.toExponential(1)}`,
      });
    }
  }
  rows.unshift(
    {
      figure: '2PL EM, 300 models x 16,774 items, one thread (CPU time); peer: the same estimator in NumPy, dense BLAS, one thread',
      value: `${sec(emCpu)} CPU (${fit.iterations} iterations; ${sec(emMs)} wall)`,
      ...peerRow,
    },
    {
      figure: '2PL EM and standard errors (Louis blocks), 300 models x 16,774 items (CPU time)',
      value: `${sec(emCpu + seCpu)} CPU (${sec(emMs + seMs)} wall)`,
    },
    {
      figure: "the panel's EAP abilities and item fit, 300 models x 16,774 items (CPU time)",
      value: `${sec(diagCpu)} CPU (${sec(diagMs)} wall)`,
    },
  );
}

// ---- 2. Recovery ----
if (want(2)) console.log('\n2. Recovery, 2PL, 1,000 items (truth rescaled to the panel)');
for (const models of want(2) ? [27, 100, 300] : []) {
  const panel = lib.simulateIrtPanel({ models, suites: [{ name: 'sim', items: { belief: 500, desire: 500 } }], model: '2pl', seed: 2 });
  const responses = lib.matrixToIrtResponses(panel.matrix);
  const t = performance.now();
  const fit = lib.calibrateIrt(responses, { model: '2pl' });
  const ms = performance.now() - t;
  const ab = lib.estimateAbilities(fit.items, responses.values, models);
  const truth = standardised(panel.truth);
  let covered = 0;
  for (let i = 0; i < 1000; i++) if (Math.abs(fit.items.b[i] - truth.b[i]) <= 1.96 * fit.se.b[i]) covered++;
  rows.push({
    figure: `recovery, 2PL, ${models} models x 1,000 items (simulated, seed 2): correlation with the truth of a, b and ability; calibration time`,
    value: `a ${corr(Array.from(fit.items.a), truth.a).toFixed(3)}, b ${corr(Array.from(fit.items.b), truth.b).toFixed(3)}, ability ${corr(Array.from(ab.theta), truth.theta).toFixed(3)}; ${sec(ms)}`,
  });
  console.log(
    `   ${String(models).padStart(3)} models (${sec(ms)}): a ${stats(fit.items.a, truth.a)}; b ${stats(fit.items.b, truth.b)}; theta ${stats(ab.theta, truth.theta)}; b within 1.96 SE: ${(covered / 10).toFixed(1)}%`,
  );
}

// ---- 3. Leave-one-model-out tiny benchmarks ----
if (want(3)) console.log('\n3. Leave-one-model-out: full-suite accuracy from 100 of 2,860 items (ToMBench categories)');
function lomo(models, strategies, heldOut) {
  const panel = lib.simulateIrtPanel({ models, suites: [{ name: 'tombench', items: TOMBENCH }], model: '2pl', seed: 3 });
  const t = performance.now();
  const v = lib.validateTinyBenchmarks(panel.matrix, { calibration: { model: '2pl' }, k: 100, strategies, seed: 1, heldOut });
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
if (want(3)) {
  lomo(27, ['information', 'irt', 'stratified', 'correctness', 'random'], undefined);
  lomo(300, ['information', 'irt', 'stratified'], argv.includes('--all') ? undefined : Array.from({ length: 100 }, (_, k) => 3 * k));
}

// ---- 4. Adaptive tests ----
if (want(4)) {
  console.log('\n4. Adaptive tests on 300 models x 2,860 items (randomesque 5, content balancing)');
  const panel = lib.simulateIrtPanel({ models: 300, suites: [{ name: 'tombench', items: TOMBENCH }], model: '2pl', seed: 4 });
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
      `   SE ${targetSe}: ${mean(used).toFixed(1)} items on average (max ${Math.max(...used)}; ${(2860 / mean(used)).toFixed(0)}x fewer than 2,860), r with full-suite ability ${corr(theta, full).toFixed(3)}, accuracy MAE ${pp(mean(accErr))} points, interval coverage ${((100 * covered) / 300).toFixed(0)}%, largest item exposure ${((100 * Math.max(...exposure.values())) / 300).toFixed(0)}% (${sec(performance.now() - t)} for 300 tests)`,
    );
  }
}

recordPerformance('irt', rows);
