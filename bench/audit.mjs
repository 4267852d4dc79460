// bench/audit: the full audit at the audit paper's scale (27 models; 2,860, 5,401 and 8,513
// items; five shared categories; 1,000 bootstraps per cell; 5 x 10 cross-fit) on simulated
// matrices, timed per step; the same matrices through a straightforward NumPy/SciPy
// implementation of stages 1-3 plus PCA (bench/audit_peer.py), interpreter start-up included,
// in the same run; and EFA with parallel analysis per benchmark and pooled.
//
//   npm run build && node bench/audit.mjs [--python python3]

import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const { writeMatrixCsv } = await import('../dist/index.js');
const { simulatePanel } = await import('../dist/analysis/index.js');
const here = fileURLToPath(new URL('.', import.meta.url));
const python = process.argv.includes('--python') ? process.argv[process.argv.indexOf('--python') + 1] : 'python3';

// The paper's per-category counts (appendix C); the rest of each benchmark is other categories.
const benchmarks = [
  { name: 'ToMBench', items: { belief: 882, intention: 340, desire: 180, emotion: 420, knowledge: 290, 'non-literal': 748 } },
  { name: 'ToMATO', items: { belief: 1109, intention: 1110, desire: 1025, emotion: 996, knowledge: 1161 } },
  {
    name: 'CogToM',
    items: { belief: 1748, intention: 903, desire: 944, emotion: 1306, knowledge: 846, percept: 1383, 'non-literal': 1383 },
  },
];
const t0 = performance.now();
const panel = simulatePanel({ models: 27, benchmarks, structure: 'single', seed: 1 });
const dir = mkdtempSync(join(tmpdir(), 'mindscope-bench-audit-'));
const files = panel.matrices.map(({ name, matrix }) => {
  const path = join(dir, `${name}.csv`);
  writeMatrixCsv(path, matrix);
  return `${name}=${path}`;
});
console.log(
  `bench/audit: 27 models; ${panel.matrices.map((m) => `${m.name} ${m.matrix.items.length}`).join(', ')} items (simulated in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
);

function timed(cmd, args) {
  const s = performance.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28 });
  const seconds = (performance.now() - s) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${r.stderr}`);
  return { seconds, stdout: r.stdout };
}

const bin = join(here, '..', 'bin', 'mindscope.js');
const common = ['audit', '--matrix', ...files, '--json', '--bootstrap', '1000', '--folds', '5', '--seeds', '10'];
const steps = (audit) =>
  Object.entries(audit.timingsMs)
    .map(([k, v]) => `${k} ${Math.round(v)}`)
    .join(', ');

// Like for like with the peer: stages 1-3 plus PCA, in process (one thread) and on worker threads.
const single = timed(process.execPath, [bin, ...common, '--structure', 'pca', '--threads', '1']);
console.log(
  `mindscope audit --structure pca --threads 1 (stages 1-3 and PCA; process start and CSV parsing included): ${single.seconds.toFixed(2)} s`,
);
console.log(`  steps (ms): ${steps(JSON.parse(single.stdout))}`);
const ours = timed(process.execPath, [bin, ...common, '--structure', 'pca', '--threads', String(Math.min(4, availableParallelism()))]);
const audit = JSON.parse(ours.stdout);
console.log(`mindscope audit --structure pca (${audit.threads} threads): ${ours.seconds.toFixed(2)} s`);
console.log(`  steps (ms, compute time summed over threads): ${steps(audit)}`);
console.log(
  `  stage 1 overall mean tau ${audit.convergence.overallMeanTau.toFixed(3)}, filtered ${audit.convergenceFiltered.overallMeanTau.toFixed(3)}; stage 3 aggregate delta ${audit.crossFit.aggregate.meanDelta.toFixed(3)}`,
);
const peer = timed(python, [join(here, 'audit_peer.py'), ...panel.matrices.map((m) => join(dir, `${m.name}.csv`))]);
console.log(`NumPy/SciPy peer (stages 1-3 and PCA; interpreter start-up included): ${peer.seconds.toFixed(2)} s`);
console.log(`  ${peer.stdout.trim().split('\n').join('\n  ')}`);
console.log(
  `ratio: mindscope takes ${((single.seconds / peer.seconds) * 100).toFixed(0)}% of the peer's time in one thread, ${((ours.seconds / peer.seconds) * 100).toFixed(0)}% on ${audit.threads} threads`,
);

// The full audit: parallel analysis (components and factors) and EFA per benchmark and pooled.
for (const threads of ['1', undefined]) {
  const full = timed(process.execPath, [bin, ...common, ...(threads ? ['--threads', threads] : [])]);
  const a = JSON.parse(full.stdout);
  console.log(`mindscope audit, full (${a.threads} thread(s)): ${full.seconds.toFixed(2)} s`);
  console.log(`  steps (ms): ${steps(a)}`);
  console.log(`  ${a.structure.map((s) => `${s.name} ${s.items} items: ${s.nComponents} components, ${s.nFactors} factors`).join('; ')}`);
}
