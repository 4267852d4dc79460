// Performance against model scale (the paper's section 5.1: "performance scales consistently with
// overall model parameters", with Llama 3.1 8B above its larger family members as the exception).
// Per model and task: its parameter count (given by the user, else from the table of published
// open-weights counts below), its pooled correctness with a 95% Wilson interval (cross-task.ts),
// the rank correlation of correctness with scale (Spearman; Pearson on log10 parameters beside it),
// and the pairs inside a family where the larger model scores lower. Mixture-of-experts models
// have a total and an active count; `active` uses the active one (dense models: the same count).
// Closed models (Gemini, GPT-4.1, GPT-5) publish no counts: give them in a parameters file.

import { decimalNumber, InputError, parseCsv } from '../../../core/index.js';
import { type CorrelationTest, correlationTest } from './correlation-test.js';
import type { ModelTaskAccuracy } from './cross-task.js';

export interface ModelParameters {
  /** Billions of parameters in all. */
  total: number;
  /** Billions active per token (mixture of experts); absent for a dense model. */
  active?: number;
  family?: string;
}

interface KnownModel extends ModelParameters {
  name: string;
  /** Matched against the model's name, lower-cased with every run of other characters than a-z, 0-9 and "." made one space. */
  match: RegExp;
}

/** Published parameter counts (model cards) of the open-weights models the paper evaluates, and Qwen3 32B. */
export const KNOWN_PARAMETERS: readonly KnownModel[] = [
  { name: 'Llama 3.1 8B', match: /\bllama 3\.1 8b\b|^llama 8b$/, total: 8, family: 'Llama' },
  { name: 'Llama 3.3 70B', match: /\bllama 3\.3 70b\b|^llama 70b$/, total: 70, family: 'Llama' },
  { name: 'Llama 4 Maverick', match: /\bllama 4 maverick\b|^llama 4$/, total: 400, active: 17, family: 'Llama' },
  { name: 'Mistral Nemo', match: /\bmistral nemo\b/, total: 12, family: 'Mistral' },
  { name: 'Mistral Small 3.2 24B', match: /\bmistral (small )?3\.2\b|^mistral 24b$/, total: 24, family: 'Mistral' },
  { name: 'Qwen3 32B', match: /\bqwen ?3 32b\b|^qwen 32b$/, total: 32.8, family: 'Qwen' },
  { name: 'Qwen3 235B-A22B', match: /\bqwen ?3 235b\b|^qwen 235b$/, total: 235, active: 22, family: 'Qwen' },
  { name: 'Kimi K2', match: /\bkimi k2\b/, total: 1000, active: 32, family: 'Kimi' },
  { name: 'DeepSeek-V3', match: /\bdeepseek (chat )?v3\b/, total: 671, active: 37, family: 'DeepSeek' },
  { name: 'GPT-OSS 120B', match: /\bgpt oss 120b\b/, total: 117, active: 5.1, family: 'GPT-OSS' },
];

const normalizedName = (model: string) =>
  model
    .toLowerCase()
    .replace(/[^a-z0-9.]+/g, ' ')
    .trim();

/** The published counts of a model, recognised by its name or spec (KNOWN_PARAMETERS), if any. */
export function knownParameters(model: string): ModelParameters | undefined {
  const n = normalizedName(model);
  const hit = KNOWN_PARAMETERS.find((k) => k.match.test(n));
  return hit && { total: hit.total, ...(hit.active !== undefined ? { active: hit.active } : {}), family: hit.family };
}

