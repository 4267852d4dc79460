// bench/export-trials: `export trials` (JSONL) and `export inspect` on a store of 100,000 trials
// written by a real run of reference agents (generated-tom, 2,000 items x 5 agents x 10
// replicates), beside a plain scan of the same rows: the run's trial rows with their transcript
// and scores as stored, read with better-sqlite3's iterate() and written one JSON.stringify a
// line (the limit: 2x its CPU). Rounds are interleaved (export, export inspect, scan; best and
// median of --rounds), each step a child process of its own, so its CPU time and peak RSS are
// its own. Peak RSS is also measured on a run of the same items with a fifth of the replicates
// (20,000 trials), and with --memory-replicates N on one with N replicates: flat memory means no
// more at 100,000 trials (or N x 10,000).
// With --before OTHER/dist, another build's exports (its bin/mindscope.js) are one more arm of
// every round: its CPU time beside this build's from the same rounds, the ratio of each round's
// pair (this build's over the other's: the median and range), and whether both wrote the same bytes.
//
//   npm run build && node bench/export-trials.mjs [--items 2000] [--replicates 10] [--rounds 3] [--db FILE]
//     [--memory-replicates 50] [--dist OTHER/dist] [--before OTHER/dist] [--instructions] [--smoke]
//
// The runs are built once (about 1-2 minutes per 100,000 trials on 2 cores) and kept when --db
// names a file; a run the store lacks is added to it.
// --instructions: each step (both builds' exports and the scan) once more under valgrind's
// callgrind on the shorter run, start-up included as in its CPU time, its instructions counted
// (instruction-count.mjs): ratios to the scan that repeat on a shared machine.
// --smoke: tiny runs, a few seconds, nothing written to docs/performance.md.

import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countedInstructions, valgrindAvailable, valgrindCommand } from './instruction-count.mjs';
import { recordPerformance } from './performance-table.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const smoke = process.argv.includes('--smoke');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
// --dist: another build's dist/ (an older checkout's) to compare with.
const dist = resolve(arg('dist', join(here, '..', 'dist')));
// The command as users run it: the checkout's bin/mindscope.js (beside that dist/).
const BIN = join(dist, '..', 'bin', 'mindscope.js');
// --before: another build whose exports run in the same rounds, beside this build's.
const beforeDist = arg('before') && resolve(arg('before'));
const BEFORE_BIN = beforeDist && join(beforeDist, '..', 'bin', 'mindscope.js');
const items = Number(arg('items', smoke ? 20 : 2000));
const replicates = Number(arg('replicates', smoke ? 2 : 10));
const rounds = Number(arg('rounds', smoke ? 1 : 3));
const work = mkdtempSync(join(tmpdir(), 'mindscope-bench-export-'));
const db = arg('db', join(work, 'runs.db'));
const agents = ['agent:oracle', 'agent:random', 'agent:reality', 'agent:first-option', 'agent:first-order'];
const LIMIT = 2;
// The timed run, and runs of the same items with fewer and (--memory-replicates N) more
// replicates, whose peak memory is set beside the timed run's: only the number of trials differs.
const run = (id, n) => ({ id, items, replicates: n, trials: items * n * agents.length });
const shortReplicates = Math.max(1, Math.round(replicates / 5));
const longReplicates = Number(arg('memory-replicates', 0));
const runs = [
  run('big', replicates),
  run(`short-${shortReplicates}`, shortReplicates),
  ...(longReplicates > 0 ? [run(`long-${longReplicates}`, longReplicates)] : []),
];

