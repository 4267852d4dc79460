// Data on demand: datasets fetched from a mirror (a real local HTTP server), each file checked
// against the manifest's SHA-256 before it is stored; a mismatch is an error naming the file and
// nothing is stored; a second pull fetches nothing.

import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ensureSuiteData,
  listDatasets,
  pullDataset,
  readManifest,
  selectDatasets,
  verifyDataset,
  type DataManifest,
} from '../src/suites/index.js';
import { runCli } from './helpers/run-cli.js';

const files: Record<string, string> = {
  'toy/items.jsonl': '{"id":1}\n{"id":2}\n',
  'toy/sub dir/notes.txt': 'notes with a space in the path\n',
};
let served = { ...files };
let requests: string[] = [];
let server: Server;
let mirror = '';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');
function manifest(): DataManifest {
  return {
    version: 1,
    datasets: [
      {
        id: 'toy',
        suites: ['toy-suite'],
        source: { kind: 'github', repo: 'example/toy', revision: 'abc1234' },
        licence: 'MIT',
        citation: 'Toy (2026).',
        files: Object.entries(files).map(([p, body]) => ({
          path: p.slice('toy/'.length),
          source: p,
          sha256: sha(body),
          bytes: Buffer.byteLength(body),
        })),
      },
    ],
  };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '').replace(/^\//, ''));
    requests.push(path);
    const body = served[path];
    if (body === undefined) {
      res.writeHead(404).end('no');
      return;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  mirror = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('data on demand', () => {
  it('pulls a dataset from the mirror, verified, once', async () => {
    const env = { MINDSCOPE_CACHE: mkdtempSync(join(tmpdir(), 'mindscope-cache-')), MINDSCOPE_DATA_MIRROR: mirror };
    const m = manifest();
    const toy = m.datasets[0]!;
    const first = await pullDataset(toy, { env });
    expect(first).toMatchObject({ fetched: 2, present: 0 });
    expect(readFileSync(join(first.path, 'sub dir', 'notes.txt'), 'utf8')).toBe(files['toy/sub dir/notes.txt']);
    requests = [];
    const second = await pullDataset(toy, { env });
    expect(second).toMatchObject({ fetched: 0, present: 2 });
    expect(requests).toEqual([]);
    // First use of a suite without --data: its dataset is already complete, so nothing is fetched.
    expect(await ensureSuiteData('toy-suite', { env, manifest: m })).toBe(join(env.MINDSCOPE_CACHE, 'data'));
    expect(requests).toEqual([]);
    expect(await ensureSuiteData('some-other-suite', { env, manifest: m })).toBeUndefined();
    expect(listDatasets({ env, manifest: m })[0]).toMatchObject({ id: 'toy', cached: 'complete', files: 2, licence: 'MIT' });
  });

  it('refuses a file whose checksum does not match, naming it, and stores nothing', async () => {
    const env = { MINDSCOPE_CACHE: mkdtempSync(join(tmpdir(), 'mindscope-cache-')), MINDSCOPE_DATA_MIRROR: mirror };
    served = { ...files, 'toy/items.jsonl': '{"id":1}\n{"id":3}\n' };
    try {
      const toy = manifest().datasets[0]!;
      await expect(pullDataset(toy, { env })).rejects.toThrow(
        /checksum mismatch for toy\/items\.jsonl: expected 18 bytes with SHA-256 [0-9a-f]{64}, got 18 bytes/,
      );
      expect(existsSync(join(env.MINDSCOPE_CACHE, 'data', 'toy', 'items.jsonl'))).toBe(false);
      expect(listDatasets({ env, manifest: manifest() })[0]?.cached).toBe('absent');
    } finally {
      served = { ...files };
    }
  });

  it('names the address when a file cannot be fetched, and names known datasets for an unknown one', async () => {
    const env = { MINDSCOPE_CACHE: mkdtempSync(join(tmpdir(), 'mindscope-cache-')), MINDSCOPE_DATA_MIRROR: `${mirror}/nowhere` };
    await expect(pullDataset(manifest().datasets[0]!, { env })).rejects.toThrow(/\/nowhere\/toy\/items\.jsonl.*HTTP 404/);
    expect(() => selectDatasets(['nope'], false, manifest())).toThrow(/no public dataset for "nope"; known: toy/);
  });

  it('verifies a pulled dataset file by file: OK, then MISMATCH and MISSING after the cache is changed', async () => {
    const env = { MINDSCOPE_CACHE: mkdtempSync(join(tmpdir(), 'mindscope-cache-')), MINDSCOPE_DATA_MIRROR: mirror };
    const toy = manifest().datasets[0]!;
    const { path } = await pullDataset(toy, { env });
    expect((await verifyDataset(toy, env)).map((c) => [c.path, c.status])).toEqual([
      ['items.jsonl', 'OK'],
      ['sub dir/notes.txt', 'OK'],
    ]);
    appendFileSync(join(path, 'items.jsonl'), '{"id":3}\n');
    rmSync(join(path, 'sub dir', 'notes.txt'));
    const checks = await verifyDataset(toy, env);
    expect(checks.map((c) => [c.path, c.status, c.bytes])).toEqual([
      ['items.jsonl', 'MISMATCH', 27],
      ['sub dir/notes.txt', 'MISSING', null],
    ]);
    expect(checks[0]!.sha256).toBe(sha(`${files['toy/items.jsonl']}{"id":3}\n`));
  });

  it('data verify: each cached file of the shipped manifest OK, MISMATCH or MISSING; exit 1 unless all OK; --json', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'mindscope-cache-'));
    const cli = (args: string[]) => runCli(['data', ...args], { env: { MINDSCOPE_CACHE: cache } });
    expect(await cli(['verify'])).toMatchObject({
      code: 0,
      stdout: `no dataset is cached in ${join(cache, 'data')} (mindscope data pull NAME fetches one)\n`,
    });
    // The EnactToM files of the test fixtures are the published ones, byte for byte.
    const dir = join(cache, 'data', 'enacttom');
    cpSync(join(import.meta.dirname, 'fixtures', 'data', 'enacttom'), dir, { recursive: true });
    const ok = await cli(['verify']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toBe(
      'OK        enacttom/LICENSE\nOK        enacttom/sample_tasks.json\nOK        enacttom/template.json\n3 file(s) of 1 dataset(s) checked: 3 OK, 0 MISMATCH, 0 MISSING\n',
    );
    appendFileSync(join(dir, 'template.json'), ' ');
    rmSync(join(dir, 'LICENSE'));
    const bad = await cli(['verify', 'enacttom']);
    expect(bad.code).toBe(1);
    const expected = readManifest()
      .datasets.find((d) => d.id === 'enacttom')!
      .files.find((f) => f.path === 'template.json')!;
    const got = sha(readFileSync(join(dir, 'template.json'), 'utf8'));
    expect(bad.stdout.split('\n')).toEqual([
      'MISSING   enacttom/LICENSE',
      'OK        enacttom/sample_tasks.json',
      `MISMATCH  enacttom/template.json: ${expected.bytes + 1} bytes with SHA-256 ${got.slice(0, 12)}...; the manifest records ${expected.bytes} bytes with ${expected.sha256.slice(0, 12)}...`,
      '3 file(s) of 1 dataset(s) checked: 1 OK, 1 MISMATCH, 1 MISSING; mindscope data pull enacttom fetches them again',
      '',
    ]);
    const json = await cli(['verify', '--json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report).toMatchObject({ cache: join(cache, 'data'), ok: false });
    expect(report.files.map((f: { status: string }) => f.status)).toEqual(['MISSING', 'OK', 'MISMATCH']);
    expect(report.files[2]).toMatchObject({ expectedSha256: expected.sha256, sha256: got, bytes: expected.bytes + 1 });
    // A dataset never pulled is checked only when named (or with --all): all MISSING.
    const hitom = await cli(['verify', 'hitom', '--json']);
    expect(JSON.parse(hitom.stdout).files.every((f: { status: string }) => f.status === 'MISSING')).toBe(true);
  });

  it('data list fits 100 columns, every licence, source and citation still there', async () => {
    const r = await runCli(['data', 'list'], { env: { MINDSCOPE_CACHE: mkdtempSync(join(tmpdir(), 'mindscope-cache-')) } });
    expect(r.code, r.stderr).toBe(0);
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    const flat = r.stdout.replace(/\s+/g, ' ');
    for (const d of listDatasets()) {
      for (const text of [d.licence, d.source, d.citation, ...d.suites]) expect(flat).toContain(text);
    }
  });

  it('ships a manifest with a checksum, licence and citation for every public suite', () => {
    const m = readManifest();
    const suites = m.datasets.flatMap((d) => d.suites);
    for (const s of [
      'tombench',
      'tomato',
      'dialtom-retrospective',
      'dialtom-prospective',
      'hitom',
      'tomi',
      'bigtom',
      'opentom',
      'mmtom-qa',
      'enacttom',
    ]) {
      expect(suites).toContain(s);
    }
    for (const d of m.datasets) {
      expect(d.licence.length).toBeGreaterThan(2);
      expect(d.citation).toMatch(/\(\d{4}\)/);
      expect(d.files.every((f) => /^[0-9a-f]{64}$/.test(f.sha256) && f.bytes >= 0)).toBe(true);
    }
  });
});
