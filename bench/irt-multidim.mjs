// bench/irt-multidim: multidimensional IRT against the one-dimensional 2PL, on simulated panels
// with a train/test split of models (nothing about a test model enters its bank or selection).
//   Panels: one-dimensional (2PL) and two-dimensional (M2PL: a general dimension plus a
//   category dimension that some categories load on), ToMBench's size and categories (2,860
//   items in 6 categories), 300 models: 200 calibrate, 100 are tested.
//   Banks: the 2PL (calibrateBank) and the M2PL with k chosen by held-out likelihood
//   (calibrateMirtBank, --dims auto up to 2).
//   Tiny sets: per strategy and k, each test model's full-suite accuracy estimated from its
//   answers to the k chosen items; mean and max absolute error (points) and the share of
//   test models whose accuracy lies in the 95% interval. Baselines: the mean of k random items,
//   and the 2PL bank's designs; bound: the M2PL information design with the TRUE parameters and
//   abilities (no estimator can do better on average with that design), with the error the model
//   itself expects of it (sqrt(2/pi) x the posterior SD) and the plug-in P(posterior mean) beside
//   it; oracle: items chosen at each test model's TRUE ability (what no fixed set can beat);
//   floor: the ability known exactly, so only the unasked items' Bernoulli noise is left.
//   Adaptive: M2PL adaptive tests stopping at an accuracy SE of 2 points or 40 items, and ones
//   asking every test model as many items as the largest tiny set (beside its rows).
//
//   npm run build && node bench/irt-multidim.mjs [--smoke] [--no-record]

import { loadavg } from 'node:os';
import { recordPerformance } from './performance-table.mjs';

const lib = {
  ...(await import('../dist/core/index.js')),
  ...(await import('../dist/stats/index.js')),
  ...(await import('../dist/analysis/index.js')),
};
const argv = process.argv.slice(2);
const smoke = argv.includes('--smoke');
const TOMBENCH = { belief: 882, desire: 180, emotion: 420, intention: 340, knowledge: 290, 'non-literal': 748 };
const SIZE = smoke
  ? {
      models: 60,
      calibrate: 40,
      items: { belief: 16, desire: 16, emotion: 16, intention: 16, knowledge: 16 },
      ks: [20],
      adaptive: 4,
      maxItems: 20,
    }
  : { models: 300, calibrate: 200, items: TOMBENCH, ks: [50, 100], adaptive: 60, maxItems: 40 };
const cpuS = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const pts = (x) => (100 * x).toFixed(2);
const load = () =>
  loadavg()
    .map((v) => v.toFixed(2))
    .join(' ');

function summarise(pairs) {
  const abs = pairs.map((p) => Math.abs(p.e - p.t));
  const covered = pairs.filter((p) => p.lo !== undefined && p.t >= p.lo && p.t <= p.hi).length;
  return {
    mean: abs.reduce((s, v) => s + v, 0) / abs.length,
    max: abs.length ? Math.max(...abs) : null,
    coverage: pairs[0]?.lo === undefined ? null : covered / pairs.length,
  };
}

function evenSample(rows, max) {
  const M = Math.min(max, rows.length);
  return Array.from({ length: M }, (_, m) => rows[Math.floor((m * rows.length) / M)]);
}

