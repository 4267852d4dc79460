// The config file a command was given (--config FILE), and the registry its plugins make.

import { resolve } from 'node:path';
import { createRegistry, loadConfig, type LoadedConfig, type Registry } from '../index.js';

export interface ConfigContext {
  config: LoadedConfig | undefined;
  registry: Registry;
}

const loaded = new Map<string, Promise<LoadedConfig>>();

/**
 * The config file at `path`, loaded once: the command line reads its plugins' commands before
 * the command runs, and the command then gets the same plugins (a plugin module runs once).
 */
export function loadConfigOnce(path: string): Promise<LoadedConfig> {
  const key = resolve(path);
  let config = loaded.get(key);
  if (!config) loaded.set(key, (config = loadConfig(path)));
  return config;
}

/** Load the config (when given) and build the registry with its plugins. */
export async function configContext(path: string | undefined): Promise<ConfigContext> {
  const config = path ? await loadConfigOnce(path) : undefined;
  return { config, registry: createRegistry(config?.plugins ?? []) };
}
