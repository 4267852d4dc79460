// Scoring as its own step: a judge panel scores a stored run's responses without re-running
// the subjects (`mindscope score`), and judges are validated on anchors (`mindscope judge
// validate`). Judge calls go through the runner's recording model: the call cache (nothing is
// paid for twice), retries, the adaptive limit per endpoint and cost accounting. The rubric's
// SHA-256 is pinned to the run: a changed rubric under the same name is refused.

import { ConfigError, createRng, DEFAULT_SETTINGS, deriveSeed, type Item, type McqPayload, type TrialKey } from './core/index.js';
import {
  aggregate,
  familyAnalysis,
  defaultFamily,
  loadAnchors,
  loadRubric,
  scoreWithPanel,
  validateJudges,
  type Aggregation,
  type FamilyComparison,
  type JudgeGates,
  type JudgeValidation,
} from './judges/index.js';
import { createModel, type ChatModel } from './models/index.js';
import { AdaptiveLimiter, DEFAULT_PRICES, DEFAULT_RETRY, priceFor, RecordingModel } from './runner/index.js';
import type { Store } from './store/index.js';

function judgeCallers(
  store: Store,
  specs: string[],
  opts: { useCache: boolean; apiKeyEnv?: string; concurrency?: number },
): { callers: RecordingModel[]; models: ChatModel[] } {
  if (specs.length === 0) throw new ConfigError('name at least one judge (--judge SPEC)');
  const models = specs.map((s) => createModel(s, { apiKeyEnv: opts.apiKeyEnv }));
  const limiters = new Map<string, AdaptiveLimiter>();
  const callers = models.map((m) => {
    let limiter = limiters.get(m.endpoint);
    if (!limiter) limiters.set(m.endpoint, (limiter = new AdaptiveLimiter(opts.concurrency ?? 8)));
    return new RecordingModel(
      `judge:${m.spec}`,
      m,
      { ...DEFAULT_SETTINGS, temperature: 0 },
      {
        store,
        limiter,
        retry: DEFAULT_RETRY,
        timeoutMs: 120_000,
        price: priceFor(DEFAULT_PRICES, m.provider, m.model),
        rng: createRng(deriveSeed('judge-retry', m.spec)),
        useCache: opts.useCache,
      },
    );
  });
  return { callers, models };
}

export interface ScoreRunOptions {
  store: Store;
  runId: string;
  rubricPath: string;
  judges: string[];
  aggregation?: Aggregation;
  /** Model spec or provider -> family, for the same-family analysis. */
  families?: Record<string, string>;
  apiKeyEnv?: string;
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
}

export interface ScoreRunResult {
  scorer: string;
  rubric: { name: string; sha256: string };
  scored: number;
  alreadyScored: number;
  judgeFailures: number;
  /** Trials no judge could score. */
  unscored: number;
  meanByField: Record<string, number>;
  family: FamilyComparison[];
  /** Judge calls: made, answered from the cache, and their cost (US$, from the price table). */
  calls: { made: number; cached: number; costUsd: number };
}

interface StoredTurn {
  turn: number;
  question: string;
  expected: string[];
  reply: string;
  answer: string;
  correct: boolean;
}

function storyTurnDetail(transcript: unknown): { turns: StoredTurn[] } | undefined {
  const d = (transcript as { detail?: { storyId?: string; turns?: StoredTurn[] } } | undefined)?.detail;
  return d?.storyId && Array.isArray(d.turns) ? { turns: d.turns } : undefined;
}

/** An open question: "why", or an expected answer of more than four words. */
export function isOpenTurn(t: { question: string; expected: string[] }): boolean {
  return /^\s*why\b/i.test(t.question) || t.expected.some((e) => e.split(/\s+/).length > 4);
}

/** What a subject answered in a stored trial: the chosen option's text for MCQ, else the reply. */
function responseOf(transcript: unknown): { response: string; reply: string } | undefined {
  const detail = (
    transcript as { detail?: { reply?: unknown; parsed?: unknown; presented?: Array<{ label: string; text: string }> } } | undefined
  )?.detail;
  if (typeof detail?.reply !== 'string') return undefined;
  const chosen = detail.presented?.find((o) => o.label === detail.parsed)?.text;
  return { response: chosen ?? detail.reply, reply: detail.reply };
}

