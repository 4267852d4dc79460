// The protocols of a registry of the default plugins (the kernel's, then each default plugin's,
// in order), for readers of stored trials that need no more of a registry: listing them loads
// no model provider, subject or suite.

import { KERNEL_PROTOCOLS, type ProtocolModule } from '../protocols/index.js';
import { defaultPlugins } from './plugin.js';

/** createRegistry().protocols, without building the registry. */
export function defaultProtocols(): ProtocolModule[] {
  return [...KERNEL_PROTOCOLS, ...defaultPlugins().flatMap((p) => p.protocols ?? [])];
}
