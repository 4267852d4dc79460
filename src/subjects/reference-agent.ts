// Reference subjects (agent:NAME): deterministic subjects that answer through the same text
// pipeline as a real model, from the ground truth each protocol attaches to its calls. How an
// agent behaves on a protocol is that protocol's business (its `policies`); this class only
// finds the policy: the agent's own, else the protocol's '*' policy, else it declines.

import { JUDGE_INFO, readInfo, type ChatResponse } from '../core/index.js';
import type { ChatModel, ChatRequest } from '../models/index.js';
import type { ProtocolModule } from '../protocols/index.js';
import { judgeReply, REFERENCE_JUDGES } from './reference-judges.js';

const DECLINE = 'I cannot answer this item.';

/** Every reference agent the protocols (and the offline judges) define, with what it does. */
export function referenceAgents(protocols: readonly ProtocolModule[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of protocols) {
    for (const [name, policy] of Object.entries(p.policies ?? {})) if (name !== '*' && !out[name]) out[name] = policy.describe;
  }
  return { ...out, ...REFERENCE_JUDGES };
}

/** A reference subject (`agent:NAME`) that answers each call through its protocol's reference policy, from the side information the protocol attaches. */
export class ReferenceAgent implements ChatModel {
  readonly spec: string;
  readonly provider = 'agent';
  readonly endpoint: string;
  readonly local = true;
  readonly #byProtocol: ReadonlyMap<string, ProtocolModule>;

  /** `name` must be one of referenceAgents(protocols). */
  constructor(
    readonly model: string,
    protocols: readonly ProtocolModule[],
  ) {
    const known = referenceAgents(protocols);
    if (!known[model]) throw new Error(`unknown reference agent agent:${model} (known: ${Object.keys(known).join(', ')})`);
    this.#byProtocol = new Map(protocols.map((p) => [p.name, p]));
    this.spec = `agent:${model}`;
    this.endpoint = this.spec;
  }

  async chat(req: ChatRequest): Promise<ChatResponse> {
    return { text: this.#reply(req), usage: { inputTokens: 0, outputTokens: 0 }, latencyMs: 0, finishReason: 'stop' };
  }

  #reply(req: ChatRequest): string {
    const ctx = req.context ?? {};
    if (REFERENCE_JUDGES[this.model]) return judgeReply(this.model, readInfo(ctx.info, JUDGE_INFO));
    const protocol = ctx.info ? this.#byProtocol.get(ctx.info.key.name) : undefined;
    const policy = protocol?.policies?.[this.model] ?? protocol?.policies?.['*'];
    return policy?.reply(ctx) ?? DECLINE;
  }
}
