// Episodes of a stored run: each trial's outcome (for the metrics) and its detail (for the
// failure analysis and the report's transcripts).

import type { EmbodiedTask, EpisodeDetail, Item } from '../../core/index.js';
import type { Store } from '../../store/index.js';
import type { EpisodeTrial } from './episode-metrics.js';

export const EPISODE_SCORER_NAME = 'episode-functional';

export interface StoredEpisode extends EpisodeTrial {
  subjectId: string;
  suite: string;
  itemHash: string;
  detail: EpisodeDetail;
}

export function storedEpisodes(store: Store, runId: string): StoredEpisode[] {
  const out: StoredEpisode[] = [];
  for (const r of store.responses(runId, EPISODE_SCORER_NAME)) {
    const t = store.transcript({ runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate });
    const detail = (t?.transcript as { detail?: EpisodeDetail } | undefined)?.detail;
    if (!detail) continue;
    out.push({
      subject: r.spec,
      subjectId: r.subjectId,
      suite: r.suite,
      itemHash: r.itemHash,
      taskId: r.itemId,
      replicate: r.replicate,
      category: detail.category,
      kDepth: detail.kDepth,
      functional: detail.functional,
      literal: detail.literal.allCorrect,
      probesCorrect: detail.literal.correct,
      probesTotal: detail.literal.total,
      detail,
    });
  }
  return out;
}

/** The embodied task behind an item, from the store's copy of the item. */
export function taskOfItem(item: Item): EmbodiedTask | undefined {
  return (item.payload as { task?: EmbodiedTask } | undefined)?.task;
}