const table = [];
const records = [];
console.log(`load average ${load()}${smoke ? ' (smoke sizes)' : ''}`);
for (const dims of [1, 2]) {
  const panel = lib.simulateIrtPanel({
    models: SIZE.models,
    suites: [{ name: 'tom', items: SIZE.items }],
    model: dims === 1 ? '2pl' : 'm2pl',
    dimensions: 2,
    seed: 34 + dims,
  });
  const { matrix, truth } = panel;
  const J = matrix.items.length;
  const calIdx = Array.from({ length: SIZE.calibrate }, (_, j) => j);
  const testIdx = Array.from({ length: SIZE.models - SIZE.calibrate }, (_, t) => SIZE.calibrate + t);
  const train = {
    subjects: calIdx.map((j) => matrix.subjects[j]),
    items: matrix.items,
    cells: matrix.cells.map((row) => calIdx.map((j) => row[j])),
  };
  const truthAcc = testIdx.map((j) => matrix.cells.reduce((s, row) => s + row[j], 0) / J);
  const label = `${dims}-D panel`;
  console.log(`\n${label}: ${SIZE.models} models (${SIZE.calibrate} calibrate, ${testIdx.length} test) x ${J} items`);
  let c0 = cpuS();
  const bank1 = lib.calibrateBank(train, { model: '2pl', source: 'train' });
  console.log(`  2PL bank: ${(cpuS() - c0).toFixed(1)} s CPU`);
  c0 = cpuS();
  const bankM = lib.calibrateMirtBank(train, { dims: 'auto', maxDims: 2, source: 'train' });
  const choice = bankM.dimensions.choice.scores.map((s) => `k=${s.k}: ${s.heldOutLogLik.toFixed(5)}`).join(', ');
  console.log(
    `  M2PL bank: k = ${bankM.dimensions.k} chosen by held-out log likelihood per cell (${choice}); ${(cpuS() - c0).toFixed(1)} s CPU, load ${load()}`,
  );
  table.push({
    panel: label,
    strategy: `dimensions chosen: ${bankM.dimensions.k}`,
    k: '-',
    mean: null,
    max: null,
    coverage: null,
    note: choice,
  });
  // The true model, for the bound.
  const trueItems = truth.slopes
    ? lib.mirtItems(truth.slopes, truth.intercepts)
    : lib.mirtItems(
        truth.a.map((a) => [a]),
        truth.a.map((a, i) => -a * truth.b[i]),
      );
  const trueAbilities = Float64Array.from(evenSample(calIdx, 60).flatMap((j) => (truth.abilities ? truth.abilities[j] : [truth.theta[j]])));
  const all = Array.from({ length: J }, (_, i) => i);
  const keyOf = (i) => lib.irtItemKey(matrix.items[i].suite, matrix.items[i].itemId);
  const answersFor = (j, keys) => {
    const out = new Map();
    matrix.items.forEach((_, i) => {
      if (keys.has(keyOf(i))) out.set(keyOf(i), matrix.cells[i][j]);
    });
    return out;
  };
  for (const k of SIZE.ks) {
    const run = (name, bank, strategy, estimator) => {
      const tiny = lib.selectTinyItems(bank, { k, strategy, seed: 1, matrix: train });
      const keys = new Set(tiny.items.map((t) => lib.irtItemKey(t.suite, t.id)));
      const pairs = testIdx.map((j, t) => {
        const row = lib.estimateAccuracyFromAnswers(bank, answersFor(j, keys), { tiny }).rows.find((r) => r.category === null);
        const e = row[estimator];
        return { e: e.estimate, t: truthAcc[t], lo: e.lower, hi: e.upper };
      });
      table.push({ panel: label, strategy: name, k, ...summarise(pairs) });
    };
    c0 = cpuS();
    // Baseline: the mean of k random items.
    const randomPairs = testIdx.map((j, t) => {
      const pick = lib.createRng(`irt-multidim-random:${k}:${j}`).shuffle(all).slice(0, k);
      return { e: pick.reduce((a, i) => a + matrix.cells[i][j], 0) / k, t: truthAcc[t] };
    });
    table.push({ panel: label, strategy: 'random items, their mean', k, ...summarise(randomPairs) });
    run('2PL random, p-IRT', bank1, 'random', 'pIrt');
    run('2PL information, p-IRT', bank1, 'information', 'pIrt');
    run('2PL stratified, gp-IRT', bank1, 'stratified', 'gpIrt');
    run('M2PL random, p-IRT', bankM, 'random', 'pIrt');
    run('M2PL information, p-IRT', bankM, 'information', 'pIrt');
    run('M2PL profiles (irt), gp-IRT', bankM, 'irt', 'gpIrt');
    run('M2PL stratified, gp-IRT', bankM, 'stratified', 'gpIrt');
    // The bound: true parameters and abilities.
    const chosen = lib.selectMirtItems(trueItems, all, k, trueAbilities, { method: 'information' });
    const group = {
      items: all,
      anchors: chosen.map((c) => c.item),
      anchorWeights: chosen.map((c) => c.weight),
      irtMae: null,
      meanVariance: 0,
    };
    const model = lib.mirtAccuracyModel(trueItems, [group]);
    const trueEstimate = (j, asked) => {
      const y = new Float64Array(J).fill(Number.NaN);
      for (const i of asked) y[i] = matrix.cells[i][j];
      return lib.estimateMirtAccuracy(model, y);
    };
    const boundEst = testIdx.map((j) =>
      trueEstimate(
        j,
        chosen.map((c) => c.item),
      ),
    );
    const boundPairs = boundEst.map((r, t) => {
      const e = r.groups[0].pIrt;
      return { e: e.estimate, t: truthAcc[t], lo: e.lower, hi: e.upper, rmse: e.rmse };
    });
    table.push({ panel: label, strategy: 'bound: true M2PL, information, p-IRT', k, ...summarise(boundPairs) });
    // What the model itself expects of that design: E|error| = sqrt(2/pi) x the posterior SD, averaged.
    const expected = (Math.sqrt(2 / Math.PI) * boundPairs.reduce((s, p) => s + p.rmse, 0)) / boundPairs.length;
    table.push({
      panel: label,
      strategy: 'bound, its expected mean error (sqrt(2/pi) x posterior SD)',
      k,
      mean: expected,
      max: null,
      coverage: null,
    });
    // The plug-in: P at the posterior mean ability instead of the posterior mean of P (same design and parameters).
    const plugPairs = boundEst.map((r, t) => {
      const j = testIdx[t];
      const asked = new Set(chosen.map((c) => c.item));
      let s = 0;
      for (let i = 0; i < J; i++) s += asked.has(i) ? matrix.cells[i][j] : lib.mirtProbability(trueItems, i, r.mean);
      return { e: s / J, t: truthAcc[t] };
    });
    table.push({ panel: label, strategy: 'bound design, plug-in P(posterior mean ability)', k, ...summarise(plugPairs) });
    // An oracle design: the c-optimal items at each test model's TRUE ability (an adaptive test that
    // knew the answer; no fixed set can do better on average), then the same estimator.
    const oraclePairs = testIdx.map((j, t) => {
      const own = lib.selectMirtItems(trueItems, all, k, Float64Array.from(truth.abilities ? truth.abilities[j] : [truth.theta[j]]), {
        method: 'information',
      });
      const e = trueEstimate(
        j,
        own.map((c) => c.item),
      ).groups[0].pIrt;
      return { e: e.estimate, t: truthAcc[t], lo: e.lower, hi: e.upper };
    });
    table.push({
      panel: label,
      strategy: "oracle: items chosen at each test model's true ability, true M2PL",
      k,
      ...summarise(oraclePairs),
    });
    // The floor: ability known exactly; only the unasked items' own coin flips remain.
    const floorPairs = testIdx.map((j, t) => {
      const th = truth.abilities ? truth.abilities[j] : [truth.theta[j]];
      const asked = new Set(chosen.map((c) => c.item));
      let s = 0;
      for (let i = 0; i < J; i++) s += asked.has(i) ? matrix.cells[i][j] : lib.mirtProbability(trueItems, i, th);
      return { e: s / J, t: truthAcc[t] };
    });
    table.push({
      panel: label,
      strategy: 'floor: true ability and parameters (Bernoulli noise of unasked items)',
      k,
      ...summarise(floorPairs),
    });
    console.log(`  k = ${k}: ${(cpuS() - c0).toFixed(1)} s CPU`);
  }
  // Adaptive tests on the M2PL bank.
  c0 = cpuS();
  const items = lib.bankMirtItems(bankM);
  const group = { items: all, anchors: [], anchorWeights: [], irtMae: null, meanVariance: 0 };
  const model = lib.mirtAccuracyModel(items, [group]);
  const adaptiveIdx = evenSample(testIdx, SIZE.adaptive);
  // The accuracy-targeted test at 2 points and the tiny sets' budget; the second asks every
  // held-out model the same number of items as a tiny set of k = 100 (no earlier stop).
  const tests = [
    { idx: adaptiveIdx, targetSe: 0.02, maxItems: SIZE.maxItems, name: `M2PL adaptive (SE 2 points, at most ${SIZE.maxItems})` },
    {
      idx: testIdx,
      targetSe: 1e-6,
      maxItems: SIZE.ks.at(-1),
      peerK: SIZE.ks.at(-1),
      name: `M2PL adaptive, ${SIZE.ks.at(-1)} items, all test models`,
    },
  ];
  for (const spec of tests) {
    const used = [];
    const pairs = spec.idx.map((j) => {
      const res = lib.runMirtAdaptiveTest(model, (i) => matrix.cells[i][j], { targetSe: spec.targetSe, maxItems: spec.maxItems });
      used.push(res.items.length);
      const t = testIdx.indexOf(j);
      return { e: res.estimate.pIrt.estimate, t: truthAcc[t], lo: res.estimate.pIrt.lower, hi: res.estimate.pIrt.upper };
    });
    const meanUsed = used.reduce((s, v) => s + v, 0) / used.length;
    table.push({
      panel: label,
      strategy: spec.name,
      k: `${meanUsed.toFixed(1)} (max ${Math.max(...used)})`,
      ...(spec.peerK ? { peerK: spec.peerK } : {}),
      ...summarise(pairs),
    });
  }
  console.log(`  adaptive: ${adaptiveIdx.length} tests, ${(cpuS() - c0).toFixed(1)} s CPU`);
}

