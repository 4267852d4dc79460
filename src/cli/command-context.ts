// A config file loaded once per process: the command line reads its plugins' commands (and
// report flags) before the command runs, and the command then gets the same plugins.

import { resolve } from 'node:path';
import type { LoadedConfig } from '../app/index.js';

const loaded = new Map<string, Promise<LoadedConfig>>();

/** A config file, loaded once per process: its plugins' modules are imported once. */
export function loadConfigOnce(file: string): Promise<LoadedConfig> {
  const key = resolve(file);
  let config = loaded.get(key);
  if (!config) {
    config = import('../app/index.js').then((app) => app.loadConfig(file));
    loaded.set(key, config);
  }
  return config;
}
