// Output folders with missing parents (makeDirectory): Node's recursive mkdir spins forever on a
// path under /proc (the file system answers "not found" for a child it cannot hold); ours fails
// at once with a line naming the folder, and `report --out` under /proc ends with exit 1.

import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirectory, MindscopeError } from '../src/core/index.js';
import { runCli } from './helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-mkdir-'));
const procfs = existsSync('/proc/self');

describe('makeDirectory', () => {
  it('creates missing parents and accepts a folder that exists', () => {
    const deep = join(dir, 'a', 'b', 'c');
    makeDirectory(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    makeDirectory(deep);
    makeDirectory(join(dir, 'a'));
  });

  it('refuses a path through a file, and a file of that name', () => {
    const file = join(dir, 'plain.txt');
    writeFileSync(file, 'x');
    expect(() => makeDirectory(join(file, 'sub'))).toThrow(/ENOTDIR/);
    expect(() => makeDirectory(file)).toThrow(/EEXIST/);
  });

  it.runIf(procfs)('fails at once under /proc instead of spinning', () => {
    expect(() => makeDirectory('/proc/mindscope-test/out')).toThrow(MindscopeError);
    expect(() => makeDirectory('/proc/mindscope-test/out')).toThrow(
      'cannot create the folder /proc/mindscope-test: /proc takes no new folders',
    );
  });

  it.runIf(procfs)('report --out under /proc ends with one line and exit 1', async () => {
    const db = join(dir, 'runs.db');
    const run = await runCli(['run', 'generated-tom', '--limit', '4', '--model', 'agent:oracle', '--db', db, '--quiet']);
    expect(run.code).toBe(0);
    const r = await runCli(['report', '--db', db, '--out', '/proc/mindscope-test/report']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('cannot create the folder /proc/mindscope-test');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});
