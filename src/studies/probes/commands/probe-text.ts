// The probe summary as text tables.

import { formatTextTable } from '../../../report/index.js';
import type { ProbeSummary } from '../analysis/index.js';
import { probeTables } from '../report/probe-tables.js';

/** A run's probe summary for people. */
export function probeText(s: ProbeSummary): string {
  return probeTables(s)
    .map((t) => `${t.title}\n${t.note ? `(${t.note})\n` : ''}${formatTextTable(t.header, t.rows)}\n`)
    .join('\n');
}
