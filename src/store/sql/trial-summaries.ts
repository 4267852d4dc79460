// A run's trials without their transcripts: keys, status, usage, finish time and score values,
// read in keyset pages in the order they were stored. What a reader that tallies a run before
// streaming its transcripts needs (the Inspect export's log headers), at a fraction of the cost.

import type { RunTrialSummary } from '../store.js';
import type { SqlDriver } from './driver.js';

const PAGE = 5000;

export async function* trialSummaryPages(db: SqlDriver, runId: string, batchSize = PAGE): AsyncIterable<RunTrialSummary> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size ${batchSize}: a positive integer`);
  for (let after = 0; ; ) {
    const page = await db.all<Omit<RunTrialSummary, 'scores'> & { id: number }>(
      `SELECT t.id AS id, t.subject_id AS "subjectId", t.suite AS suite, t.item_id AS "itemId", t.replicate AS replicate,
         t.status AS status, t.input_tokens AS "inputTokens", t.output_tokens AS "outputTokens", t.cost_usd AS "costUsd",
         t.unpriced_calls AS "unpricedCalls", t.finished_at AS "finishedAt"
       FROM trials t WHERE t.run_id = ? AND t.id > ? ORDER BY t.id LIMIT ?`,
      [runId, after, batchSize],
    );
    if (page.length === 0) break;
    const scores = await db.all<{ trial_id: number; scorer: string; value: number }>(
      `SELECT trial_id, scorer, value FROM scores WHERE trial_id IN (SELECT id FROM trials WHERE run_id = ? AND id >= ? AND id <= ?)
       ORDER BY trial_id, ${db.dialect.insertionOrder}`,
      [runId, page[0]!.id, page.at(-1)!.id],
    );
    let s = 0;
    for (const t of page) {
      const own: RunTrialSummary['scores'] = [];
      while (s < scores.length && scores[s]!.trial_id < t.id) s++;
      for (; s < scores.length && scores[s]!.trial_id === t.id; s++) own.push({ scorer: scores[s]!.scorer, value: scores[s]!.value });
      yield {
        subjectId: t.subjectId,
        suite: t.suite,
        itemId: t.itemId,
        replicate: t.replicate,
        status: t.status,
        inputTokens: t.inputTokens,
        outputTokens: t.outputTokens,
        costUsd: t.costUsd,
        unpricedCalls: t.unpricedCalls,
        finishedAt: t.finishedAt,
        scores: own,
      };
    }
    after = page.at(-1)!.id;
  }
}
