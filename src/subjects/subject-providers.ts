// `agent:NAME` and `team:SPEC+SPEC+...` as model specs: the reference subjects the given
// protocols define, and mixed teams for embodied episodes.

import { ConfigError } from '../core/index.js';
import { defineProvider, type ProviderDefinition } from '../models/index.js';
import type { ProtocolModule } from '../protocols/index.js';
import { ReferenceAgent, referenceAgents } from './reference-agent.js';
import { TeamModel } from '../studies/enacttom/team-model.js';

/** Provider entries for `agent:` (reference subjects of these protocols) and `team:`. */
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
    defineProvider({
      prefix: 'team',
      form: 'team:SPEC+SPEC+... (embodied episodes: agent_i is played by member i)',
      create: (rest, spec, ctx) => {
        const members = rest.split('+').filter(Boolean);
        if (members.length === 0) throw new ConfigError(`${spec}: expected team:SPEC+SPEC+...`);
        return new TeamModel(members.map((m) => ctx.create(m)));
      },
    }),
  ];
}