// The peer: the same rows as stored, scanned and stringified (no parsing, no unpacking; values
// kept compressed are written as their bytes: scores' in hex, transcripts' in base64). A
// transcript kept in a block of transcripts (schema 17: its row holds the block's id and its
// place) is read as stored too: the block's row, read once where the run's rows first name it
// and written on that line in base64, so the scan reads every stored byte the export reads.
const SCAN = `
const Database = require('better-sqlite3');
const { openSync, writeSync, closeSync } = require('node:fs');
const [db, runId, out] = process.argv.slice(1);
const d = new Database(db, { readonly: true });
const rows = d.prepare(\`SELECT t.*, tr.body AS transcript, tr.packed AS packed,
  (SELECT json_group_array(json_array(s.scorer, s.value, CASE WHEN typeof(s.detail) = 'blob' THEN hex(s.detail) ELSE s.detail END))
    FROM scores s WHERE s.trial_id = t.id) AS scores
  FROM trials t LEFT JOIN transcripts tr ON tr.trial_id = t.id WHERE t.run_id = ? ORDER BY t.id\`);
const hasBlocks = d.prepare("SELECT 1 FROM sqlite_master WHERE name = 'transcript_blocks'").get() !== undefined;
const blockRow = hasBlocks ? d.prepare('SELECT body FROM transcript_blocks WHERE id = ?').pluck() : undefined;
const fd = openSync(out, 'w');
let buf = '', n = 0, lastBlock = -1;
for (const r of rows.iterate(runId)) {
  const t = r.transcript;
  if (t instanceof Uint8Array) {
    // [7, varint block id, varint place]: a member of a block of transcripts.
    if (blockRow && t[0] === 7) {
      let id = 0, scale = 1;
      for (let i = 1; i < t.length; i++, scale *= 128) {
        id += (t[i] & 0x7f) * scale;
        if (t[i] < 0x80) break;
      }
      if (id !== lastBlock) {
        const block = blockRow.get(id);
        r.block = block instanceof Uint8Array ? block.toString('base64') : block;
        lastBlock = id;
      }
    }
    r.transcript = t.toString('base64');
  }
  buf += JSON.stringify(r) + '\\n';
  n++;
  if (buf.length > 1 << 20) { writeSync(fd, buf); buf = ''; }
}
writeSync(fd, buf);
closeSync(fd);
console.log(n + ' rows');
`;

// Node reports its own peak RSS and CPU time on exit (peak-rss.cjs).
const PEAK = join(here, 'peak-rss.cjs');
function step(args, name) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', PEAK, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
  const peak = Number(/peak-rss-mb=(\d+)/.exec(r.stderr)?.[1]);
  const cpu = Number(/cpu-ms=(\d+)/.exec(r.stderr)?.[1]) / 1000;
  return { seconds, peak, cpu, last: r.stdout.trim().split('\n').at(-1) };
}
const cli = (...args) => [BIN, ...args];
const exportJsonl = (run, bin = BIN, tag = '') => [
  bin,
  'export',
  'trials',
  '--db',
  db,
  '--run-id',
  run,
  '--out',
  join(work, `${run}${tag}.jsonl`),
];
const exportInspect = (run, bin = BIN, tag = '') => [
  bin,
  'export',
  'inspect',
  '--db',
  db,
  '--run-id',
  run,
  '--out',
  join(work, `${run}${tag}-logs`),
];
/** Whether two exports (a file, or a folder of files) hold the same bytes. */
function sameBytes(a, b) {
  if (!statSync(a).isDirectory()) return readFileSync(a).equals(readFileSync(b));
  const names = readdirSync(a).sort();
  const others = readdirSync(b).sort();
  return (
    names.length === others.length && names.every((n, i) => n === others[i] && readFileSync(join(a, n)).equals(readFileSync(join(b, n))))
  );
}
const scan = (run) => ['-e', SCAN, db, run, join(work, `${run}.scan`)];

/** The ids of the runs a store holds (none when there is no store yet). */
function storedRuns() {
  if (!existsSync(db)) return new Set();
  const d = new Database(db, { readonly: true });
  try {
    return new Set(d.prepare('SELECT id FROM runs').pluck().all());
  } finally {
    d.close();
  }
}
{
  const stored = storedRuns();
  for (const r of runs.filter((x) => !stored.has(x.id))) {
    const built = step(
      cli(
        'run',
        'generated-tom',
        '--limit',
        String(r.items),
        '--trials',
        String(r.replicates),
        '--model',
        ...agents,
        '--db',
        db,
        '--run-id',
        r.id,
        '--quiet',
      ),
      `run ${r.id}`,
    );
    console.log(`built run ${r.id} (${r.trials} trials) in ${built.seconds.toFixed(1)} s`);
  }
}

