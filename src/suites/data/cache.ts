// The data cache: one folder per dataset, laid out as the loaders read it (the same layout as
// a `--data` folder), under MINDSCOPE_CACHE or the user's cache directory (core/user-cache.ts).

import { join } from 'node:path';
import { cacheRoot } from '../../core/user-cache.js';

export { cacheRoot };

/** The folder holding every dataset: what a run reads as its --data root. */
export function dataRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'data');
}
