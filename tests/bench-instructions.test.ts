// The benches' --instructions mode (bench/instruction-count.mjs) in smoke runs: each arm once more
// under valgrind's callgrind, its instructions counted. What is asserted: the benches exit 0,
// print a count for every arm and the ratio to the peer, and leave docs/performance.md as it was.
// Without valgrind (it is a Debian package; .ci/run installs it) the mode cannot run: skipped,
// saying so.

import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const page = join(root, 'docs', 'performance.md');
const valgrind = spawnSync('valgrind', ['--version']).status === 0 && spawnSync('callgrind_control', ['--version']).status === 0;
if (!valgrind) console.warn('bench --instructions tests skipped: valgrind is not installed (apt-get install valgrind)');

/** Valgrind runs node some 50 times slower: a smoke run under it takes minutes on a loaded machine. */
const LIMIT_MS = 600_000;

function bench(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

describe.skipIf(!valgrind)('benches with --instructions (smoke)', () => {
  it('bench/runner.mjs counts the mindscope and ceiling arms and their ratio', { timeout: LIMIT_MS + 30_000 }, async () => {
    const before = readFileSync(page, 'utf8');
    const r = await bench(['bench/runner.mjs', '--smoke', '--trials', '40', '--instructions']);
    expect(r.code, r.out.slice(-4000)).toBe(0);
    const counted = [...r.out.matchAll(/^ {2}(\S+) +40 trials under callgrind: (\d+) k instructions per trial$/gm)];
    expect(counted.map((m) => m[1]).sort()).toEqual(['mindscope', 'raw']);
    for (const m of counted) expect(Number(m[2])).toBeGreaterThan(0);
    const ratio = /instructions per trial against the ceiling's \(target <= 2, as for CPU\): ([\d.]+)x/.exec(r.out);
    const [mine, raw] = ['mindscope', 'raw'].map((arm) => Number(counted.find((m) => m[1] === arm)![2]));
    expect(Number(ratio?.[1])).toBeCloseTo(mine! / raw!, 1);
    expect(readFileSync(page, 'utf8') === before, 'the smoke run changed docs/performance.md').toBe(true);
  });

  it('bench/export-trials.mjs counts both exports, the scan and the other build', { timeout: LIMIT_MS + 30_000 }, async () => {
    const before = readFileSync(page, 'utf8');
    const r = await bench(['bench/export-trials.mjs', '--smoke', '--instructions', '--before', join(root, 'dist')]);
    expect(r.code, r.out.slice(-4000)).toBe(0);
    const counted = [...r.out.matchAll(/^(.+?) +\d+ trials under callgrind: (\d+) M instructions$/gm)].map((m) => m[1]);
    expect(counted.sort()).toEqual([
      'export inspect',
      'export inspect (before)',
      'export trials .jsonl',
      'export trials .jsonl (before)',
      'plain scan',
    ]);
    expect(r.out).toMatch(/export inspect, \d+ trials: \d+ M instructions, [\d.]+x the plain scan's \d+ M/);
    expect(r.out).toMatch(/export trials \.jsonl, \d+ trials: this build \/ \S+ [\d.]+ in instructions/);
    expect(readFileSync(page, 'utf8') === before, 'the smoke run changed docs/performance.md').toBe(true);
  });
});
