// DialToM's written (free-text) inference study (the paper's Appendix G): models write a one-line
// mental-state inference for each unit of the human reference set (benchmark.py's written
// prompt), and the inferences are compared with the human references: BLEU and ROUGE-L
// (analysis/inference-overlap.ts), BERTScore with a local embedding model, and the
// dialogue-anchored judge (PA, CA, SA on 0-3, TA their sum) against each human reference with
// the source dialogue. Model calls go through CallerFactory: cached, retried, costed.

import { InputError } from '../../../core/index.js';
import { aggregate, loadRubric, scoreWithPanel } from '../../../judges/index.js';
import { openTokenEmbedder, settingsFor, type EmbeddingModelInfo } from '../../../models/index.js';
import { CallerFactory, DEFAULT_CONCURRENCY, runPool } from '../../../runner/index.js';
import { bertScore } from '../../../stats/index.js';
import type { Store } from '../../../store/index.js';
import { writtenDialogue, writtenInferencePrompt } from '../suites/written-inference.js';
import { createRegistry, judgeCallers, type Registry } from '../../../app/index.js';

/** One unit of the written task: a dataset (domain), a mental state and a window id. */
export interface WrittenUnit {
  dataset: string;
  state: string;
  subId: string;
}

export interface WrittenInference extends WrittenUnit {
  model: string;
  inference: string;
}

/** Human references per unit, as parseWrittenInferences reads written_inference.csv. */
export type ReferenceSet = Map<string, { unit: WrittenUnit; references: string[] }>;

const unitKey = (u: WrittenUnit) => `${u.dataset}\u0000${u.state}\u0000${u.subId}`;
const dialogueOf = (dialogues: Map<string, string[]>, u: WrittenUnit): string[] => {
  const turns = dialogues.get(`${u.dataset}\u0000${u.subId}`);
  if (!turns) throw new InputError(`no dialogue for ${u.dataset} window "${u.subId}" in the written data (combined_written_data.json)`);
  return turns;
};

/** A reply as one line: a JSON {"text": ...} read, line breaks joined (the task asks for one line). */
function oneLine(reply: string): string {
  const t = reply.trim();
  if (t.startsWith('{')) {
    try {
      const parsed = JSON.parse(t) as { text?: unknown };
      if (typeof parsed.text === 'string') return parsed.text.trim();
    } catch {
      // not JSON: the reply as written
    }
  }
  return t.replace(/\s*\n\s*/g, ' ');
}

/**
 * Ask each model for a written inference per unit (the units of the reference set, or those
 * given), by DialToM's written prompt. Returns one row per model and unit, in unit order.
 */
export async function elicitInferences(opts: {
  store: Store;
  models: string[];
  references: ReferenceSet;
  /** Dialogues by `dataset\u0000subId` (parseWrittenDialogues). */
  dialogues: Map<string, string[]>;
  limit?: number;
  apiKeyEnv?: string;
  concurrency?: number;
  registry?: Registry;
  onProgress?: (done: number, total: number) => void;
}): Promise<WrittenInference[]> {
  const registry = opts.registry ?? createRegistry();
  const units = [...opts.references.values()].map((r) => r.unit).slice(0, opts.limit);
  for (const u of units) dialogueOf(opts.dialogues, u);
  const factory = new CallerFactory({ store: opts.store, concurrency: opts.concurrency, timeoutMs: 180_000 });
  const out: WrittenInference[] = [];
  const total = units.length * opts.models.length;
  let done = 0;
  for (const spec of opts.models) {
    const model = registry.createModel(spec, { apiKeyEnv: opts.apiKeyEnv });
    const caller = factory.caller(model, `written:${model.spec}`, settingsFor(model.spec, model.capabilities, { temperature: 0 }).settings);
    const rows = new Array<WrittenInference>(units.length);
    try {
      await runPool(
        units.map((u, i) => ({ u, i })),
        Math.max(1, Math.min(opts.concurrency ?? DEFAULT_CONCURRENCY, units.length)),
        async ({ u, i }) => {
          const reply = await caller.chat([
            { role: 'user', content: writtenInferencePrompt(u.dataset, u.state, dialogueOf(opts.dialogues, u)) },
          ]);
          rows[i] = { ...u, model: spec, inference: oneLine(reply.text) };
          opts.onProgress?.(++done, total);
        },
      );
    } finally {
      await model.close?.();
    }
    out.push(...rows);
  }
  return out;
}

export interface InferenceJudgement {
  model: string;
  /** Units judged (each against all its references). */
  units: number;
  /** Per rubric field: the mean over units of the mean over the unit's references. */
  means: Record<string, number>;
  /** The sum of the field means (DialToM's TA = PA + CA + SA). */
  total: number;
  judgeFailures: number;
}

