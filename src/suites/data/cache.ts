// The data cache: one folder per dataset, laid out as the loaders read it (the same layout as
// a `--data` folder), under MINDSCOPE_CACHE or the user's cache directory.

import { homedir, platform } from 'node:os';
import { join } from 'node:path';

/** The cache root: $MINDSCOPE_CACHE, else the platform's user cache folder + /mindscope. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MINDSCOPE_CACHE) return env.MINDSCOPE_CACHE;
  if (platform() === 'darwin') return join(homedir(), 'Library', 'Caches', 'mindscope');
  if (platform() === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'mindscope', 'Cache');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mindscope');
}

/** The folder holding every dataset: what a run reads as its --data root. */
export function dataRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(cacheRoot(env), 'data');
}