const load = () =>
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(', ')} on ${availableParallelism()} CPUs`;
console.log(`bench/export-trials: ${rounds} interleaved rounds; ${load()}`);
const best = (xs) => Math.min(...xs);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const steps = { 'export trials .jsonl': exportJsonl, 'export inspect': exportInspect, 'plain scan': scan };
// The other build's exports (--before), written beside this build's under names of their own.
const beforeSteps = BEFORE_BIN
  ? {
      'export trials .jsonl (before)': (run) => exportJsonl(run, BEFORE_BIN, '-before'),
      'export inspect (before)': (run) => exportInspect(run, BEFORE_BIN, '-before'),
    }
  : {};
const timed = { ...steps, ...beforeSteps };
const seen = Object.fromEntries(Object.keys(timed).map((k) => [k, []]));
for (let i = 0; i < rounds; i++) {
  for (const [name, args] of Object.entries(timed)) {
    const s = step(args('big'), name);
    seen[name].push(s);
    console.log(
      `round ${i + 1} ${name.padEnd(22)} cpu ${s.cpu.toFixed(2).padStart(6)} s  wall ${s.seconds.toFixed(2).padStart(6)} s  peak RSS ${String(s.peak).padStart(5)} MB  ${s.last}`,
    );
  }
}
const scanCpu = seen['plain scan'].map((s) => s.cpu);
const rows = [];
const big = runs[0].trials;
for (const name of ['export trials .jsonl', 'export inspect']) {
  const cpu = seen[name].map((s) => s.cpu);
  const line = `${name}, ${big} trials: CPU best ${best(cpu).toFixed(2)} s, median ${median(cpu).toFixed(2)} s; plain scan best ${best(scanCpu).toFixed(2)} s, median ${median(scanCpu).toFixed(2)} s: ${(median(cpu) / median(scanCpu)).toFixed(2)}x (limit ${LIMIT}x)`;
  console.log(line);
  rows.push({
    figure: `${name}, ${big} trials: CPU time (best, median of ${rounds} interleaved rounds) beside a plain scan-and-stringify of the same rows; limit ${LIMIT}x`,
    value: `${best(cpu).toFixed(2)} s, ${median(cpu).toFixed(2)} s`,
    peer: `${best(scanCpu).toFixed(2)} s, ${median(scanCpu).toFixed(2)} s`,
    ratio: median(cpu) / median(scanCpu),
  });
}
// The other build beside this one: CPU of each from the same rounds, and each round's ratio.
if (BEFORE_BIN) {
  for (const name of ['export trials .jsonl', 'export inspect']) {
    const mine = seen[name].map((s) => s.cpu);
    const theirs = seen[`${name} (before)`].map((s) => s.cpu);
    const paired = mine.map((c, i) => c / theirs[i]);
    const out = name === 'export inspect' ? ['big-logs', 'big-before-logs'] : ['big.jsonl', 'big-before.jsonl'];
    const same = sameBytes(join(work, out[0]), join(work, out[1]));
    console.log(
      `${name}, ${big} trials: CPU median ${median(mine).toFixed(2)} s against ${median(theirs).toFixed(2)} s for ${beforeDist}; per round this/before median ${median(paired).toFixed(3)} (${best(paired).toFixed(3)}-${Math.max(...paired).toFixed(3)}); ${same ? 'the same bytes' : 'DIFFERENT bytes'}`,
    );
    rows.push({
      figure: `${name}, ${big} trials: CPU time (best, median of ${rounds} interleaved rounds) beside another build (${beforeDist}); ratio: the median of each round's pair`,
      value: `${best(mine).toFixed(2)} s, ${median(mine).toFixed(2)} s`,
      peer: `${best(theirs).toFixed(2)} s, ${median(theirs).toFixed(2)} s`,
      ratio: median(paired),
    });
  }
}
// Peak memory at two or three sizes of run of the same items: flat means the larger costs no
// more. The longest also with V8's young generation kept small (--max-semi-space-size=8), which a
// user short of memory can pass to node.
const [, short, long] = runs;
for (const name of ['export trials .jsonl', 'export inspect']) {
  const atShort = step(steps[name](short.id), name).peak;
  const atBig = median(seen[name].map((s) => s.peak));
  console.log(`${name}: peak RSS ${atShort} MB at ${short.trials} trials, ${atBig} MB at ${big} trials (${items} items)`);
  rows.push({
    figure: `${name}: peak RSS at ${big} trials beside ${short.trials} trials of the same ${items} items (flat: ratio near 1)`,
    value: `${atBig} MB`,
    peer: `${atShort} MB`,
    ratio: atBig / atShort,
  });
  if (!long) continue;
  const atLong = step(steps[name](long.id), name).peak;
  const smallYoung = step(['--max-semi-space-size=8', ...steps[name](long.id)], name).peak;
  console.log(`${name}: peak RSS ${atLong} MB at ${long.trials} trials; ${smallYoung} MB with --max-semi-space-size=8`);
  rows.push({
    figure: `${name}: peak RSS at ${long.trials} trials beside ${short.trials} trials of the same ${items} items (flat: ratio near 1)`,
    value: `${atLong} MB`,
    peer: `${atShort} MB`,
    ratio: atLong / atShort,
  });
  rows.push({
    figure: `${name}: peak RSS at ${long.trials} trials with node --max-semi-space-size=8 (V8's young generation kept small), beside ${short.trials} trials by default`,
    value: `${smallYoung} MB`,
    peer: `${atShort} MB`,
    ratio: smallYoung / atShort,
  });
}
if (process.argv.includes('--instructions')) rows.push(...countSteps(runs[1]));
const scanPeak = median(seen['plain scan'].map((s) => s.peak));
console.log(`plain scan: peak RSS ${scanPeak} MB; store ${(statSync(db).size / 2 ** 20).toFixed(1)} MB; ${load()}`);
if (!smoke) recordPerformance('export-trials', rows);
if (!process.argv.includes('--db')) rmSync(work, { recursive: true, force: true });

