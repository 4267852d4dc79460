// The end-of-run summary `run` and `demo` print.

import { runAccuracy, type EvaluateResult, type Store } from '../../index.js';
import type { CallCounts } from '../../runner/index.js';
import { accuracyTextTable, formatTextTable, formatUsd, irtRunTextTable } from '../../report/index.js';

/** The end-of-run summary: accuracy per subject and category, then tokens and cost. */
export async function printRunSummary(
  store: Store,
  result: EvaluateResult,
  out: (s: string) => void,
  opts: { byAbility?: boolean } = {},
): Promise<void> {
  out(
    `\nrun ${result.runId}: ${result.done} done, ${result.failed} failed, ${result.skipped} already done (${(result.elapsedMs / 1000).toFixed(1)} s)`,
  );
  const table = await runAccuracy(store, result.runId);
  if (result.irt?.length)
    out(`\nestimated full-suite accuracy from the items asked (item response theory, 95% intervals)\n${irtRunTextTable(result.irt)}`);
  if (table.subjects.length)
    out(`\n${result.irt?.length ? 'observed accuracy (%) on the items asked' : 'accuracy (%) by category'}\n${accuracyTextTable(table)}`);
  if (opts.byAbility && table.subjects.length)
    out(`\naccuracy (%) by question type\n${accuracyTextTable(await runAccuracy(store, result.runId, 'ability'))}`);
  if (result.usage.length) {
    out(
      `\nusage\n${formatTextTable(
        ['subject', 'trials', 'input tok', 'output tok', 'cached calls', 'cost'],
        result.usage.map((u) => [
          u.spec,
          String(u.trials),
          String(u.inputTokens),
          String(u.outputTokens),
          `${u.cachedCalls}/${u.totalCalls}`,
          formatUsd(u.costUsd),
        ]),
      )}`,
    );
  }
  if (result.standardPrice?.length) {
    const calls = result.standardPrice.reduce((n, s) => n + s.calls, 0);
    const why = (r: string) => (r === 'no batch API' ? 'it has no batch API' : 'its batch returned them as errors, or was refused');
    out(
      `\n--batch: ${calls} call(s) were made one by one at the standard price, not through a batch: ${result.standardPrice
        .map((s) => `${s.spec} ${s.calls} (${why(s.reason)})`)
        .join(', ')}`,
    );
  }
  const cacheLine = cacheHitsLine(result.calls, result.runId);
  if (cacheLine) out(`\n${cacheLine}`);
  for (const u of result.unpriced) out(`\ncost unknown for ${u.spec}${u.note ? ` (${u.note})` : ''}: give its price with --prices FILE`);
  if (result.truncated)
    out(
      `\n${result.truncated} trial(s) had a reply cut off by the output-token limit (their answers may be missing or wrong): raise --max-tokens; mindscope status counts them per subject.`,
    );
  if (result.costLimit)
    out(
      `\nstopped at the cost limit: ${formatUsd(result.costLimit.spentUsd)} spent of ${formatUsd(result.costLimit.maxCostUsd)}; run the same command with a higher --max-cost to continue.`,
    );
  for (const a of result.aborted) out(`\nstopped ${a.spec}: ${a.error}`);
  if (result.interrupted) out('\ninterrupted: the trials in flight were stored, no new one was started; run the same command to continue.');
  if (result.failed)
    out(`\n${result.failed} trial(s) failed after retries; run the same command again to retry them (mindscope status shows where).`);
}

/** Where this invocation's cached replies came from: this run's earlier attempts, other runs (named), or unknown. */
function cacheHitsLine(calls: CallCounts, runId: string): string | undefined {
  if (!calls.cached) return undefined;
  const from = calls.cachedFrom.map((o) =>
    o.origin === runId
      ? `${o.calls} from this run's earlier attempts`
      : o.origin === null
        ? `${o.calls} cached before origins were kept`
        : `${o.calls} from ${o.origin.startsWith('score ') ? o.origin : `run ${o.origin}`}`,
  );
  return `${calls.cached} of ${calls.made} model call(s) were answered from the call cache (${from.join(', ')}), not made again; --no-cache makes every call.`;
}
