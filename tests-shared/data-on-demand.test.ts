// The full public data as a user gets it: the CLI on the released ToMBench files, and a run
// with no --data that fetches ToMBench from a mirror (a real local HTTP server serving
// MINDSCOPE_SHARED/data the way a mirror lays it out: <dataset>/<file>), verifies every file
// against data/manifest.json, caches it and runs; a second run fetches nothing.

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHARED, SHARED_DATA } from './shared-dir.js';

const ROOT = join(__dirname, '..');
const BIN = join(ROOT, 'bin', 'mindscope.js');
const dir = mkdtempSync(join(tmpdir(), 'mindscope-shared-cli-'));

/** The CLI in a child process, without blocking this process (the mirror answers from it). */
function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b) => (stdout += b));
    child.stderr.on('data', (b) => (stderr += b));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

describe.skipIf(!SHARED)('mindscope items on the full release', () => {
  it('prints the documented JSON shape with the ToMBench counts', () => {
    const r = spawnSync(process.execPath, [BIN, 'items', 'tombench', '--data', SHARED_DATA, '--json'], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(Object.keys(out)).toEqual(['suite', 'count', 'byCategory', 'byAbility', 'warnings', 'first']);
    expect(out.count).toBe(2860);
    expect(out.byCategory).toEqual({ belief: 882, desire: 180, emotion: 420, intention: 340, knowledge: 290, 'non-literal': 748 });
  });
});

describe.skipIf(!SHARED)('data on demand from a mirror of the shared data', () => {
  let server: Server;
  let mirror = '';
  const requests: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]!)).replace(/^(\.\.[/\\])+/, '');
      requests.push(path);
      const file = join(SHARED_DATA, path);
      if (!file.startsWith(SHARED_DATA) || !existsSync(file)) {
        res.writeHead(404).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(readFileSync(file));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('run tombench without --data fetches, verifies against the manifest, caches and runs 20 items', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'mindscope-shared-cache-'));
    const env = { MINDSCOPE_DATA_MIRROR: mirror, MINDSCOPE_CACHE: cache };
    const args = (db: string) => ['run', 'tombench', '--model', 'agent:answer-key', '--limit', '20', '--db', join(dir, db), '--quiet'];
    const r = await cli(args('on-demand.db'), env);
    expect(r.stderr).not.toMatch(/error|mismatch/i);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/20 done, 0 failed/);
    // Every ToMBench file of the manifest was fetched once, and the cache holds it verified.
    const manifest = JSON.parse(readFileSync(join(ROOT, 'data', 'manifest.json'), 'utf8')) as {
      datasets: Array<{ id: string; files: Array<{ path: string; sha256: string }> }>;
    };
    const tombench = manifest.datasets.find((d) => d.id === 'tombench')!;
    expect([...requests].sort()).toEqual(tombench.files.map((f) => `/tombench/${f.path}`).sort());
    const stamp = JSON.parse(readFileSync(join(cache, 'data', 'tombench', '.mindscope-verified.json'), 'utf8'));
    expect(stamp).toEqual(Object.fromEntries(tombench.files.map((f) => [f.path, f.sha256])));
    // A second run reads the cache: no request reaches the mirror.
    const again = await cli(args('again.db'), env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/20 done, 0 failed/);
    expect(requests).toHaveLength(tombench.files.length);
  });
});
