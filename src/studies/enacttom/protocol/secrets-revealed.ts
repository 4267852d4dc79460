// The calibration condition of the EnactToM paper (Section 4.3, "Structural calibrator"): every
// agent's secrets revealed to every agent. A team that fails a task even so fails it for embodied
// reasons (navigation, manipulation, the turn budget), not for want of knowledge: the paper
// rejects such tasks. Run a suite in this condition with the run option
// `options: { episode: { secrets: revealed } }` (a config file), or with `embodied calibrate`.

import { ConfigError } from '../../../core/index.js';
import type { EmbodiedTask, KnowledgeFact } from '../world/index.js';

/** The episode protocol's run options (`options.episode` of a run specification). */
export interface EpisodeOptions {
  /** `revealed`: every agent reads every agent's secrets and knows what they convey (calibration); default `private`. */
  secrets: 'private' | 'revealed';
}

/** Read `options.episode` of a run specification; an unknown key or value is a ConfigError naming it. */
export function episodeOptions(options: Record<string, unknown> | undefined): EpisodeOptions {
  const raw = options?.episode;
  if (raw === undefined || raw === null) return { secrets: 'private' };
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw new ConfigError('options.episode must be an object such as { secrets: revealed }');
  const o = raw as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'secrets') throw new ConfigError(`options.episode.${k}: unknown option (known: secrets)`);
  const secrets = o.secrets ?? 'private';
  if (secrets !== 'private' && secrets !== 'revealed')
    throw new ConfigError(`options.episode.secrets must be private or revealed, got ${JSON.stringify(secrets)}`);
  return { secrets };
}

const revealed = new WeakMap<EmbodiedTask, EmbodiedTask>();

/**
 * The task with every agent's secrets revealed to every agent: each agent reads its own secrets
 * and then every partner's (named as the partner's), and knows every fact any secret conveys.
 * Rules stay each agent's own (rooms barred, message budgets and targets, actions).
 */
export function revealSecrets(task: EmbodiedTask): EmbodiedTask {
  const cached = revealed.get(task);
  if (cached) return cached;
  const all: KnowledgeFact[] = [];
  const seen = new Set<string>();
  for (const facts of Object.values(task.knowledge.private))
    for (const f of facts) {
      const key = JSON.stringify(f);
      if (!seen.has(key)) {
        seen.add(key);
        all.push(f);
      }
    }
  const out: EmbodiedTask = {
    ...task,
    agents: task.agents.map((a) => ({
      ...a,
      secrets: [...a.secrets, ...task.agents.filter((b) => b.id !== a.id).flatMap((b) => b.secrets.map((s) => `${b.id}'s secret: ${s}`))],
    })),
    knowledge: {
      public: task.knowledge.public,
      private: Object.fromEntries(task.agents.map((a) => [a.id, all.slice()])),
    },
  };
  revealed.set(task, out);
  return out;
}
