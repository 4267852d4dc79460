// What the data cache holds of each dataset in the manifest (`mindscope data list`), in a file
// that loads neither the schema library nor the rest of the suites: listing the shipped datasets
// is a start-up command.

import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile } from '../../core/files.js';
import { dataRoot } from './cache.js';
import type { DataManifest, Dataset } from './manifest.js';

/** A dataset of the manifest and what the cache holds of it. */
export interface DatasetStatus {
  id: string;
  suites: string[];
  licence: string;
  citation: string;
  source: string;
  files: number;
  bytes: number;
  /** complete: every file present and verified at its last pull; partial: some present; absent: none. */
  cached: 'complete' | 'partial' | 'absent';
  path: string;
}

/** The file in a dataset's cache folder naming each file's SHA-256 as verified at its last pull. */
export const STAMP = '.mindscope-verified.json';

function stampOf(dir: string): Record<string, string> | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, STAMP), 'utf8')) as Record<string, string>;
  } catch {
    return undefined;
  }
}

/** Whether every file is in the cache as the manifest says (verified at its last pull, size unchanged since). */
export function isComplete(dataset: Dataset, dir: string): boolean {
  const stamp = stampOf(dir);
  return dataset.files.every((f) => {
    const p = join(dir, f.path);
    return stamp?.[f.path] === f.sha256 && existsSync(p) && statSync(p).size === f.bytes;
  });
}

/**
 * The manifest shipped with mindscope, read as it is: package data, which the tests check
 * against the manifest's schema (readManifest), so listing it needs no schema library.
 */
function shippedManifest(): DataManifest {
  return JSON.parse(readFileSync(packageFile('data', 'manifest.json'), 'utf8')) as DataManifest;
}

/** What the manifest (the shipped one unless given) lists and what the cache holds, with licences and citations. */
export function listDatasets(opts: { env?: NodeJS.ProcessEnv; manifest?: DataManifest } = {}): DatasetStatus[] {
  const manifest = opts.manifest ?? shippedManifest();
  return manifest.datasets.map((d) => {
    const dir = join(dataRoot(opts.env), d.id);
    const here = d.files.filter((f) => existsSync(join(dir, f.path))).length;
    return {
      id: d.id,
      suites: d.suites,
      licence: d.licence,
      citation: d.citation,
      source: `${d.source.kind === 'mirror-only' ? 'mirror only; ' : ''}${d.source.repo}@${d.source.revision}`,
      files: d.files.length,
      bytes: d.files.reduce((n, f) => n + f.bytes, 0),
      cached: isComplete(d, dir) ? 'complete' : here > 0 ? 'partial' : 'absent',
      path: dir,
    };
  });
}
