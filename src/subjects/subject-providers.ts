// `agent:NAME` as a model spec: the reference subjects the given protocols define.

import { ConfigError } from '../core/index.js';
import { defineProvider, type ProviderDefinition } from '../models/index.js';
import type { ProtocolModule } from '../protocols/index.js';
import { ReferenceAgent, referenceAgents } from './reference-agent.js';

/** The provider entry for `agent:` (reference subjects of these protocols). */
export function referenceSubjectProviders(protocols: readonly ProtocolModule[]): ProviderDefinition[] {
  const agents = () => Object.keys(referenceAgents(protocols));
  return [
    defineProvider({
      prefix: 'agent',
      form: `agent:NAME (${agents().join(', ')})`,
      create: (name, spec) => {
        if (!agents().includes(name)) {
          throw new ConfigError(
            `unknown reference agent "${spec}"; known: ${agents()
              .map((a) => `agent:${a}`)
              .join(', ')}`,
          );
        }
        return new ReferenceAgent(name, protocols);
      },
    }),
  ];
}
