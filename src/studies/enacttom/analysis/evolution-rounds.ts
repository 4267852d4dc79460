// Evolution over rounds: each round of an evolving pool is its own stored run; per round, the
// tasks evaluated and each subject's functional and literal success, in the order given.

import type { Store } from '../../../store/index.js';
import { episodeMetrics } from './episode-metrics.js';
import { storedEpisodes } from './episode-results.js';

export interface EvolutionRound {
  round: number;
  runId: string;
  tasks: number;
  subjects: Array<{ subject: string; functional: number; literal: number; runs: number }>;
}

/** Success per subject in each run, the runs taken as rounds 0, 1, 2 ... in the order given. */
export async function evolutionRounds(store: Store, runIds: string[]): Promise<EvolutionRound[]> {
  const out: EvolutionRound[] = [];
  for (const [round, runId] of runIds.entries()) {
    const episodes = await storedEpisodes(store, runId);
    const metrics = episodeMetrics(episodes, 1);
    out.push({
      round,
      runId,
      tasks: new Set(episodes.map((e) => e.itemHash)).size,
      subjects: metrics.flatMap((m) => {
        const o = m.scopes.find((s) => s.scope === 'overall');
        return o ? [{ subject: m.subject, functional: o.functional.avg, literal: o.literal.avg, runs: o.runs }] : [];
      }),
    });
  }
  return out;
}
