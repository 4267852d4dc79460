// Fetching datasets into the cache: each file from its source (or the mirror), checked against
// the manifest's size and SHA-256 before it is moved into place, so a cache never holds a file
// that does not match. A mismatch is an error naming the dataset, the file and the address.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ConfigError, InputError, makeDirectory } from '../../core/index.js';
import { dataRoot } from './cache.js';
import { isComplete, STAMP } from './dataset-status.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
import { datasetForSuite, fileUrl, readManifest, type DataFile, type DataManifest, type Dataset } from './manifest.js';

export interface DataOptions {
  env?: NodeJS.ProcessEnv;
  manifest?: DataManifest;
  /** Per-file time limit in milliseconds (default 120,000). */
  timeoutMs?: number;
  onFile?: (dataset: string, file: string, action: 'fetched' | 'present') => void;
}

async function download(url: string, timeoutMs: number): Promise<Buffer> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow' });
  } catch (err) {
    throw new InputError(
      `cannot fetch: ${(err as Error).message} (set MINDSCOPE_DATA_MIRROR to a mirror, or give the data folder with --data)`,
      url,
    );
  }
  if (!res.ok) throw new InputError(`HTTP ${res.status} ${res.statusText}`, url);
  return Buffer.from(await res.arrayBuffer());
}

async function pullFile(dataset: Dataset, file: DataFile, dir: string, opts: DataOptions): Promise<'fetched' | 'present'> {
  const target = join(dir, file.path);
  if (existsSync(target) && statSync(target).size === file.bytes && sha256(readFileSync(target)) === file.sha256) return 'present';
  const url = fileUrl(dataset, file, opts.env?.MINDSCOPE_DATA_MIRROR ?? process.env.MINDSCOPE_DATA_MIRROR);
  const body = await download(url, opts.timeoutMs ?? 120_000);
  const got = sha256(body);
  if (body.length !== file.bytes || got !== file.sha256) {
    throw new InputError(
      `checksum mismatch for ${dataset.id}/${file.path}: expected ${file.bytes} bytes with SHA-256 ${file.sha256}, got ${body.length} bytes with ${got}; the file was not stored`,
      url,
    );
  }
  makeDirectory(dirname(target));
  const tmp = `${target}.part-${process.pid}`;
  writeFileSync(tmp, body);
  renameSync(tmp, target);
  return 'fetched';
}

/** Fetch a dataset's missing or damaged files into the cache; returns how many were fetched and how many were present. */
export async function pullDataset(dataset: Dataset, opts: DataOptions = {}): Promise<{ fetched: number; present: number; path: string }> {
  const dir = join(dataRoot(opts.env), dataset.id);
  let fetched = 0;
  let present = 0;
  const stamp: Record<string, string> = {};
  for (const file of dataset.files) {
    const action = await pullFile(dataset, file, dir, opts);
    if (action === 'fetched') fetched++;
    else present++;
    stamp[file.path] = file.sha256;
    opts.onFile?.(dataset.id, file.path, action);
  }
  writeFileSync(join(dir, STAMP), `${JSON.stringify(stamp, null, 1)}\n`);
  return { fetched, present, path: dir };
}

/** Datasets by id or by a suite that reads them; `all` for every one. */
export function selectDatasets(names: string[], all: boolean, manifest: DataManifest): Dataset[] {
  if (all) return manifest.datasets;
  if (names.length === 0) throw new ConfigError('name the suites or datasets to pull, or give --all');
  return names.map((n) => {
    const d = manifest.datasets.find((x) => x.id === n) ?? datasetForSuite(manifest, n);
    if (!d)
      throw new ConfigError(
        `no public dataset for "${n}"; known: ${manifest.datasets.map((x) => x.id).join(', ')} (their suites: ${manifest.datasets.flatMap((x) => x.suites).join(', ')})`,
      );
    return d;
  });
}

/**
 * The data root for a suite run without --data: its dataset fetched into the cache when it is
 * not there yet (verified), or undefined when the suite reads no public dataset.
 */
export async function ensureSuiteData(suite: string, opts: DataOptions = {}): Promise<string | undefined> {
  const manifest = opts.manifest ?? readManifest();
  const dataset = datasetForSuite(manifest, suite);
  if (!dataset) return undefined;
  const dir = join(dataRoot(opts.env), dataset.id);
  if (!isComplete(dataset, dir)) await pullDataset(dataset, opts);
  return dataRoot(opts.env);
}

/** Remove a dataset's cached files. */
export function removeDataset(dataset: Dataset, opts: DataOptions = {}): void {
  rmSync(join(dataRoot(opts.env), dataset.id), { recursive: true, force: true });
}
