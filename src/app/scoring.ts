// Scoring as its own step: a judge panel scores a stored run's responses without re-running
// the subjects (`mindscope score`), and judges are validated on anchors (`mindscope judge
// validate`). Judge calls go through the runner's recording model: the call cache (nothing is
// paid for twice), retries, the adaptive limit per endpoint and cost accounting. The rubric's
// SHA-256 is pinned to the run: a changed rubric under the same name is refused.

import { ConfigError, RubricPinnedSchema, readScoreDetail, type TrialKey } from '../core/index.js';
import {
  defaultFamily,
  familyAnalysis,
  loadAnchors,
  loadRubric,
  scoreWithPanel,
  validateJudges,
  type Aggregation,
  type FamilyComparison,
  type JudgeGates,
  type JudgeValidation,
} from '../judges/index.js';
import { settingsFor, type ChatModel } from '../models/index.js';
import { CallerFactory, DEFAULT_LEASE_MS, LeaseKeeper, runPool, type RecordingModel } from '../runner/index.js';
import { PROTOCOL_SCORES, type ResponseRow, type Store } from '../store/index.js';
import type { JudgeTarget, PanelVerdict } from '../protocols/index.js';
import { leasedRows } from './leased-rows.js';
import { storedRecord } from './stored-record.js';
import { createRegistry, type Registry } from './registry.js';
import { ScoreAnalysis } from './score-analysis.js';

/** How judge models are built: the key of openai-compatible judges, and whether such servers take a response schema. */
export interface JudgeModelOptions {
  apiKeyEnv?: string;
  /** `openai-compatible:` judges: the server takes `response_format: json_schema` (hosted APIs always use structured output). */
  structuredOutput?: boolean;
}

/** Judges as callers: temperature 0, recorded under `judge:SPEC`, through the shared call machinery. */
export function judgeCallers(
  store: Store,
  specs: string[],
  opts: JudgeModelOptions & { useCache: boolean; concurrency?: number; registry?: Registry },
): { callers: RecordingModel[]; models: ChatModel[]; factory: CallerFactory } {
  if (specs.length === 0) throw new ConfigError('name at least one judge (--judge SPEC)');
  const registry = opts.registry ?? createRegistry();
  const models = specs.map((s) => registry.createModel(s, { apiKeyEnv: opts.apiKeyEnv, structuredOutput: opts.structuredOutput }));
  const factory = new CallerFactory({ store, concurrency: opts.concurrency, timeoutMs: 120_000, useCache: opts.useCache });
  // A reasoning judge gets its output budget with room to reason (the 256-token default would be spent thinking).
  const callers = models.map((m) => factory.caller(m, `judge:${m.spec}`, settingsFor(m.spec, m.capabilities, { temperature: 0 }).settings));
  return { callers, models, factory };
}

/** The stored trials of a run, one row per trial (responses yields one row per score). */
async function trialsOf(store: Store, runId: string): Promise<ResponseRow[]> {
  const seen = new Set<string>();
  const out: ResponseRow[] = [];
  for await (const r of store.responses(runId, PROTOCOL_SCORES)) {
    const k = `${r.subjectId}\u0000${r.suite}\u0000${r.itemId}\u0000${r.replicate}`;
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(r);
  }
  return out;
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
  structuredOutput?: boolean;
  concurrency?: number;
  onProgress?: (done: number, total: number) => void;
  registry?: Registry;
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
  /** Judge calls: `made` in all, `cached` of them answered from the cache (not paid again), and their cost (US$; null when a judge's price is unknown). */
  calls: { made: number; cached: number; costUsd: number | null };
}

/** Where a judge's reply to a judged trial is cached from: the scoring of that run. */
const scoreOrigin = (runId: string) => `score ${runId}`;

