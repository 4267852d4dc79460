// The study's one analysis: accuracy with its 95% interval per subject on true- and false-belief
// stories, from a stored run (the kernel's accuracy table grouped by the items' ability labels).

import { runAccuracy, type Store } from 'mindscope';

/** One subject's accuracy on each kind of story. */
export interface BeliefRow {
  subject: string;
  condition: string;
  accuracy: number;
  lower: number;
  upper: number;
  items: number;
}

/** The rows of a run, false belief first. */
export async function beliefTable(store: Store, runId: string): Promise<BeliefRow[]> {
  const table = await runAccuracy(store, runId, 'ability');
  return table.cells
    .filter((c) => c.group === 'true-belief' || c.group === 'false-belief')
    .map((c) => ({ subject: c.subject, condition: c.group, accuracy: c.accuracy, lower: c.lower, upper: c.upper, items: c.items }))
    .sort((a, b) => a.subject.localeCompare(b.subject) || a.condition.localeCompare(b.condition));
}