/**
 * The dialogue-anchored judge (rubrics/dialtom-inference.yaml): each inference against each of its
 * human references, with the source dialogue ({conversation}, {reference}, {response}; {state}
 * and {references} are offered too); per unit the mean over references, per model the mean over units.
 */
export async function judgeInferences(opts: {
  store: Store;
  rubricPath: string;
  judges: string[];
  hypotheses: WrittenInference[];
  references: ReferenceSet;
  dialogues: Map<string, string[]>;
  apiKeyEnv?: string;
  registry?: Registry;
}): Promise<InferenceJudgement[]> {
  const rubric = loadRubric(opts.rubricPath);
  const { callers, models } = judgeCallers(opts.store, opts.judges, { useCache: true, apiKeyEnv: opts.apiKeyEnv, registry: opts.registry });
  try {
    const out: InferenceJudgement[] = [];
    const names = [...new Set(opts.hypotheses.map((h) => h.model))];
    for (const [m, model] of names.entries()) {
      const perUnit: Record<string, number[]> = Object.fromEntries(rubric.fields.map((f) => [f.name, []]));
      let failures = 0;
      for (const h of opts.hypotheses.filter((x) => x.model === model)) {
        const ref = opts.references.get(unitKey(h));
        if (!ref) continue;
        const conversation = writtenDialogue(h.dataset, dialogueOf(opts.dialogues, h));
        const values: Record<string, number[]> = Object.fromEntries(rubric.fields.map((f) => [f.name, []]));
        for (const reference of ref.references) {
          const panel = await scoreWithPanel(callers, rubric, {
            // Judges see an opaque id, never the model's name.
            subject: `inference-${m + 1}`,
            response: h.inference,
            vars: { conversation, reference, references: ref.references.map((r) => `- ${r}`).join('\n'), state: h.state },
          });
          failures += panel.failures;
          if (panel.aggregate) for (const f of rubric.fields) values[f.name]!.push(panel.aggregate[f.name]!);
        }
        if (values[rubric.fields[0]!.name]!.length)
          for (const f of rubric.fields) perUnit[f.name]!.push(aggregate(values[f.name]!, 'mean'));
      }
      const means = Object.fromEntries(
        rubric.fields.map((f) => [f.name, perUnit[f.name]!.length ? aggregate(perUnit[f.name]!, 'mean') : Number.NaN]),
      );
      out.push({
        model,
        units: perUnit[rubric.fields[0]!.name]!.length,
        means,
        total: Object.values(means).reduce((a, b) => a + b, 0),
        judgeFailures: failures,
      });
    }
    return out;
  } finally {
    await Promise.all(models.map((m) => m.close?.()));
  }
}

export interface BertScoreSummary {
  model: string;
  units: number;
  precision: number;
  recall: number;
  f1: number;
  /** Which embeddings, and whether the baseline rescaling was applied. */
  embeddings: string;
  /** The model that scored (the paper's is roberta-large: scores from another model are not comparable with its Table 14). */
  embeddingModel: EmbeddingModelInfo;
  baseline: number | null;
}

/**
 * BERTScore of each inference against each of its human references with a local GGUF model's
 * token embeddings (see openTokenEmbedder: decoder-only models; an encoder is refused with the
 * reason), averaged over references, then over units, per model; each result names the model
 * that scored. `baseline` rescales as bert-score's rescale_with_baseline does. Texts are embedded once.
 */
export async function bertScoreInferences(opts: {
  hypotheses: WrittenInference[];
  references: ReferenceSet;
  modelPath: string;
  baseline?: number;
  threads?: number;
}): Promise<BertScoreSummary[]> {
  const embedder = await openTokenEmbedder(opts.modelPath, { threads: opts.threads });
  const cache = new Map<string, Float64Array[]>();
  const embed = async (text: string) => {
    let e = cache.get(text);
    if (!e) cache.set(text, (e = await embedder.embed(text)));
    return e;
  };
  try {
    const out: BertScoreSummary[] = [];
    for (const model of [...new Set(opts.hypotheses.map((h) => h.model))]) {
      const sums = { precision: 0, recall: 0, f1: 0 };
      let units = 0;
      for (const h of opts.hypotheses.filter((x) => x.model === model)) {
        const ref = opts.references.get(unitKey(h));
        if (!ref || !h.inference.trim()) continue;
        const cand = await embed(h.inference);
        const scores = [];
        for (const r of ref.references) scores.push(bertScore(cand, await embed(r), { baseline: opts.baseline }));
        for (const k of ['precision', 'recall', 'f1'] as const) sums[k] += scores.reduce((a, s) => a + s[k], 0) / scores.length;
        units++;
      }
      out.push({
        model,
        units,
        precision: sums.precision / units,
        recall: sums.recall / units,
        f1: sums.f1 / units,
        embeddings: embedder.describe,
        embeddingModel: embedder.model,
        baseline: opts.baseline ?? null,
      });
    }
    return out;
  } finally {
    await embedder.close();
  }
}
