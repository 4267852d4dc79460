// The config file a command was given (--config FILE), and the registry its plugins make.

import { createRegistry, type LoadedConfig, type Registry } from '../index.js';
import { loadConfigOnce } from './command-context.js';

export interface ConfigContext {
  config: LoadedConfig | undefined;
  registry: Registry;
}

/** Load the config (when given) and build the registry with its plugins. */
export async function configContext(path: string | undefined): Promise<ConfigContext> {
  const config = path ? await loadConfigOnce(path) : undefined;
  return { config, registry: createRegistry(config?.plugins ?? []) };
}
