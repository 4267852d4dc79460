// A run's results by time of day: when its replicates were scheduled as repetitions at times of
// day (run --enqueue --repeat-at), each trial belongs to its replicate's slot (HH:MM UTC);
// otherwise to the hour (UTC) in which it finished. Per time of day and subject, and for all
// subjects together: the replicates, the trials, the mean score over the scored ones, and the
// first and last moment a trial of the group finished (what actually happened, beside the plan).

export interface TimedTrial {
  subject: string;
  replicate: number;
  /** The score read (null: failed, or not scored by the scorer asked for). */
  score: number | null;
  /** When the trial finished (ISO). */
  finishedAt: string;
}

export interface TimeOfDaySlot {
  replicate: number;
  due: string;
  timeOfDay: string;
}

export interface TimeOfDayRow {
  /** HH:MM (a scheduled slot) or HH:00 (the hour trials finished in), UTC. */
  timeOfDay: string;
  /** The subject; null for the row of all subjects together. */
  subject: string | null;
  replicates: number[];
  trials: number;
  scored: number;
  mean: number | null;
  firstFinished: string;
  lastFinished: string;
}

export interface TimeOfDayResult {
  /** 'schedule': grouped by the replicates' scheduled slots; 'finished': by the hour trials finished in. */
  groupedBy: 'schedule' | 'finished';
  rows: TimeOfDayRow[];
}

/** Group trials by time of day (by the schedule's slots when given, else by the UTC hour they finished in). */
export function groupByTimeOfDay(trials: TimedTrial[], slots?: TimeOfDaySlot[]): TimeOfDayResult {
  const bySlot = new Map((slots ?? []).map((s) => [s.replicate, s.timeOfDay]));
  const when = (t: TimedTrial) => bySlot.get(t.replicate) ?? `${new Date(t.finishedAt).toISOString().slice(11, 13)}:00`;
  const groups = new Map<string, TimedTrial[]>();
  for (const t of trials)
    for (const subject of [t.subject, null]) {
      const key = JSON.stringify([when(t), subject]);
      groups.set(key, [...(groups.get(key) ?? []), t]);
    }
  const rows = [...groups.entries()].map(([key, ts]) => {
    const [timeOfDay, subject] = JSON.parse(key) as [string, string | null];
    const scores = ts.map((t) => t.score).filter((x): x is number => x !== null);
    const finished = ts.map((t) => t.finishedAt).sort();
    return {
      timeOfDay,
      subject,
      replicates: [...new Set(ts.map((t) => t.replicate))].sort((a, b) => a - b),
      trials: ts.length,
      scored: scores.length,
      mean: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : null,
      firstFinished: finished[0]!,
      lastFinished: finished.at(-1)!,
    };
  });
  // By time of day; within it the subjects by name, then all of them.
  rows.sort(
    (a, b) =>
      a.timeOfDay.localeCompare(b.timeOfDay) ||
      (a.subject === null ? 1 : 0) - (b.subject === null ? 1 : 0) ||
      (a.subject ?? '').localeCompare(b.subject ?? ''),
  );
  return { groupedBy: slots?.length ? 'schedule' : 'finished', rows };
}
