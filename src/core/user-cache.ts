// mindscope's folder in the user's cache: fetched datasets, and the reply journals of
// PostgreSQL stores. $MINDSCOPE_CACHE moves it.

import { homedir, platform } from 'node:os';
import { join } from 'node:path';

/** The cache root: $MINDSCOPE_CACHE, else the platform's user cache folder + /mindscope. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MINDSCOPE_CACHE) return env.MINDSCOPE_CACHE;
  if (platform() === 'darwin') return join(homedir(), 'Library', 'Caches', 'mindscope');
  if (platform() === 'win32') return join(env.LOCALAPPDATA ?? join(homedir(), 'AppData', 'Local'), 'mindscope', 'Cache');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'mindscope');
}