/** Score a stored run with a judge panel and a rubric (pinned to the run by its SHA-256); trials already scored with it are skipped. */
export async function scoreRun(opts: ScoreRunOptions): Promise<ScoreRunResult> {
  const rubric = loadRubric(opts.rubricPath);
  if (!(await opts.store.getRun(opts.runId))) throw new ConfigError(`no run "${opts.runId}" in ${opts.store.location}`);
  // A rubric is pinned when its first score is written; a failed attempt pins nothing, but a
  // different file under a pinned name is refused before any judge is called.
  const pinned = (await opts.store.pinnedRubrics(opts.runId)).find((p) => p.rubric === rubric.name);
  if (pinned && pinned.sha256 !== rubric.sha256)
    throw new ConfigError(
      `${opts.rubricPath}: run ${opts.runId} was scored with rubric "${rubric.name}" sha256 ${pinned.sha256.slice(0, 12)}...; this file is ${rubric.sha256.slice(0, 12)}...: refusing to mix rubrics (use a new rubric name)`,
    );
  let pinning: Promise<void> | undefined;
  const scorer = `judge:${rubric.name}`;
  const aggregation = opts.aggregation ?? 'median';
  const { models, factory } = judgeCallers(opts.store, opts.judges, {
    useCache: true,
    apiKeyEnv: opts.apiKeyEnv,
    structuredOutput: opts.structuredOutput,
    concurrency: opts.concurrency,
    registry: opts.registry,
  });
  const judgeSettings = models.map((m) => settingsFor(m.spec, m.capabilities, { temperature: 0 }).settings);
  // Each judged trial is a unit of work of its own: the same prompt about another trial is another draw.
  const panelFor = (r: ResponseRow) =>
    models.map((m, k) =>
      factory.caller(m, `judge:${m.spec}`, judgeSettings[k]!, {
        draw: `score\u0000${r.subjectId}\u0000${r.suite}\u0000${r.itemId}\u0000${r.replicate}`,
        origin: scoreOrigin(opts.runId),
      }),
    );
  const rows = await trialsOf(opts.store, opts.runId);
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
  const analysis = new ScoreAnalysis(rubric);
  const record = async (key: TrialKey, value: number, detail: unknown) => {
    pinning ??= opts.store.pinRubric(opts.runId, rubric.name, rubric.sha256);
    await pinning;
    await opts.store.recordScore(key, { scorer, value, detail });
    result.scored++;
  };
  const countCalls = (callers: RecordingModel[]) => {
    for (const c of callers.flatMap((x) => x.calls)) {
      result.calls.made++;
      if (c.cached) result.calls.cached++;
      result.calls.costUsd = c.costUsd === null || result.calls.costUsd === null ? null : result.calls.costUsd + c.costUsd;
    }
  };
  /** A stored score of this rubric: counted as scored before, and part of the analysis. */
  const storedScore = async (key: TrialKey, spec: string): Promise<boolean> => {
    const existing = await opts.store.scoreOf(key, scorer);
    if (!existing || readScoreDetail(RubricPinnedSchema, existing.detail)?.rubric.sha256 !== rubric.sha256) return false;
    result.alreadyScored++;
    analysis.addStored(spec, existing.detail);
    return true;
  };
  let done = 0;
  const registry = opts.registry ?? createRegistry();
  const scoreOne = async (r: ResponseRow, key: TrialKey) => {
    if (await storedScore(key, r.spec)) return;
    const stored = (await opts.store.transcript(key))?.transcript;
    const found = stored ? storedRecord(registry.protocols, stored, `${r.suite}/${r.itemId}`) : undefined;
    const item = await opts.store.getItem(r.itemHash);
    const callers = panelFor(r);
    // The judges see the opaque subject id, never its spec.
    const judge = async (target: JudgeTarget): Promise<PanelVerdict> => {
      const panel = await scoreWithPanel(callers, rubric, { subject: r.subjectId, ...target }, aggregation);
      result.judgeFailures += panel.failures;
      const first = rubric.fields[0]!;
      return { ...panel, passed: panel.aggregate ? panel.aggregate[first.name]! >= (first.min + first.max) / 2 : false };
    };
    try {
      const hooks = found?.protocol.judge;
      let scored: { value: number; detail: Record<string, unknown> } | undefined;
      if (found && hooks?.score) {
        const s = await hooks.score(found.record, item, judge);
        scored = s && { value: s.value, detail: { rubric: { name: rubric.name, sha256: rubric.sha256 }, aggregation, ...s.detail } };
      } else {
        const target = found && item ? hooks?.target?.(found.record, item) : undefined;
        const panel = target && (await judge(target));
        if (panel?.aggregate) {
          const { passed: _, ...kept } = panel;
          scored = { value: panel.aggregate[rubric.fields[0]!.name]!, detail: { ...kept, fields: panel.aggregate } };
        }
      }
      if (!scored) result.unscored++;
      else {
        await record(key, scored.value, scored.detail);
        analysis.addStored(r.spec, scored.detail);
      }
    } finally {
      countCalls(callers);
    }
  };
  // Several `score` processes on one run share its trials: each is leased first (under a
  // namespace of the run and scorer), scored once, and its lease given back.
  const leases = new LeaseKeeper(opts.store, DEFAULT_LEASE_MS).start();
  const namespace = `score\u0000${opts.runId}\u0000${scorer}`;
  const leaseKey = (r: ResponseRow): TrialKey => ({
    runId: namespace,
    subjectId: r.subjectId,
    suite: r.suite,
    itemId: r.itemId,
    replicate: r.replicate,
  });
  try {
    const workers = Math.min(8, Math.max(1, rows.length));
    await runPool(leasedRows(rows, leaseKey, leases, namespace, workers), workers, async (r) => {
      const key: TrialKey = { runId: opts.runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate };
      try {
        await scoreOne(r, key);
      } finally {
        await leases.release([leaseKey(r)]);
      }
      opts.onProgress?.(++done, rows.length);
    });
    await factory.settle();
  } finally {
    await leases.stop().catch(() => {});
    await Promise.all(models.map((m) => m.close?.()));
  }
  result.meanByField = analysis.means();
  result.family = familyAnalysis(analysis.cells, (spec) => defaultFamily(spec, opts.families));
  return result;
}

/** Validate judge models on anchor texts (recovery and repeatability gates) with a rubric; no call cache, so repetitions reach the judge. */
export async function validateJudgeModels(opts: {
  store: Store;
  rubricPath: string;
  anchorsPath: string;
  judges: string[];
  k?: number;
  gates?: JudgeGates;
  apiKeyEnv?: string;
  structuredOutput?: boolean;
}): Promise<{ rubric: { name: string; sha256: string }; results: JudgeValidation[] }> {
  const rubric = loadRubric(opts.rubricPath);
  const anchors = loadAnchors(opts.anchorsPath, rubric);
  // Repetitions must reach the judge: no call cache here.
  const { callers, models } = judgeCallers(opts.store, opts.judges, {
    useCache: false,
    apiKeyEnv: opts.apiKeyEnv,
    structuredOutput: opts.structuredOutput,
  });
  try {
    return {
      rubric: { name: rubric.name, sha256: rubric.sha256 },
      results: await validateJudges(callers, rubric, anchors, { k: opts.k, gates: opts.gates }),
    };
  } finally {
    await Promise.all(models.map((m) => m.close?.()));
  }
}