/** A parameters file: CSV model,params_b[,active_b][,family] (billions); errors name the file and line. */
export function parseParameterTable(text: string, file = '<parameters>'): Map<string, ModelParameters> {
  const rows = parseCsv(text, file);
  const header = rows[0]?.fields.map((h) => h.trim().toLowerCase()) ?? [];
  const need = (n: string) => {
    const i = header.indexOf(n);
    if (i < 0) throw new InputError(`no "${n}" column (expected model, params_b; active_b and family optional)`, file, 1);
    return i;
  };
  const [m, p] = [need('model'), need('params_b')];
  const [a, fam] = [header.indexOf('active_b'), header.indexOf('family')];
  const out = new Map<string, ModelParameters>();
  for (const r of rows.slice(1)) {
    const f = r.fields.map((x) => x.trim());
    const billions = (i: number, what: string) => {
      const v = decimalNumber(f[i] ?? '');
      if (!(v > 0)) throw new InputError(`${what} must be a positive number of billions, not "${f[i] ?? ''}"`, file, r.line);
      return v;
    };
    if (!f[m]) throw new InputError('empty model', file, r.line);
    if (out.has(f[m]!)) throw new InputError(`${f[m]} appears twice`, file, r.line);
    const total = billions(p, 'params_b');
    const active = a >= 0 && f[a] ? billions(a, 'active_b') : undefined;
    if (active !== undefined && active > total) throw new InputError(`active_b (${active}) exceeds params_b (${total})`, file, r.line);
    out.set(f[m]!, { total, ...(active !== undefined ? { active } : {}), ...(fam >= 0 && f[fam] ? { family: f[fam] } : {}) });
  }
  return out;
}

export type ScaleMeasure = 'total' | 'active';

export interface ScalePoint extends ModelTaskAccuracy {
  /** Billions of parameters by the chosen measure. */
  params: number;
  family?: string;
  source: 'given' | 'known';
}

export interface ScaleCorrelation extends CorrelationTest {
  task: string;
  /** Spearman is rank-based (the same with any monotone scale); Pearson is on log10 of the parameters. */
  note: string;
}

export interface FamilyInversion {
  task: string;
  family: string;
  smaller: string;
  larger: string;
  smallerRate: number;
  largerRate: number;
}

export interface ScaleResult {
  measure: ScaleMeasure;
  points: ScalePoint[];
  /** Models with results but no parameter count (given or known): left out of the correlations. */
  unknown: string[];
  correlations: ScaleCorrelation[];
  inversions: FamilyInversion[];
}

/** Correctness against parameter count per task: points, rank correlations and within-family inversions. */
export function scaleAnalysis(
  accuracy: readonly ModelTaskAccuracy[],
  given: ReadonlyMap<string, ModelParameters>,
  measure: ScaleMeasure = 'total',
): ScaleResult {
  const unknown = new Set<string>();
  const points: ScalePoint[] = [];
  for (const a of accuracy) {
    const p = given.get(a.model);
    const params = p ?? knownParameters(a.model);
    if (!params) {
      unknown.add(a.model);
      continue;
    }
    const value = measure === 'active' ? (params.active ?? params.total) : params.total;
    points.push({ ...a, params: value, ...(params.family ? { family: params.family } : {}), source: p ? 'given' : 'known' });
  }
  const correlations: ScaleCorrelation[] = [];
  const inversions: FamilyInversion[] = [];
  for (const task of [...new Set(points.map((p) => p.task))]) {
    const mine = points.filter((p) => p.task === task);
    correlations.push({
      task,
      note: 'Spearman on ranks; Pearson on log10(parameters)',
      ...correlationTest(
        mine.map((p) => Math.log10(p.params)),
        mine.map((p) => p.rate),
        ['parameters', 'correctness'],
      ),
    });
    for (const family of [...new Set(mine.flatMap((p) => (p.family ? [p.family] : [])))]) {
      const members = mine.filter((p) => p.family === family).sort((x, y) => x.params - y.params);
      for (let i = 0; i < members.length; i++)
        for (let j = i + 1; j < members.length; j++) {
          const [s, l] = [members[i]!, members[j]!];
          if (s.params < l.params && s.rate > l.rate)
            inversions.push({ task, family, smaller: s.model, larger: l.model, smallerRate: s.rate, largerRate: l.rate });
        }
    }
  }
  return { measure, points, unknown: [...unknown], correlations, inversions };
}
