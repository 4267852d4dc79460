// Instructions counted under valgrind's callgrind, for the benches' --instructions mode. On a
// shared machine CPU time moves by a third between runs of the same code, and a ratio of two CPU
// times moves with it; on a quiet machine two instruction counts of the same run agree to within
// half a percent (a few percent under load: V8's compiles on other threads, the runner's commit
// groups timed by the clock), so a ratio of counts settles in one run what interleaved CPU-time
// rounds cannot. It is a stand-in for CPU time, not the same: it weighs a cache miss like an add,
// and valgrind runs one thread at a time, so V8's background work (compiles, marking) is counted
// but not overlapped.
//
// A bench runs a child as `valgrindCommand(...)` gives; a child that times a window of its own
// (set-up before the clock excluded) calls `instructionWindow('start')` and `('end')` around it,
// which zero the counts and dump them (callgrind_control); `countedInstructions` reads the window's
// dump when there is one, else the whole process's count.

import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/** Set in a child's environment when its window is to be counted. */
const WINDOW_ENV = 'MINDSCOPE_BENCH_CALLGRIND_WINDOW';

/** Whether valgrind (with callgrind_control) can run here; the benches skip the mode, saying so, when not. */
export function valgrindAvailable() {
  return spawnSync('valgrind', ['--version']).status === 0 && spawnSync('callgrind_control', ['--version']).status === 0;
}

/**
 * The command that runs node with `nodeArgs` under callgrind, its counts written to `outFile`;
 * `window`: the child marks the window to count (instructionWindow).
 */
export function valgrindCommand(outFile, nodeArgs, { window = false } = {}) {
  return {
    command: 'valgrind',
    // JIT code is written and rewritten in memory: callgrind must check it for changes.
    args: ['--tool=callgrind', '--smc-check=all-non-file', `--callgrind-out-file=${outFile}`, process.execPath, ...nodeArgs],
    env: window ? { ...process.env, [WINDOW_ENV]: '1' } : process.env,
  };
}

/**
 * In a child run by valgrindCommand with `window`: 'start' zeroes the counts, 'end' writes those
 * since (OUT.1). Does nothing in a child not run so.
 */
export async function instructionWindow(edge) {
  if (!process.env[WINDOW_ENV]) return;
  // Asynchronous: valgrind answers callgrind_control while this process waits in its event loop.
  await new Promise((resolve, reject) =>
    execFile('callgrind_control', [edge === 'start' ? '-z' : '-d', String(process.pid)], (error) => (error ? reject(error) : resolve())),
  );
}

/** The instructions a callgrind run counted: its window's (OUT.1) when it marked one, else the whole process's. */
export function countedInstructions(outFile) {
  const file = existsSync(`${outFile}.1`) ? `${outFile}.1` : outFile;
  const m = /^(?:summary|totals): (\d+)/m.exec(readFileSync(file, 'utf8'));
  if (!m) throw new Error(`${file}: no instruction count (summary line) in callgrind's output`);
  return Number(m[1]);
}
