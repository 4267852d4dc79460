// The dialogue windows DialToM's items were built from, before human verification: the authors'
// original_data layout, one folder per domain (MI, ESC, PFG) of JSON files, each an object of
// window id -> { ctx: ["speaker: text", ...], ... }. Every entry is a context, as the paper counts
// them (Table 2: MI 865, ESC 3,215, PFG 1,863).

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InputError, readJson } from '../../../core/index.js';
import { resolveDataDir } from '../../../suites/index.js';

/** The windows per domain (folder name), each a list of utterances; DIR or DIR/original_data holds the domain folders. */
export function readDialtomWindows(root: string): Map<string, string[][]> {
  const dir = resolveDataDir(root, 'original_data');
  const out = new Map<string, string[][]>();
  for (const domain of readdirSync(dir).sort()) {
    const folder = join(dir, domain);
    if (!statSync(folder).isDirectory()) continue;
    const contexts: string[][] = [];
    for (const name of readdirSync(folder)
      .filter((n) => n.endsWith('.json'))
      .sort()) {
      const file = join(folder, name);
      const data = readJson(file);
      if (!data || typeof data !== 'object' || Array.isArray(data))
        throw new InputError('expected an object of window id -> { ctx }', file);
      for (const [id, w] of Object.entries(data as Record<string, { ctx?: unknown }>)) {
        if (!Array.isArray(w?.ctx) || w.ctx.some((t) => typeof t !== 'string'))
          throw new InputError(`window "${id}": "ctx" must be a list of "speaker: text" utterances`, file);
        contexts.push(w.ctx as string[]);
      }
    }
    if (contexts.length) out.set(domain, contexts);
  }
  if (out.size === 0) throw new InputError('no domain folder with window files (DOMAIN/*.json of id -> { ctx })', dir);
  return out;
}
