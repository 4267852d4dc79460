// The probes' analyses of a stored run, and the flag file the audit and IRT read.

import type { Store } from '../../../store/index.js';
import { beliefSummary, type BeliefSubject } from './beliefs.js';
import { invarianceSummary, type InvarianceItem, type InvarianceSubject } from './invariance.js';
import { probeRows } from './probe-rows.js';
import { sensitivitySummary, type SensitivitySubject } from './sensitivity.js';
import { shortcutSummary, type ShortcutSummary } from './shortcut.js';

export { beliefRecall, beliefSummary, type BeliefSubject } from './beliefs.js';
export { invarianceSummary, type InvarianceItem, type InvarianceSubject, type PositionalBias } from './invariance.js';
export { probeRows, type ProbeRow } from './probe-rows.js';
export { sensitivitySummary, type AlterationResult, type SensitivitySubject } from './sensitivity.js';
export {
  binomialUpperTail,
  chanceFlagRate,
  shortcutSummary,
  type ShortcutFlag,
  type ShortcutSuite,
  type ShortcutSummary,
} from './shortcut.js';
export { itemFlagFile, type ItemFlagFile } from './flag-file.js';

/** Every probe family's summary of a run (a family without trials is left out). */
export interface ProbeSummary {
  runId: string;
  invariance?: { subjects: InvarianceSubject[]; items: InvarianceItem[] };
  sensitivity?: SensitivitySubject[];
  shortcut?: ShortcutSummary;
  beliefs?: BeliefSubject[];
}

/** The probes' summary of a stored run. */
export async function probeSummary(store: Store, runId: string, opts: { alpha?: number } = {}): Promise<ProbeSummary> {
  const rows = await probeRows(store, runId);
  const has = (f: string) => rows.some((r) => r.detail.family === f);
  return {
    runId,
    ...(has('invariance') ? { invariance: invarianceSummary(rows) } : {}),
    ...(has('sensitivity') ? { sensitivity: sensitivitySummary(rows) } : {}),
    ...(has('shortcut') ? { shortcut: shortcutSummary(rows, opts.alpha) } : {}),
    ...(has('beliefs') ? { beliefs: beliefSummary(rows) } : {}),
  };
}
