// Checking the data cache again: each file of a dataset read back and compared with the SHA-256
// and size the manifest records for it (what `data pull` checked when it stored the file), so
// that a file changed or truncated since is found before a run reads it.

import { createHash } from 'node:crypto';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { dataRoot } from './cache.js';
import type { Dataset } from './manifest.js';

/** One cached file checked: OK, MISMATCH (other bytes than the manifest's) or MISSING. */
export interface FileCheck {
  dataset: string;
  path: string;
  status: 'OK' | 'MISMATCH' | 'MISSING';
  expectedSha256: string;
  expectedBytes: number;
  /** What the file holds (MISMATCH and OK); null when it is missing. */
  sha256: string | null;
  bytes: number | null;
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Check every file of `dataset` in the cache (under MINDSCOPE_CACHE of `env`) against the manifest. */
export async function verifyDataset(dataset: Dataset, env: NodeJS.ProcessEnv = process.env): Promise<FileCheck[]> {
  const dir = join(dataRoot(env), dataset.id);
  const out: FileCheck[] = [];
  for (const f of dataset.files) {
    const path = join(dir, f.path);
    const expected = { dataset: dataset.id, path: f.path, expectedSha256: f.sha256, expectedBytes: f.bytes };
    if (!existsSync(path) || !statSync(path).isFile()) {
      out.push({ ...expected, status: 'MISSING', sha256: null, bytes: null });
      continue;
    }
    const bytes = statSync(path).size;
    const sha256 = await sha256File(path);
    out.push({ ...expected, status: sha256 === f.sha256 && bytes === f.bytes ? 'OK' : 'MISMATCH', sha256, bytes });
  }
  return out;
}

/** Whether any file of the dataset is in the cache (a dataset never pulled is not checked unless named). */
export function isCached(dataset: Dataset, env: NodeJS.ProcessEnv = process.env): boolean {
  const dir = join(dataRoot(env), dataset.id);
  return dataset.files.some((f) => existsSync(join(dir, f.path)));
}
