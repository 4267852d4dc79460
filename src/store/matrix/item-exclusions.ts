// Item exclusion files: items to leave out of a response matrix before it is analysed (the
// probes' shortcut flags: items answerable without their story). A file is JSON with `items`, a
// list of { suite, id }; `mindscope audit` and `mindscope irt calibrate` take one with
// --exclude-items.

import { InputError } from '../../core/errors.js';
import { readJson } from '../../core/files.js';
import type { ResponseMatrix } from './response-matrix.js';

/** An item exclusion file's content. */
export interface ItemExclusionFile {
  kind: 'mindscope-item-exclusions';
  /** Why the items are left out. */
  reason: string;
  items: Array<{ suite: string; id: string }>;
}

const key = (suite: string, id: string) => `${suite}\u0000${id}`;

/** Read an exclusion file: its items as suite/id keys; a malformed entry is an error naming the file and the entry. */
export function readItemExclusions(path: string): { reason: string; keys: Set<string> } {
  const json = readJson(path) as Partial<ItemExclusionFile> | null;
  if (!json || typeof json !== 'object' || !Array.isArray(json.items))
    throw new InputError('an item exclusion file needs "items": a list of { "suite": ..., "id": ... }', path);
  const keys = new Set<string>();
  json.items.forEach((it, i) => {
    if (!it || typeof it.suite !== 'string' || typeof it.id !== 'string')
      throw new InputError(`items[${i}] needs a string "suite" and a string "id"`, path);
    keys.add(key(it.suite, it.id));
  });
  return { reason: typeof json.reason === 'string' ? json.reason : 'excluded', keys };
}

/**
 * The matrix without the excluded items (an item matches by its suite and id, or, for a matrix
 * read as the benchmark `benchmark`, by that name and its id), and how many were dropped.
 */
export function excludeMatrixItems(
  matrix: ResponseMatrix,
  keys: ReadonlySet<string>,
  benchmark?: string,
): { matrix: ResponseMatrix; dropped: number } {
  const keep = matrix.items.map(
    (it) => !keys.has(key(it.suite, it.itemId)) && !(benchmark !== undefined && keys.has(key(benchmark, it.itemId))),
  );
  return {
    matrix: { subjects: matrix.subjects, items: matrix.items.filter((_, i) => keep[i]), cells: matrix.cells.filter((_, i) => keep[i]) },
    dropped: keep.filter((k) => !k).length,
  };
}
