// The `mindscope` command keeps the compiled code of the modules it loads in Node's compile cache
// (in the temporary folder), so a later command parses less; NODE_DISABLE_COMPILE_CACHE turns it off.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../bin/mindscope.js', import.meta.url));
const folders: string[] = [];

/** Runs `mindscope suites` with TMPDIR set to a new folder; returns the folder and the result. */
function suitesIn(env: Record<string, string> = {}) {
  const tmp = mkdtempSync(join(tmpdir(), 'mindscope-compile-cache-'));
  folders.push(tmp);
  const base = { ...process.env };
  delete base.NODE_COMPILE_CACHE;
  delete base.NODE_DISABLE_COMPILE_CACHE;
  const r = spawnSync(process.execPath, [BIN, 'suites'], { encoding: 'utf8', env: { ...base, TMPDIR: tmp, ...env } });
  return { tmp, r };
}

/** The files of a folder and its subfolders. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

describe('compile cache', () => {
  it('a command leaves the compiled code of the modules it loaded in the temporary folder, and the next run gives the same output', () => {
    const { tmp, r } = suitesIn();
    expect(r.status, r.stderr).toBe(0);
    const cache = join(tmp, 'node-compile-cache');
    expect(existsSync(cache)).toBe(true);
    // One cache entry for each of the many modules `suites` loads (the CLI's, commander's, the suites').
    expect(filesUnder(cache).length).toBeGreaterThan(10);
    const again = spawnSync(process.execPath, [BIN, 'suites'], { encoding: 'utf8', env: { ...process.env, TMPDIR: tmp } });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toBe(r.stdout);
  });

  it('NODE_DISABLE_COMPILE_CACHE=1 leaves nothing there', () => {
    const { tmp, r } = suitesIn({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(r.status, r.stderr).toBe(0);
    expect(existsSync(join(tmp, 'node-compile-cache'))).toBe(false);
  });
});
