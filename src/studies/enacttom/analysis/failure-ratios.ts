// A task's failure ratio as the EnactToM paper takes it across models: per subject, the share of
// its episodes of the task that failed; then the mean over the subjects that played it.

/** What a failure ratio reads of an episode. */
export interface EpisodeOutcome {
  itemHash: string;
  taskId: string;
  subject: string;
  functional: boolean;
}

/** Per task (by item hash, in order of first appearance): its failure ratio and how many subjects it is over. */
export function failureRatios(
  episodes: Iterable<EpisodeOutcome>,
): Array<{ itemHash: string; taskId: string; ratio: number; subjects: number }> {
  const byTask = new Map<string, { taskId: string; bySubject: Map<string, { failed: number; n: number }> }>();
  for (const e of episodes) {
    const entry = byTask.get(e.itemHash) ?? { taskId: e.taskId, bySubject: new Map() };
    const s = entry.bySubject.get(e.subject) ?? { failed: 0, n: 0 };
    s.n++;
    if (!e.functional) s.failed++;
    entry.bySubject.set(e.subject, s);
    byTask.set(e.itemHash, entry);
  }
  return [...byTask].map(([itemHash, x]) => {
    const shares = [...x.bySubject.values()].map((s) => s.failed / s.n);
    return { itemHash, taskId: x.taskId, ratio: shares.reduce((a, b) => a + b, 0) / shares.length, subjects: shares.length };
  });
}
