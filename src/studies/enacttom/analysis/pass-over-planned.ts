// Pass@k and Pass^k over k planned attempts per task, as the EnactToM paper counts them ("missing
// attempts are counted as non-passes under fixed n=3 accounting"). A task's planned attempts
// are its replicates 1 to k (stored as 0 to k-1). An attempt is missing when its trial failed
// (an error: no episode) or never ran (an interrupted run, or k above the run's --trials).
//
//   Pass@k = share of the scope's tasks with some successful attempt among their k planned ones
//   Pass^k = share of the scope's tasks whose k planned attempts were all made and all succeeded
//   Avg over planned = successful attempts / (tasks x k)
//
// A missing attempt is a non-pass there, so on a partial run (some planned attempt missing) the
// two are lower bounds of what the complete run would give. Beside them, the estimate over the
// attempts made: over the tasks with at least one attempt made, Pass@ = some attempt made
// succeeded, Pass^ = every attempt made succeeded, with the number of tasks and attempts behind
// it. The complete run's Pass^k is at most that Pass^ (more attempts can only break "all").

/** The attempts behind a scope's Pass@k and Pass^k: k planned per task. */
export interface AttemptCount {
  k: number;
  /** Tasks planned in the scope, k attempts each (with those no trial of the run reached). */
  tasks: number;
  /** Planned attempts: tasks x k. */
  planned: number;
  /** Attempts made: stored episodes among each task's first k replicates. */
  made: number;
  /** Planned attempts whose trial failed with an error (no episode). */
  failed: number;
  /** Planned attempts never run. */
  notRun: number;
}

/** Pass@k and Pass^k over the attempts made only (the estimate beside a partial run's fixed-k figures). */
export interface PassOverMade {
  /** Over tasks with an attempt made: some attempt made succeeded. */
  passAtK: number | null;
  /** Over tasks with an attempt made: every attempt made succeeded. */
  passHatK: number | null;
  /** Tasks with at least one attempt made. */
  tasks: number;
  /** Attempts made (of the first k per task). */
  attempts: number;
}

/** Pass@k and Pass^k over k planned attempts per task, missing attempts non-passes, and the estimate over the attempts made. */
export interface PassSummary {
  /** Share of tasks with a success among their k planned attempts (a missing attempt is a non-pass); null: no task planned. */
  passAtK: number | null;
  /** Share of tasks whose k planned attempts were all made and succeeded; null: no task planned. */
  passHatK: number | null;
  /** Successful attempts over the planned ones (tasks x k); null: no task planned. */
  avgPlanned: number | null;
  attempts: AttemptCount;
  /** Some planned attempt is missing: passAtK and passHatK count it as a non-pass; see overAttemptsMade. */
  partial: boolean;
  overAttemptsMade: PassOverMade;
}

/** One task's attempts as stored: replicate (0-based) and whether it succeeded. */
export interface TaskAttempts {
  taskId: string;
  attempts: Array<{ replicate: number; pass: boolean }>;
}

/**
 * Pass@k and Pass^k of a scope over k planned attempts per task. `tasks` are the scope's planned
 * tasks with their stored attempts (none for a task whose trials all failed); `unstarted` more
 * tasks were planned that no trial reached (all k attempts missing); `failed(task, replicate)`
 * says whether a missing attempt's trial failed (else it never ran).
 */
export function passOverPlanned(
  tasks: TaskAttempts[],
  k: number,
  opts: { unstarted?: number; failed?: (taskId: string, replicate: number) => boolean } = {},
): PassSummary {
  if (!(Number.isInteger(k) && k >= 1)) throw new Error(`k must be a whole number >= 1, got ${k}`);
  const unstarted = opts.unstarted ?? 0;
  let at = 0;
  let hat = 0;
  let passes = 0;
  let made = 0;
  let failed = 0;
  let madeTasks = 0;
  let madeAt = 0;
  let madeHat = 0;
  for (const t of tasks) {
    const first = new Map<number, boolean>();
    for (const a of t.attempts) if (a.replicate >= 0 && a.replicate < k) first.set(a.replicate, a.pass);
    const c = [...first.values()].filter(Boolean).length;
    const m = first.size;
    for (let r = 0; r < k; r++) if (!first.has(r) && opts.failed?.(t.taskId, r)) failed++;
    passes += c;
    made += m;
    if (c > 0) at++;
    if (m === k && c === k) hat++;
    if (m > 0) {
      madeTasks++;
      if (c > 0) madeAt++;
      if (c === m) madeHat++;
    }
  }
  const n = tasks.length + unstarted;
  const planned = n * k;
  return {
    passAtK: n ? at / n : null,
    passHatK: n ? hat / n : null,
    avgPlanned: n ? passes / planned : null,
    attempts: { k, tasks: n, planned, made, failed, notRun: planned - made - failed },
    partial: made < planned,
    overAttemptsMade: {
      passAtK: madeTasks ? madeAt / madeTasks : null,
      passHatK: madeTasks ? madeHat / madeTasks : null,
      tasks: madeTasks,
      attempts: made,
    },
  };
}
