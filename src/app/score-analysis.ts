// What `mindscope score` reports of a rubric's scores on a run: the mean of each field over the
// scored trials, and every judge's value per subject for the same-family analysis. Built from
// the stored score details (fresh and earlier ones alike), so that a second `score` of a scored
// run, or a process that shared the run with another, reports the whole run, not only the
// trials it scored itself.

import { JudgedStoryDetailSchema, JudgeScoreDetailSchema, readScoreDetail, type PanelScore } from '../core/index.js';
import { aggregate, type Rubric } from '../judges/index.js';

/** One judge's value of one field for one subject's response. */
export interface JudgeCell {
  judge: string;
  subject: string;
  field: string;
  value: number;
}

export class ScoreAnalysis {
  readonly cells: JudgeCell[] = [];
  readonly #values = new Map<string, number[]>();

  constructor(private readonly rubric: Rubric) {
    for (const f of rubric.fields) this.#values.set(f.name, []);
  }

  /** Add a stored score detail of this rubric for a subject (by spec): a judged StoryTurn or a judged response. */
  addStored(subject: string, detail: unknown): void {
    const story = readScoreDetail(JudgedStoryDetailSchema, detail);
    if (story) {
      // A story counts as correct when every turn is; its open turns' panels give the cells.
      this.#values.get(this.rubric.fields[0]!.name)!.push(story.turns.every((t) => t.correct) ? 1 : 0);
      for (const t of story.turns) if (t.panel) this.#keepCells(subject, t.panel);
      return;
    }
    const judged = readScoreDetail(JudgeScoreDetailSchema, detail);
    if (!judged) return;
    for (const f of this.rubric.fields) {
      const v = judged.fields[f.name];
      if (v !== undefined) this.#values.get(f.name)!.push(v);
    }
    this.#keepCells(subject, judged);
  }

  #keepCells(subject: string, panel: Pick<PanelScore, 'judges'>): void {
    for (const j of panel.judges)
      if (j.values)
        for (const f of this.rubric.fields) {
          const value = j.values[f.name];
          if (value !== undefined) this.cells.push({ judge: j.judge, subject, field: f.name, value });
        }
  }

  /** The mean of each field over the scored trials (fields without a value are left out). */
  means(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const [field, values] of this.#values) if (values.length) out[field] = aggregate(values, 'mean');
    return out;
  }
}
