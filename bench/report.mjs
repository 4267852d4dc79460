// bench/report: `mindscope report` on a run of 100,000 trials (generated-tom, 20,000 items x 5
// reference agents), wall and CPU time per round against the 1 s limit; the startup of the CLI
// alone (`mindscope --help`) is measured beside it, in the same rounds.
//
//   npm run build && node bench/report.mjs [--items 20000] [--rounds 5] [--dir DIR] [--smoke]
//
// --smoke: 100 items, one round, in a folder made afresh and removed: a check that the bench
// runs; it records nothing.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordPerformance } from './performance-table.mjs';

const arg = (name, dflt) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
const smoke = process.argv.includes('--smoke');
const ITEMS = Number(arg('--items', smoke ? 100 : 20000));
const ROUNDS = Number(arg('--rounds', smoke ? 1 : 5));
const DIR = arg(
  '--dir',
  smoke ? mkdtempSync(join(tmpdir(), 'mindscope-bench-report-')) : join(tmpdir(), `mindscope-bench-report-${ITEMS}`),
);
const CLI = new URL('../bin/mindscope.js', import.meta.url).pathname;
const DB = join(DIR, 'report.db');
const AGENTS = ['agent:oracle', 'agent:random', 'agent:reality', 'agent:first-order', 'agent:first-option'];

mkdirSync(DIR, { recursive: true });
if (!existsSync(DB)) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [CLI, 'run', 'generated-tom', '--limit', String(ITEMS), '--model', ...AGENTS, '--db', DB], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`building the store failed:\n${r.stderr}`);
  console.log(
    `store: ${ITEMS * AGENTS.length} trials written in ${((performance.now() - t) / 1000).toFixed(1)} s (${DB}; kept for later rounds)`,
  );
}

/** One command's wall and CPU (user + system) seconds, from the child's resource usage. */
function timed(args) {
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%U %S', process.execPath, CLI, ...args], { encoding: 'utf8' });
  const wall = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${args.join(' ')} failed:\n${r.stderr}`);
  const [user, sys] = r.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { wall, cpu: user + sys };
}

// One untimed round first: a store written by an older build is migrated once.
timed(['report', '--out', join(DIR, 'out'), '--db', DB, '--force']);
const report = [];
const startup = [];
for (let i = 0; i < ROUNDS; i++) {
  startup.push(timed(['--help']));
  report.push(timed(['report', '--out', join(DIR, 'out'), '--db', DB, '--force']));
}
const best = (xs, k) => Math.min(...xs.map((x) => x[k]));
const median = (xs, k) => xs.map((x) => x[k]).sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const row = (name, xs) =>
  `${name.padEnd(22)} wall best ${best(xs, 'wall').toFixed(2)} s, median ${median(xs, 'wall').toFixed(2)} s; CPU best ${best(xs, 'cpu').toFixed(2)} s, median ${median(xs, 'cpu').toFixed(2)} s`;
console.log(`${ITEMS * AGENTS.length} trials, ${ROUNDS} interleaved rounds, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`);
console.log(row('mindscope report', report));
console.log(row('CLI startup (--help)', startup));
console.log(`report wall best ${best(report, 'wall').toFixed(2)} s against the 1 s limit: ${best(report, 'wall') < 1 ? 'within' : 'over'}`);
if (smoke && !process.argv.includes('--dir')) rmSync(DIR, { recursive: true, force: true });
recordPerformance('report', [
  {
    figure: `mindscope report on ${(ITEMS * AGENTS.length).toLocaleString('en')} trials, wall time, best of the rounds; limit 1 s`,
    value: `${best(report, 'wall').toFixed(2)} s (${ROUNDS} rounds; median ${median(report, 'wall').toFixed(2)} s, CPU ${best(report, 'cpu').toFixed(2)} s)`,
    peer: '1 s',
    ratio: best(report, 'wall'),
  },
  {
    figure: 'mindscope report beside the CLI start-up alone (mindscope --help), wall time, best',
    value: `${best(report, 'wall').toFixed(2)} s`,
    peer: `${best(startup, 'wall').toFixed(2)} s`,
    ratio: best(report, 'wall') / best(startup, 'wall'),
  },
]);