console.log('\n| panel | strategy | items | mean abs error (points) | max | 95% coverage |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const r of table)
  console.log(
    `| ${r.panel} | ${r.strategy} | ${r.k} | ${r.mean === null ? (r.note ?? '') : pts(r.mean)} | ${r.max === null ? '' : pts(r.max)} | ${r.coverage === null || r.coverage === undefined ? '' : `${(100 * r.coverage).toFixed(0)}%`} |`,
  );
console.log(`load average ${load()}`);

const fmt = (r) =>
  `${pts(r.mean)}${r.max === null ? '' : ` / ${pts(r.max)}`} points${r.coverage === null || r.coverage === undefined ? '' : `, ${(100 * r.coverage).toFixed(0)}%`}`;
for (const r of table) {
  if (r.mean === null || r.strategy.startsWith('2PL') || r.strategy.startsWith('random')) continue;
  const peer = r.strategy.includes('adaptive (SE')
    ? null
    : table.find((p) => p.panel === r.panel && p.k === (r.peerK ?? r.k) && p.strategy === '2PL information, p-IRT');
  const bound = table.find((p) => p.panel === r.panel && p.k === (r.peerK ?? r.k) && p.strategy.startsWith('bound: '));
  records.push({
    figure: `${r.panel}, ${r.strategy}, k = ${r.k}: mean / max abs error, 95% coverage`,
    value: fmt(r),
    peer: peer
      ? `2PL information p-IRT: ${fmt(peer)}${bound && bound !== r ? `; bound: ${fmt(bound)}` : ''}; target: <= 1.50 / 4.00 points, >= 90%`
      : 'target: mean <= 2 points with <= 40 items',
    ratio: peer ? r.mean / peer.mean : null,
  });
}
if (!smoke) recordPerformance('irt-multidim', records);