export async function scoreRun(opts: ScoreRunOptions): Promise<ScoreRunResult> {
  const rubric = loadRubric(opts.rubricPath);
  if (!opts.store.getRun(opts.runId)) throw new ConfigError(`no run "${opts.runId}" in ${opts.store.location}`);
  opts.store.pinRubric(opts.runId, rubric.name, rubric.sha256);
  const scorer = `judge:${rubric.name}`;
  const aggregation = opts.aggregation ?? 'median';
  const { callers, models } = judgeCallers(opts.store, opts.judges, {
    useCache: true,
    apiKeyEnv: opts.apiKeyEnv,
    concurrency: opts.concurrency,
  });
  const rows = [...opts.store.responses(opts.runId)].filter(
    (r, i, all) =>
      all.findIndex((x) => x.subjectId === r.subjectId && x.suite === r.suite && x.itemId === r.itemId && x.replicate === r.replicate) ===
      i,
  );
  const result: ScoreRunResult = {
    scorer,
    rubric: { name: rubric.name, sha256: rubric.sha256 },
    scored: 0,
    alreadyScored: 0,
    judgeFailures: 0,
    unscored: 0,
    meanByField: {},
    family: [],
    calls: { made: 0, cached: 0, costUsd: 0 },
  };
  const cells: Array<{ judge: string; subject: string; field: string; value: number }> = [];
  const sums: Record<string, number[]> = Object.fromEntries(rubric.fields.map((f) => [f.name, []]));
  let done = 0;
  const queue = rows.slice();
  const work = async () => {
    for (let r = queue.shift(); r; r = queue.shift()) {
      const key: TrialKey = { runId: opts.runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate };
      const existing = opts.store.scoreOf(key, scorer);
      if (existing && (existing.detail as { rubric?: { sha256?: string } }).rubric?.sha256 === rubric.sha256) {
        result.alreadyScored++;
      } else {
        const transcript = opts.store.transcript(key)?.transcript;
        const story = storyTurnDetail(transcript);
        const answered = responseOf(transcript);
        const item = opts.store.getItem(r.itemHash) as Item<McqPayload> | undefined;
        if (story) {
          // StoryTurn: closed turns keep their exact score; open ones ("why", long answers) go to the panel.
          const turns = await Promise.all(
            story.turns.map(async (t) => {
              if (!isOpenTurn(t)) return { turn: t.turn, open: false, correct: t.correct };
              const panel = await scoreWithPanel(callers, rubric, {
                subject: r.subjectId,
                response: t.answer,
                expected: t.expected.join(' / '),
                vars: { question: t.question, expected: t.expected.join(' / '), context: '', options: '', reply: t.reply },
              });
              result.judgeFailures += panel.failures;
              const f = rubric.fields[0];
              const correct = panel.aggregate ? panel.aggregate[f.name] >= (f.min + f.max) / 2 : false;
              for (const j of panel.judges)
                if (j.values)
                  for (const fl of rubric.fields) cells.push({ judge: j.judge, subject: r.spec, field: fl.name, value: j.values[fl.name] });
              return { turn: t.turn, open: true, correct, panel };
            }),
          );
          const correct = turns.every((t) => t.correct);
          opts.store.recordScore(key, {
            scorer,
            value: correct ? 1 : 0,
            detail: { rubric: { name: rubric.name, sha256: rubric.sha256 }, aggregation, turns },
          });
          result.scored++;
          sums[rubric.fields[0].name].push(correct ? 1 : 0);
        } else if (answered === undefined || !item) {
          result.unscored++;
        } else {
          const p = item.payload;
          // The judges see the opaque subject id, never its spec.
          const panel = await scoreWithPanel(callers, rubric, {
            subject: r.subjectId,
            response: answered.response,
            expected: item.answer,
            // Judges may be told the item's condition and script (animated triangles), never the subject.
            vars: {
              question: p.question ?? '',
              context: p.context ?? '',
              options: (p.options ?? []).join(' | '),
              expected: item.answer,
              reply: answered.reply,
              condition: String((p as unknown as { condition?: string }).condition ?? ''),
              script: String((p as unknown as { script?: string }).script ?? ''),
            },
          });
          result.judgeFailures += panel.failures;
          if (!panel.aggregate) result.unscored++;
          else {
            const first = rubric.fields[0].name;
            opts.store.recordScore(key, { scorer, value: panel.aggregate[first], detail: { ...panel, fields: panel.aggregate } });
            result.scored++;
            for (const f of rubric.fields) sums[f.name].push(panel.aggregate[f.name]);
            for (const j of panel.judges)
              if (j.values)
                for (const f of rubric.fields) cells.push({ judge: j.judge, subject: r.spec, field: f.name, value: j.values[f.name] });
          }
        }
      }
      opts.onProgress?.(++done, rows.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(8, Math.max(1, rows.length)) }, work));
  } finally {
    await Promise.all(models.map((m) => m.close?.()));
  }
  for (const f of rubric.fields) if (sums[f.name].length) result.meanByField[f.name] = aggregate(sums[f.name], 'mean');
  for (const c of callers.flatMap((x) => x.calls)) {
    result.calls.made++;
    if (c.cached) result.calls.cached++;
    result.calls.costUsd += c.costUsd;
  }
  result.family = familyAnalysis(cells, (spec) => defaultFamily(spec, opts.families));
  return result;
}

