// bench/startup: CPU time of the command line's start-up for commands that only print what
// mindscope knows (`mindscope suites`, `mindscope data list`), beside `mindscope --help` in the
// same interleaved rounds: such a command should load only what it prints (target: at most 1.5x
// the CPU of --help). CPU is the whole process's, user and system, read as it exits (microseconds,
// every thread); wall time is printed beside it.
//
//   npm run build && node bench/startup.mjs [--rounds 10] [--bin PATH/TO/bin/mindscope.js] [--smoke]
//
// --smoke: two rounds, a check that the bench runs; it records nothing.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordPerformance } from './performance-table.mjs';

const arg = (name, fallback) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : fallback);
const smoke = process.argv.includes('--smoke');
const rounds = Number(arg('--rounds', smoke ? '2' : '10'));
const bin = arg('--bin', fileURLToPath(new URL('../bin/mindscope.js', import.meta.url)));
const COMMANDS = [
  { name: '--help', args: ['--help'] },
  { name: 'suites', args: ['suites'] },
  { name: 'data list', args: ['data', 'list'] },
];
const TARGET = 1.5;

// Printed by the child as it exits: its own CPU time, all threads, since the process started.
const AT_EXIT = `data:text/javascript,process.on('exit',()=>{const c=process.cpuUsage();process.stderr.write('\\ncpu-us='+(c.user+c.system)+'\\n')})`;
// An empty cache folder: `data list` reports on it, the same in every round.
const cache = mkdtempSync(join(tmpdir(), 'mindscope-bench-startup-'));

function timed(args) {
  const t = performance.now();
  const r = spawnSync(process.execPath, ['--import', AT_EXIT, bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, MINDSCOPE_CACHE: cache },
  });
  const wall = performance.now() - t;
  const cpu = Number(/cpu-us=(\d+)/.exec(r.stderr)?.[1]) / 1000;
  if (r.status !== 0 || !Number.isFinite(cpu)) throw new Error(`mindscope ${args.join(' ')} failed (${r.status}):\n${r.stderr}`);
  return { cpu, wall };
}

const load = () =>
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')} on ${availableParallelism()} CPUs`;
console.log(`bench/startup: ${rounds} interleaved rounds of ${COMMANDS.map((c) => `mindscope ${c.name}`).join(', ')}; ${load()}`);
const results = Object.fromEntries(COMMANDS.map((c) => [c.name, []]));
timed(['--help']); // the first start reads files from disk: untimed
for (let r = 0; r < rounds; r++) for (const c of r % 2 === 0 ? COMMANDS : [...COMMANDS].reverse()) results[c.name].push(timed(c.args));
rmSync(cache, { recursive: true, force: true });

const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};
const of = (name, key) => results[name].map((x) => x[key]);
const help = { best: Math.min(...of('--help', 'cpu')), median: median(of('--help', 'cpu')) };
const rows = [];
for (const { name } of COMMANDS) {
  const cpu = of(name, 'cpu');
  const best = Math.min(...cpu);
  const med = median(cpu);
  const ratio =
    name === '--help'
      ? ''
      : `; ratio to --help best ${(best / help.best).toFixed(2)}, median ${(med / help.median).toFixed(2)} (target <= ${TARGET})`;
  console.log(
    `  mindscope ${name.padEnd(9)} CPU best ${best.toFixed(0)} ms, median ${med.toFixed(0)} ms; wall median ${median(of(name, 'wall')).toFixed(0)} ms${ratio}`,
  );
  if (name !== '--help')
    rows.push({
      figure: `mindscope ${name}, CPU time of the whole process, median of the rounds; peer: mindscope --help, target ratio <= ${TARGET}`,
      value: `${med.toFixed(0)} ms (best ${best.toFixed(0)} ms; ${rounds} rounds)`,
      peer: `${help.median.toFixed(0)} ms (best ${help.best.toFixed(0)} ms)`,
      ratio: med / help.median,
    });
}
console.log(load());
recordPerformance('startup', rows);
