// bench/audit: the audit at the audit paper's scale and a scaling table, each figure beside the
// NumPy/SciPy peer's (bench/audit_peer.py: stages 1-3 plus PCA, vectorised) measured in the same
// run, rounds interleaved (ours, peer; then peer, ours; ...), best and median of the rounds.
//
//   npm run build && node bench/audit.mjs [--python python3] [--rounds 3]
//       [--sizes 27x3000,100x3000,...]   scaling table, PCA mode against the peer (models x items per benchmark)
//       [--full 27x3000,300x10000]       the full structure (parallel analysis and EFA), ours only
//       [--full-rounds 1] [--no-paper] [--bin PATH/TO/bin/mindscope.js] [--smoke]
//
// --smoke: one round at 27 models x 300 items per benchmark (PCA against the peer, then the full
// structure), no paper scale: a check that the bench runs; it records nothing. A peer whose
// interpreter lacks NumPy or SciPy is skipped, saying so.
//
// The matrices are simulated (simulatePanel, single latent ToM factor, seed 1): three benchmarks
// with the paper's category proportions (appendix C: ToMBench with non-literal, ToMATO five
// categories, CogToM with percept and non-literal) scaled to the given items per benchmark, so a
// category can exceed 8,192 items. Process start, CSV parsing and interpreter start-up count on
// both sides. --bin runs another build of mindscope (for before/after figures).

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordPerformance } from './performance-table.mjs';
import { pythonInterpreter } from './python-interpreter.mjs';

const { writeMatrixCsv } = await import('../dist/index.js');
const { simulatePanel } = await import('../dist/studies/audit/analysis/index.js');
const here = fileURLToPath(new URL('.', import.meta.url));
const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const smoke = process.argv.includes('--smoke');
const python = pythonInterpreter(arg('--python', 'python3'));
/** Why the peer cannot run (its interpreter lacks NumPy or SciPy), or undefined when it can. */
const peerMissing = (() => {
  const r = spawnSync(python, ['-c', 'import numpy, scipy'], { encoding: 'utf8' });
  return r.status === 0
    ? undefined
    : `${python} cannot import numpy and scipy (${(r.stderr || r.error?.message || '').trim().split('\n').at(-1)})`;
})();
const rounds = Number(arg('--rounds', smoke ? '1' : '3'));
const fullRounds = Number(arg('--full-rounds', '1'));
const bin = arg('--bin', join(here, '..', 'bin', 'mindscope.js'));
const parseSizes = (s) =>
  s
    ? s.split(',').map((x) => {
        const [m, i] = x.split('x').map(Number);
        return { models: m, items: i };
      })
    : [];
const sizes = parseSizes(
  arg('--sizes', smoke ? '27x300' : '27x3000,27x10000,27x30000,100x3000,100x10000,100x30000,300x3000,300x10000,300x30000'),
);
const fullSizes = parseSizes(arg('--full', smoke ? '27x300' : '27x3000,300x10000'));

// The paper's per-category counts (appendix C); the rest of each benchmark is other categories.
const PAPER = [
  { name: 'ToMBench', items: { belief: 882, intention: 340, desire: 180, emotion: 420, knowledge: 290, 'non-literal': 748 } },
  { name: 'ToMATO', items: { belief: 1109, intention: 1110, desire: 1025, emotion: 996, knowledge: 1161 } },
  {
    name: 'CogToM',
    items: { belief: 1748, intention: 903, desire: 944, emotion: 1306, knowledge: 846, percept: 1383, 'non-literal': 1383 },
  },
];

/** The paper's benchmarks with their category proportions, `items` items each (null: the paper's counts). */
function benchmarks(items) {
  if (items === null) return PAPER;
  return PAPER.map((b) => {
    const total = Object.values(b.items).reduce((a, c) => a + c, 0);
    const scaled = Object.fromEntries(Object.entries(b.items).map(([c, k]) => [c, Math.round((k * items) / total)]));
    return { name: b.name, items: scaled };
  });
}

function writePanel(models, items) {
  const panel = simulatePanel({ models, benchmarks: benchmarks(items), structure: 'single', seed: 1 });
  const dir = mkdtempSync(join(tmpdir(), 'mindscope-bench-audit-'));
  const paths = panel.matrices.map(({ name, matrix }) => {
    const path = join(dir, `${name}.csv`);
    writeMatrixCsv(path, matrix);
    return { name, path, items: matrix.items.length };
  });
  return { dir, paths };
}

function timed(cmd, args) {
  const s = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 30 });
  const seconds = (performance.now() - s) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return { seconds, stdout: r.stdout };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const best = (xs) => Math.min(...xs);
const f2 = (x) => x.toFixed(2);
const steps = (audit) =>
  Object.entries(audit.timingsMs)
    .map(([k, v]) => `${k} ${Math.round(v)}`)
    .join(', ');
const auditArgs = (paths, extra) => [
  bin,
  'audit',
  '--matrix',
  ...paths.map((p) => `${p.name}=${p.path}`),
  '--json',
  '--bootstrap',
  '1000',
  '--folds',
  '5',
  '--seeds',
  '10',
  ...extra,
];
const peerArgs = (paths) => [join(here, 'audit_peer.py'), ...paths.map((p) => p.path)];

/** Interleaved rounds of ours (PCA mode) and the peer on one panel. */
function pcaAgainstPeer(paths, n) {
  const ours = [];
  const peer = [];
  let last;
  let peerOut;
  for (let r = 0; r < n; r++) {
    const runOurs = () => {
      const t = timed(process.execPath, auditArgs(paths, ['--structure', 'pca']));
      ours.push(t.seconds);
      last = JSON.parse(t.stdout);
    };
    const runPeer = () => {
      if (peerMissing) return;
      const t = timed(python, peerArgs(paths));
      peer.push(t.seconds);
      peerOut = t.stdout.trim();
    };
    if (r % 2 === 0) {
      runOurs();
      runPeer();
    } else {
      runPeer();
      runOurs();
    }
  }
  return { ours, peer: peer.length ? peer : [Number.NaN], last, peerOut: peerOut ?? `not run: ${peerMissing}` };
}

