// Data on demand: datasets fetched from a mirror (a real local HTTP server), each file checked
// against the manifest's SHA-256 before it is stored; a mismatch is an error naming the file and
// nothing is stored; a second pull fetches nothing.

import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureSuiteData, listDatasets, pullDataset, readManifest, selectDatasets, type DataManifest } from '../src/suites/index.js';

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
