// Episodes of a stored run: each trial's outcome (for the metrics) and its detail (for the
// failure analysis and the report's transcripts). Episodes stored with the earlier self-fact
// probes (protocol/records.ts) keep their functional outcome and lose their literal one.

import { isEmbodiedTask, type EmbodiedTask } from '../world/index.js';
import { readRecord, type Item } from '../../../core/index.js';
import { EPISODE_RECORDS, type EpisodeDetail } from '../protocol/records.js';
import type { Store } from '../../../store/index.js';
import type { EpisodeTrial } from './episode-metrics.js';

export interface StoredEpisode extends EpisodeTrial {
  subjectId: string;
  suite: string;
  itemHash: string;
  detail: EpisodeDetail;
}

/** The stored episodes of a run (task, subject, trial and the episode detail). */
export async function storedEpisodes(store: Store, runId: string): Promise<StoredEpisode[]> {
  const out: StoredEpisode[] = [];
  for await (const r of store.responses(runId, EPISODE_RECORDS.scorer)) {
    const t = await store.transcript({ runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate });
    const detail = t ? readRecord(EPISODE_RECORDS, t.transcript, `${r.suite}/${r.itemId}`) : undefined;
    if (!detail) continue;
    out.push({
      subject: r.spec,
      subjectId: r.subjectId,
      suite: r.suite,
      itemHash: r.itemHash,
      taskId: r.itemId,
      replicate: r.replicate,
      ...episodeOutcome(detail),
      detail,
    });
  }
  return out;
}

/**
 * What the metrics take from one stored episode. Probes of the earlier self-fact form graded
 * the world, not a partner's mind: their literal outcome is left out (the episode still counts
 * for functional success).
 */
export function episodeOutcome(detail: EpisodeDetail): Omit<EpisodeTrial, 'subject' | 'taskId' | 'replicate'> {
  const legacy = detail.literal.form === undefined && detail.literal.total > 0;
  return {
    category: detail.category,
    kDepth: detail.kDepth,
    functional: detail.functional,
    literal: !legacy && detail.literal.allCorrect,
    probesCorrect: legacy ? 0 : detail.literal.correct,
    probesTotal: legacy ? 0 : detail.literal.total,
    divergentCorrect: detail.literal.divergent?.correct ?? 0,
    divergentTotal: detail.literal.divergent?.total ?? 0,
    ...(legacy ? { legacyProbes: true } : {}),
  };
}

/** The embodied task behind an item, from the store's copy of the item. */
export function taskOfItem(item: Item): EmbodiedTask | undefined {
  const payload = item.payload;
  return typeof payload === 'object' && payload !== null && 'task' in payload && isEmbodiedTask(payload.task) ? payload.task : undefined;
}
