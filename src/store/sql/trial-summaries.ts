// A run's trials without their transcripts: keys, status, usage, finish time and score values,
// read in keyset pages in the order they were stored. What a reader that tallies a run before
// streaming its transcripts needs (the Inspect export's log headers), at a fraction of the cost:
// trial_rows read directly, its names looked up once each (trial-names.ts), and the scores'
// values without their details.

import type { RunTrialSummary } from '../store.js';
import type { SqlDriver } from './driver.js';
import { runKeyOf, TrialNames } from './trial-names.js';

const PAGE = 5000;

interface SummaryRow {
  id: number;
  subjectKey: number;
  suiteKey: number;
  itemKey: number;
  replicate: number;
  status: RunTrialSummary['status'];
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  unpricedCalls: number;
  finishedAt: string;
}

export async function* trialSummaryPages(db: SqlDriver, runId: string, batchSize = PAGE): AsyncIterable<RunTrialSummary> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size ${batchSize}: a positive integer`);
  const runKey = await runKeyOf(db, runId);
  if (runKey === undefined) return;
  const names = new TrialNames(db);
  for (let after = 0; ; ) {
    const page = await db.all<SummaryRow>(
      `SELECT t.id AS id, t.subject_key AS "subjectKey", t.suite_key AS "suiteKey", t.item_key AS "itemKey", t.replicate AS replicate,
         t.status AS status, t.input_tokens AS "inputTokens", t.output_tokens AS "outputTokens", t.cost_usd AS "costUsd",
         t.unpriced_calls AS "unpricedCalls", t.finished_at AS "finishedAt"
       FROM trial_rows t WHERE t.run_key = ? AND t.id > ? ORDER BY t.id LIMIT ?`,
      [runKey, after, batchSize],
    );
    if (page.length === 0) break;
    await names.resolve(page);
    const first = Number(page[0]!.id);
    const last = Number(page[page.length - 1]!.id);
    // The scores of the page's id range, in trial order: those of other runs' trials in the range are passed over.
    const scores = await db.all<{ trial_id: number; scorer: string; value: number }>(
      `SELECT trial_id, scorer, value FROM scores WHERE trial_id >= ? AND trial_id <= ? ORDER BY trial_id, ${db.dialect.insertionOrder}`,
      [first, last],
    );
    let s = 0;
    for (const t of page) {
      const id = Number(t.id);
      const own: RunTrialSummary['scores'] = [];
      while (s < scores.length && Number(scores[s]!.trial_id) < id) s++;
      for (; s < scores.length && Number(scores[s]!.trial_id) === id; s++) own.push({ scorer: scores[s]!.scorer, value: scores[s]!.value });
      yield {
        subjectId: names.name(t.subjectKey),
        suite: names.name(t.suiteKey),
        itemId: names.name(t.itemKey),
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
    if (page.length < batchSize) break;
    after = last;
  }
}