export async function validateJudgeModels(opts: {
  store: Store;
  rubricPath: string;
  anchorsPath: string;
  judges: string[];
  k?: number;
  gates?: JudgeGates;
  apiKeyEnv?: string;
}): Promise<{ rubric: { name: string; sha256: string }; results: JudgeValidation[] }> {
  const rubric = loadRubric(opts.rubricPath);
  const anchors = loadAnchors(opts.anchorsPath, rubric);
  // Repetitions must reach the judge: no call cache here.
  const { callers, models } = judgeCallers(opts.store, opts.judges, { useCache: false, apiKeyEnv: opts.apiKeyEnv });
  try {
    return {
      rubric: { name: rubric.name, sha256: rubric.sha256 },
      results: await validateJudges(callers, rubric, anchors, { k: opts.k, gates: opts.gates }),
    };
  } finally {
    await Promise.all(models.map((m) => m.close?.()));
  }
}

export interface InferenceJudgement {
  model: string;
  units: number;
  /** Mean per rubric field, and their total (e.g. TA = PA + CA + SA). */
  means: Record<string, number>;
  total: number;
  judgeFailures: number;
}

/** A judge panel comparing free-text inferences with human references (DialToM's PA/CA/SA rubric). */
export async function judgeInferences(opts: {
  store: Store;
  rubricPath: string;
  judges: string[];
  hypotheses: Array<{ model: string; dataset: string; state: string; subId: string; inference: string }>;
  references: Map<string, { unit: { dataset: string; state: string; subId: string }; references: string[] }>;
  apiKeyEnv?: string;
}): Promise<InferenceJudgement[]> {
  const rubric = loadRubric(opts.rubricPath);
  const { callers, models } = judgeCallers(opts.store, opts.judges, { useCache: true, apiKeyEnv: opts.apiKeyEnv });
  try {
    const out: InferenceJudgement[] = [];
    for (const model of [...new Set(opts.hypotheses.map((h) => h.model))]) {
      const values: Record<string, number[]> = Object.fromEntries(rubric.fields.map((f) => [f.name, []]));
      let failures = 0;
      for (const h of opts.hypotheses.filter((x) => x.model === model)) {
        const ref = opts.references.get(`${h.dataset}\u0000${h.state}\u0000${h.subId}`);
        if (!ref) continue;
        const panel = await scoreWithPanel(callers, rubric, {
          subject: `inference-${model === 'benchmark' ? 'b' : out.length}`,
          response: h.inference,
          vars: { references: ref.references.map((r) => `- ${r}`).join('\n'), state: h.state },
        });
        failures += panel.failures;
        if (panel.aggregate) for (const f of rubric.fields) values[f.name].push(panel.aggregate[f.name]);
      }
      const means = Object.fromEntries(
        rubric.fields.map((f) => [f.name, values[f.name].length ? aggregate(values[f.name], 'mean') : Number.NaN]),
      );
      out.push({
        model,
        units: values[rubric.fields[0].name].length,
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
