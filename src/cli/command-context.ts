// What a command is told when it is registered (CommandContext): the manifests of the built-in
// studies and of the plugins of the config file its arguments name (--config FILE), so that, for
// one, `report` has an option for each report section flag a plugin declares.

import { resolve } from 'node:path';
import type { CommandContext, LoadedConfig } from '../app/index.js';
import { pluginManifests } from '../builtin-studies.js';

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

/** The file of `--config FILE` or `--config=FILE` among the arguments, if any. */
function configArgument(args: readonly string[]): string | undefined {
  for (const [i, a] of args.entries()) {
    if (a === '--') return undefined;
    if (a === '--config') return args[i + 1];
    if (a.startsWith('--config=')) return a.slice('--config='.length);
  }
  return undefined;
}

/** The context of a command run with `args`: the built-in studies' manifests, then those of the config's plugins. */
export async function commandContext(args: readonly string[]): Promise<CommandContext> {
  const file = configArgument(args);
  return { manifests: pluginManifests(file ? (await loadConfigOnce(file)).plugins : []) };
}
