// Manual labelling of failure modes: a seeded sample of failed episodes exported with their
// transcripts and the automatic labels (hidden from the labeller in the file's `labels`, which
// starts empty), and the labels read back with agreement per mode (Cohen's kappa on
// present/absent, with percent agreement) between the person and the classifier.

import { createRng, InputError } from '../../../core/index.js';
import { twoRaterAgreement, type TwoRaterAgreement } from '../../../stats/index.js';
import type { EmbodiedTask } from '../world/index.js';
import type { StoredEpisode } from './episode-results.js';
import { classifyFailure, FAILURE_MODES, type FailureMode } from './failure-modes.js';

export interface LabellingRow {
  key: string;
  taskId: string;
  subject: string;
  replicate: number;
  /** The task text and the transcript, one line per turn, for the person labelling. */
  task: string;
  transcript: string[];
  /** The classifier's labels (kept for agreement; a labeller should not look). */
  automatic: FailureMode[];
  /** Filled in by the labeller: any of the five modes. */
  labels: FailureMode[] | null;
}

/** A seeded sample of up to n failed episodes, as rows to label by hand. */
export function labellingSample(
  episodes: StoredEpisode[],
  taskOf: (e: StoredEpisode) => EmbodiedTask | undefined,
  n: number,
  seed: number,
): LabellingRow[] {
  const failed = episodes.filter((e) => !(e.detail.functional && e.detail.epistemic) && taskOf(e));
  const picked = createRng(`failure-labels:${seed}`).shuffle(failed).slice(0, n);
  return picked.map((e) => {
    const task = taskOf(e)!;
    return {
      key: `${e.subject}|${e.taskId}|${e.replicate}`,
      taskId: e.taskId,
      subject: e.subject,
      replicate: e.replicate,
      task: task.text,
      transcript: e.detail.turns.map(
        (t) => `round ${t.round} ${t.agent}: ${t.action ?? t.reply.slice(0, 200)} -> ${t.ok ? '' : '(refused) '}${t.observation}`,
      ),
      automatic: [...new Set(classifyFailure(task, e.detail).map((f) => f.mode))].sort(),
      labels: null,
    };
  });
}

export interface LabelAgreement {
  labelled: number;
  /** Per mode: agreement between the person (A) and the classifier (B) on present/absent. */
  byMode: Record<FailureMode, TwoRaterAgreement & { human: number; automatic: number }>;
}

/** Agreement of labelled rows (labels filled in) with the automatic labels; rows without labels are skipped. */
export function labelAgreement(rows: LabellingRow[], where = 'labels'): LabelAgreement {
  const done = rows.filter((r) => Array.isArray(r.labels));
  done.forEach((r, i) => {
    for (const l of r.labels!)
      if (!(FAILURE_MODES as readonly string[]).includes(l))
        throw new InputError(`row ${i + 1} (${r.key}): unknown failure mode "${l}"; known: ${FAILURE_MODES.join(', ')}`, where);
  });
  if (done.length === 0) throw new InputError('no row has labels filled in', where);
  const byMode = Object.fromEntries(
    FAILURE_MODES.map((m) => {
      const human = done.map((r) => (r.labels!.includes(m) ? 'present' : 'absent'));
      const auto = done.map((r) => (r.automatic.includes(m) ? 'present' : 'absent'));
      return [
        m,
        {
          ...twoRaterAgreement(human, auto),
          human: human.filter((x) => x === 'present').length,
          automatic: auto.filter((x) => x === 'present').length,
        },
      ];
    }),
  ) as LabelAgreement['byMode'];
  return { labelled: done.length, byMode };
}
