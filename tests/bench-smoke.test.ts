// Every bench script runs in its smoke mode (`--smoke`: tiny sizes, seconds), so a bench that
// no longer runs against today's code fails here rather than on the day someone measures. The
// benches are found by listing bench/: a new one is covered without being named. Nothing about
// speed is asserted; what is: each exits 0, and none writes the performance page.

import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const benchDir = join(root, 'bench');
const page = join(root, 'docs', 'performance.md');

/** Modules the benches import or start, not benches themselves. */
const HELPERS = ['instruction-count.mjs', 'node-http-post.mjs', 'performance-table.mjs', 'python-interpreter.mjs', 'soak-server.mjs'];

const benches = readdirSync(benchDir)
  .filter((f) => f.endsWith('.mjs') && !HELPERS.includes(f))
  .sort();

/** How long a smoke run may take before it is stopped (and fails): a smoke run takes seconds. */
const LIMIT_MS = 180_000;

/** Arms a bench adds only when asked, asked for in its smoke run too (this build standing in for another). */
const EXTRA_ARGS: Record<string, string[]> = { 'export-trials.mjs': ['--before', join(root, 'dist')] };

/** Run a bench with --smoke; resolves to its exit code (a signal if it was stopped at the limit) and the tail of its output. */
function smoke(file: string): Promise<{ code: number | null; signal: NodeJS.Signals | null; tail: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(benchDir, file), '--smoke', ...(EXTRA_ARGS[file] ?? [])], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
    let out = '';
    const keep = (d: Buffer) => {
      out = (out + d.toString()).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, tail: out });
    });
  });
}

describe('benches in smoke mode', () => {
  it('finds the benches, and every module named as a helper exists', () => {
    expect(benches).toContain('runner.mjs');
    for (const h of HELPERS) expect(existsSync(join(benchDir, h)), `bench/${h}`).toBe(true);
  });

  for (const file of benches) {
    it(`bench/${file} --smoke exits 0 and leaves docs/performance.md as it was`, { timeout: LIMIT_MS + 30_000 }, async () => {
      const before = readFileSync(page, 'utf8');
      const r = await smoke(file);
      expect(r, `bench/${file} --smoke:\n${r.tail}`).toMatchObject({ code: 0, signal: null });
      expect(readFileSync(page, 'utf8') === before, `bench/${file} --smoke changed docs/performance.md`).toBe(true);
    });
  }
});
