// Free-text mental-state inferences against DialToM's human-written references
// (written_inference.csv: three workers per dataset, mental state and sub_id): BLEU as the mean
// over units of the sentence BLEU against each reference (sacreBLEU-compatible, exp smoothing),
// averaged over the references, and ROUGE-L F the same way. This reproduces the paper's Table 14
// row for the inferences the benchmark uses (GPT-4o: BLEU 9.44, ROUGE-L 0.31).

import { InputError, parseCsv } from '../../../core/index.js';
import { rougeL, sentenceBleu } from '../../../stats/index.js';

export interface InferenceUnit {
  dataset: string;
  state: string;
  subId: string;
}

const keyOf = (u: InferenceUnit) => `${u.dataset}\u0000${u.state}\u0000${u.subId}`;

/** written_inference.csv: WorkerId,dataset,mental_state,sub_id,inferences,wc. */
export function parseWrittenInferences(text: string, file = '<written>'): Map<string, { unit: InferenceUnit; references: string[] }> {
  const rows = parseCsv(text, file);
  if (rows.length < 2) throw new InputError('expected a header and rows', file);
  const header = rows[0]!.fields.map((h) => h.trim());
  const col = (n: string) => {
    const i = header.indexOf(n);
    if (i < 0) throw new InputError(`no "${n}" column`, file, 1);
    return i;
  };
  const d = col('dataset');
  const s = col('mental_state');
  const id = col('sub_id');
  const inf = col('inferences');
  const out = new Map<string, { unit: InferenceUnit; references: string[] }>();
  for (const r of rows.slice(1)) {
    if (r.fields.length !== header.length)
      throw new InputError(`row has ${r.fields.length} fields, the header has ${header.length}`, file, r.line);
    const unit = { dataset: r.fields[d]!.trim(), state: r.fields[s]!.trim(), subId: r.fields[id]!.trim() };
    const text = r.fields[inf]!.trim();
    if (!text) throw new InputError('empty inference', file, r.line);
    const entry = out.get(keyOf(unit)) ?? { unit, references: [] };
    entry.references.push(text);
    out.set(keyOf(unit), entry);
  }
  return out;
}

/**
 * The dialogue of every unit of combined_written_data.json ({ domain: { window id: { ctx: [turns] } } }),
 * keyed `dataset\u0000subId`, for the written task's prompt and the judge.
 */
export function parseWrittenDialogues(json: unknown, where = '<combined>'): Map<string, string[]> {
  if (!json || typeof json !== 'object') throw new InputError('expected an object of domains', where);
  const out = new Map<string, string[]>();
  for (const [dataset, units] of Object.entries(json as Record<string, Record<string, { ctx?: unknown }>>)) {
    for (const [subId, u] of Object.entries(units)) {
      if (!Array.isArray(u.ctx) || u.ctx.some((t) => typeof t !== 'string'))
        throw new InputError(`${dataset} ${subId}: "ctx" must be a list of turns`, where);
      out.set(`${dataset}\u0000${subId}`, u.ctx as string[]);
    }
  }
  return out;
}

/** The inferences the benchmark items use (combined_written_data.json: the correct option per state). */
export function benchmarkInferences(json: unknown, where = '<combined>'): Array<InferenceUnit & { model: string; inference: string }> {
  const out: Array<InferenceUnit & { model: string; inference: string }> = [];
  if (!json || typeof json !== 'object') throw new InputError('expected an object of domains', where);
  for (const [dataset, units] of Object.entries(
    json as Record<string, Record<string, { options?: Record<string, Record<string, string>>; correct_option?: Record<string, string> }>>,
  )) {
    for (const [subId, u] of Object.entries(units)) {
      for (const [state, label] of Object.entries(u.correct_option ?? {})) {
        const text = u.options?.[state]?.[label];
        if (typeof text !== 'string') throw new InputError(`${dataset} ${subId} ${state}: the correct option ${label} has no text`, where);
        out.push({ model: 'benchmark', dataset, state, subId, inference: text });
      }
    }
  }
  return out;
}

export interface OverlapResult {
  model: string;
  units: number;
  bleu: number;
  rougeL: number;
  byState: Array<{ state: string; units: number; bleu: number; rougeL: number }>;
  /** Hypotheses without human references (left out). */
  unmatched: number;
}

/** BLEU and ROUGE-L of free-text inferences against the human references of each unit (DialToM Table 14). */
export function inferenceOverlap(
  hypotheses: Array<InferenceUnit & { model: string; inference: string }>,
  references: ReturnType<typeof parseWrittenInferences>,
): OverlapResult[] {
  const models = [...new Set(hypotheses.map((h) => h.model))];
  return models.map((model) => {
    const scored: Array<{ state: string; bleu: number; rouge: number }> = [];
    let unmatched = 0;
    for (const h of hypotheses.filter((x) => x.model === model)) {
      const ref = references.get(keyOf(h));
      if (!ref) {
        unmatched++;
        continue;
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      scored.push({
        state: h.state,
        bleu: mean(ref.references.map((r) => sentenceBleu(h.inference, [r]).score)),
        rouge: mean(ref.references.map((r) => rougeL(r, h.inference).fmeasure)),
      });
    }
    const avg = (xs: typeof scored) => ({
      units: xs.length,
      bleu: xs.reduce((a, b) => a + b.bleu, 0) / xs.length,
      rougeL: xs.reduce((a, b) => a + b.rouge, 0) / xs.length,
    });
    const states = [...new Set(scored.map((x) => x.state))].sort();
    return {
      model,
      ...avg(scored),
      byState: states.map((state) => ({ state, ...avg(scored.filter((x) => x.state === state)) })),
      unmatched,
    };
  });
}

/** Hypotheses from a CSV: model,dataset,mental_state,sub_id,inference. */
export function parseHypotheses(text: string, file = '<hypotheses>'): Array<InferenceUnit & { model: string; inference: string }> {
  const rows = parseCsv(text, file);
  if (rows.length < 2) throw new InputError('expected a header and rows', file);
  const header = rows[0]!.fields.map((h) => h.trim());
  const col = (n: string) => {
    const i = header.indexOf(n);
    if (i < 0) throw new InputError(`no "${n}" column (expected model,dataset,mental_state,sub_id,inference)`, file, 1);
    return i;
  };
  const m = col('model');
  const d = col('dataset');
  const s = col('mental_state');
  const id = col('sub_id');
  const inf = col('inference');
  return rows.slice(1).map((r) => ({
    model: r.fields[m]!.trim(),
    dataset: r.fields[d]!.trim(),
    state: r.fields[s]!.trim(),
    subId: r.fields[id]!.trim(),
    inference: r.fields[inf]!,
  }));
}
