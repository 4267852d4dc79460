// What a user module adds to mindscope without forking it: protocols, suites, providers and
// scorers, declared with the define* functions and listed in a config file's `plugins`.

import type { ProviderDefinition } from '../models/index.js';
import type { ProtocolModule } from '../protocols/index.js';
import type { Suite } from '../suites/index.js';
import type { ScorerDefinition } from './scorer.js';

export interface Plugin {
  /** Shown in errors about the plugin. */
  name: string;
  protocols?: ProtocolModule[];
  suites?: Suite[];
  providers?: ProviderDefinition[];
  scorers?: ScorerDefinition[];
}

/** Declare a plugin: the module's default export (or its export named `plugin`). */
export function definePlugin(plugin: Plugin): Plugin {
  if (!plugin.name) throw new Error('a plugin needs a name');
  return plugin;
}