console.log(`bench/audit (${bin}; peer on ${python}); ${rounds} interleaved round(s) per size`);
if (peerMissing) console.log(`the NumPy/SciPy peer is skipped: ${peerMissing}`);
const rows = [];
const pcaRow = (what, r) => ({
  figure: `audit --structure pca, ${what}, median of the rounds; peer: NumPy/SciPy, stages 1-3 and PCA`,
  value: `${f2(median(r.ours))} s (${rounds} rounds)`,
  peer: `${f2(median(r.peer))} s`,
  ratio: median(r.ours) / median(r.peer),
});

if (!process.argv.includes('--no-paper') && !smoke) {
  const { dir, paths } = writePanel(27, null);
  console.log(`\npaper scale: 27 models; ${paths.map((p) => `${p.name} ${p.items}`).join(', ')} items`);
  const r = pcaAgainstPeer(paths, rounds);
  console.log(
    `  mindscope audit --structure pca (${r.last.threads} thread(s)): best ${f2(best(r.ours))} s, median ${f2(median(r.ours))} s; steps (ms, last round): ${steps(r.last)}`,
  );
  console.log(`  NumPy/SciPy peer: best ${f2(best(r.peer))} s, median ${f2(median(r.peer))} s; ${r.peerOut.split('\n').join('; ')}`);
  console.log(`  ratio (median, ours / peer): ${f2(median(r.ours) / median(r.peer))}`);
  rows.push(pcaRow("the paper's scale (27 models; 2,860, 5,401 and 8,513 items)", r));
  console.log(
    `  stage 1 overall mean tau ${r.last.convergence.overallMeanTau.toFixed(3)}, filtered ${r.last.convergenceFiltered.overallMeanTau.toFixed(3)}; stage 3 aggregate delta ${r.last.crossFit.aggregate.meanDelta.toFixed(3)}`,
  );
  for (const threads of ['1', undefined]) {
    const full = timed(process.execPath, auditArgs(paths, threads ? ['--threads', threads] : []));
    const a = JSON.parse(full.stdout);
    console.log(`  mindscope audit, full (${a.threads} thread(s)): ${f2(full.seconds)} s; steps (ms): ${steps(a)}`);
    rows.push({
      figure: `full audit (parallel analysis, EFA, stages 1-3) at the paper's scale, ${threads ? 'in process (--threads 1)' : 'default threads'}`,
      value: `${f2(full.seconds)} s (${a.threads} thread(s))`,
    });
    console.log(
      `    ${a.structure.map((s) => `${s.name} ${s.items} items: ${s.nComponents} components, ${s.nFactors} factors`).join('; ')}`,
    );
  }
  rmSync(dir, { recursive: true, force: true });
}

if (sizes.length) {
  console.log('\nscaling table, PCA mode (stages 1-3 and PCA) against the peer; seconds, best / median of the rounds');
  console.log('models  items/benchmark  largest category  mindscope best  median  peer best  median  ratio (median)  threads');
  for (const { models, items } of sizes) {
    const { dir, paths } = writePanel(models, items);
    const largest = Math.max(...benchmarks(items).flatMap((b) => Object.values(b.items)));
    const r = pcaAgainstPeer(paths, rounds);
    console.log(
      `${String(models).padStart(6)}  ${String(items).padStart(15)}  ${String(largest).padStart(16)}  ${f2(best(r.ours)).padStart(14)}  ${f2(median(r.ours)).padStart(6)}  ${f2(best(r.peer)).padStart(9)}  ${f2(median(r.peer)).padStart(6)}  ${f2(median(r.ours) / median(r.peer)).padStart(14)}  ${String(r.last.threads).padStart(7)}`,
    );
    console.log(`        steps (ms, last round): ${steps(r.last)}; peer: ${r.peerOut.split('\n')[0]}`);
    rows.push(pcaRow(`${models} models x ${items.toLocaleString('en')} items per benchmark`, r));
    rmSync(dir, { recursive: true, force: true });
  }
}

if (fullSizes.length) {
  console.log('\nfull structure (parallel analysis, EFA, stages 1-3), ours only; limit 60 s at 300 x 10,000');
  for (const { models, items } of fullSizes) {
    const { dir, paths } = writePanel(models, items);
    const times = [];
    let a;
    for (let r = 0; r < fullRounds; r++) {
      const t = timed(process.execPath, auditArgs(paths, []));
      times.push(t.seconds);
      a = JSON.parse(t.stdout);
    }
    const limited = models === 300 && items === 10000;
    rows.push({
      figure: `full audit, ${models} models x ${items.toLocaleString('en')} items per benchmark, best of the rounds${limited ? '; limit 60 s' : ''}`,
      value: `${f2(best(times))} s (${a.threads} threads, ${fullRounds} round(s))`,
      peer: limited ? '60 s' : '',
      ratio: limited ? best(times) / 60 : null,
    });
    console.log(
      `  ${models} models x ${items} items per benchmark (${a.threads} threads): best ${f2(best(times))} s, median ${f2(median(times))} s; steps (ms): ${steps(a)}`,
    );
    console.log(
      `    ${a.structure.map((s) => `${s.name} ${s.items} items: ${s.nComponents} components, ${s.nFactors} factors`).join('; ')}`,
    );
    rmSync(dir, { recursive: true, force: true });
  }
}

recordPerformance('audit', rows);