/**
 * --instructions: each step once on `run` under callgrind (the whole process, start-up included,
 * as its CPU time is); the exports' counts beside the scan's, and this build's beside --before's.
 */
function countSteps(run) {
  if (!valgrindAvailable()) {
    console.log('instruction counts are skipped: valgrind (with callgrind_control) is not installed (apt-get install valgrind)');
    return [];
  }
  const counts = {};
  for (const [name, args] of Object.entries(timed)) {
    const out = join(work, `callgrind-${Object.keys(counts).length}.out`);
    const { command, args: argv, env } = valgrindCommand(out, ['--require', PEAK, ...args(run.id)]);
    const r = spawnSync(command, argv, { encoding: 'utf8', env, maxBuffer: 1 << 26 });
    if (r.status !== 0) throw new Error(`${name} under callgrind failed: ${r.stderr.slice(-2000)}`);
    counts[name] = countedInstructions(out);
    rmSync(out, { force: true });
    console.log(`${name.padEnd(30)} ${run.trials} trials under callgrind: ${(counts[name] / 1e6).toFixed(0)} M instructions`);
  }
  const m = (x) => `${(x / 1e6).toFixed(0)} M`;
  const scanned = counts['plain scan'];
  const counted = [];
  for (const name of ['export trials .jsonl', 'export inspect']) {
    console.log(
      `${name}, ${run.trials} trials: ${m(counts[name])} instructions, ${(counts[name] / scanned).toFixed(2)}x the plain scan's ${m(scanned)} (limit ${LIMIT}x, as for CPU)`,
    );
    counted.push({
      figure: `${name}, ${run.trials} trials: instructions under callgrind, start-up included (one run each), beside the plain scan's; limit ${LIMIT}x`,
      value: m(counts[name]),
      peer: m(scanned),
      ratio: counts[name] / scanned,
    });
    const before = counts[`${name} (before)`];
    if (before === undefined) continue;
    console.log(`${name}, ${run.trials} trials: this build / ${beforeDist} ${(counts[name] / before).toFixed(3)} in instructions`);
    counted.push({
      figure: `${name}, ${run.trials} trials: instructions under callgrind beside another build (${beforeDist})`,
      value: m(counts[name]),
      peer: m(before),
      ratio: counts[name] / before,
    });
  }
  return counted;
}
