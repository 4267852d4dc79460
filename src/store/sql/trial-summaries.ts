// A run's trials without their transcripts: keys, status, usage, finish time and score values,
// read in keyset pages in the order they were stored. What a reader that tallies a run before
// streaming its transcripts needs (the Inspect export's log headers), at a fraction of the cost:
// trial_rows read directly, its names looked up once each (trial-names.ts), and the scores'
// values without their details (trial-scores.ts).

import type { RunTrialSummary } from '../store.js';
import type { SqlDriver } from './driver.js';
import { runKeyOf, TrialNames } from './trial-names.js';
import { TrialScores } from './trial-scores.js';
import { finishedAtText, statusOf } from './trial-values.js';

// Small enough that a page is garbage before the young generation's next collection (what survives one grows it).
const PAGE = 1000;

/** The columns read of trial_rows, in order (rows come as arrays). */
const COLUMNS = `t.id, t.subject_key, t.suite_key, t.item_key, t.replicate, t.status,
  t.input_tokens, t.output_tokens, t.cost_usd, t.unpriced_calls, t.finished_at`;
const NAME_COLUMNS = [1, 2, 3];

export async function* trialSummaryPages(db: SqlDriver, runId: string, batchSize = PAGE): AsyncIterable<RunTrialSummary> {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size ${batchSize}: a positive integer`);
  const runKey = await runKeyOf(db, runId);
  if (runKey === undefined) return;
  const names = new TrialNames(db);
  const scoreRows = new TrialScores(db, names, false);
  // The pass reads the run once (its pages are not kept in memory): see SqlDriver.beginPass.
  const endPass = db.beginPass();
  try {
    for (let after = 0; ; ) {
      const page = await db.rows(`SELECT ${COLUMNS} FROM trial_rows t WHERE t.run_key = ? AND t.id > ? ORDER BY t.id LIMIT ?`, [
        runKey,
        after,
        batchSize,
      ]);
      if (page.length === 0) break;
      names.startPage();
      await names.resolve(page, NAME_COLUMNS);
      const first = Number(page[0]![0]);
      const last = Number(page[page.length - 1]![0]);
      // The scores of the page's id range, in trial order: those of other runs' trials in the range are passed over.
      const scores = await scoreRows.range(first, last);
      let s = 0;
      for (const t of page) {
        const id = Number(t[0]);
        const own: RunTrialSummary['scores'] = [];
        while (s < scores.length && scores[s]!.trialId < id) s++;
        for (; s < scores.length && scores[s]!.trialId === id; s++) own.push({ scorer: scores[s]!.scorer, value: scores[s]!.value });
        yield {
          subjectId: names.name(t[1]),
          suite: names.name(t[2]),
          itemId: names.name(t[3]),
          replicate: t[4] as number,
          status: statusOf(t[5]),
          inputTokens: t[6] as number,
          outputTokens: t[7] as number,
          costUsd: t[8] as number,
          unpricedCalls: t[9] as number,
          finishedAt: finishedAtText(t[10] as string | number),
          scores: own,
        };
      }
      if (page.length < batchSize) break;
      after = last;
    }
  } finally {
    endPass();
  }
}
