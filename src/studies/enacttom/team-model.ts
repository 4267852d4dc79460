// `team:SPEC+SPEC+...`: one subject whose members play the agents of an embodied episode in
// turn (agent_i is played by member i modulo the team size), so that mixed teams run through
// the runner, its cache and its cost accounting as one subject. The study's plugin adds the
// `team:` provider.

import { ConfigError, readInfo, type ChatResponse } from '../../core/index.js';
import { defineProvider, type ChatModel, type ChatRequest } from '../../models/index.js';
import { EPISODE_INFO } from './protocol/reference-teams.js';

/** `team:SPEC+SPEC+...`: one subject whose members play the agents of an embodied episode in turn. */
export class TeamModel implements ChatModel {
  readonly spec: string;
  readonly provider = 'team';
  readonly model: string;
  readonly endpoint: string;
  readonly local: boolean;

  constructor(readonly members: ChatModel[]) {
    if (members.length === 0) throw new Error('a team needs at least one member');
    this.spec = `team:${members.map((m) => m.spec).join('+')}`;
    this.model = this.spec.slice(5);
    this.endpoint = this.spec;
    this.local = members.every((m) => m.local);
  }

  chat(req: ChatRequest): Promise<ChatResponse> {
    const agent = readInfo(req.context?.info, EPISODE_INFO)?.agent ?? '';
    const index = Number(/(\d+)$/.exec(agent)?.[1] ?? 0);
    return this.members[index % this.members.length]!.chat(req);
  }

  async close(): Promise<void> {
    await Promise.all(this.members.map((m) => m.close?.()));
  }
}

/** The `team:SPEC+SPEC+...` provider: each member is built from its own spec. */
export const teamProvider = defineProvider({
  prefix: 'team',
  form: 'team:SPEC+SPEC+... (embodied episodes: agent_i is played by member i)',
  create: (rest, spec, ctx) => {
    const members = rest.split('+').filter(Boolean);
    if (members.length === 0) throw new ConfigError(`${spec}: expected team:SPEC+SPEC+...`);
    return new TeamModel(members.map((m) => ctx.create(m)));
  },
});
