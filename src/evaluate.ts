// The library's front door for running an evaluation: suites x models through the runner into
// a store. The CLI's `run` and `demo` are thin wrappers over this.

import { readFileSync } from 'node:fs';
import type { GenerationSettings, Item, McqPayload, Task } from './core/index.js';
import { contentHash, DEFAULT_SETTINGS, InputError } from './core/index.js';
import { createModel } from './models/index.js';
import type { ChatModel } from './models/index.js';
import {
  createConversationTask,
  createDescribeTask,
  createDirectorTask,
  createEpisodeTask,
  type DirectorPayload,
  createMcqTask,
  DEFAULT_MCQ_TEMPLATE,
  loadMcqTemplate,
  type EpisodePayload,
  type McqScoring,
  type StoryTurnPayload,
} from './protocols/index.js';
import { runEvaluation, type PriceTable, type RetryPolicy, type RunEvent, type RunSummary } from './runner/index.js';
import type { Store } from './store/index.js';
import { loadSuite, readJsonLines, suiteProtocol, type McqFieldMap } from './suites/index.js';

export interface EvaluateOptions {
  store: Store;
  suites: string[];
  models: string[];
  data?: string;
  runId?: string;
  trials?: number;
  seed?: number;
  /** First N items per suite; for generated suites, the number generated (default 300). */
  limit?: number;
  concurrency?: number;
  timeoutSeconds?: number;
  shuffle?: boolean;
  scoring?: McqScoring;
  templatePath?: string;
  temperature?: number;
  maxTokens?: number;
  apiKeyEnv?: string;
  fields?: McqFieldMap;
  prices?: PriceTable;
  retry?: RetryPolicy;
  useCache?: boolean;
  /** StoryTurn conversations: send each turn's image as an image part (the text+image setting). */
  images?: boolean;
  /** Reasoning-trace injection: a JSONL file of { item_id, trace } (teacher explanations, masked before use). */
  tracesPath?: string;
  onEvent?: (e: RunEvent) => void;
  /** Loader warnings (repaired answers, items left out), each naming its file and line. */
  onWarning?: (message: string) => void;
}

/** Teacher explanations: JSON lines with item_id (or id) and trace. */
function readTraces(path: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const { line, value } of readJsonLines(path)) {
    const id = String(value.item_id ?? value.id ?? '');
    if (!id || typeof value.trace !== 'string') throw new InputError('each line needs item_id and trace', path, line);
    map.set(id, value.trace);
  }
  return map;
}

export interface EvaluateResult extends RunSummary {
  warnings: string[];
}

/** Load suites into tasks: MCQ, or episodes for embodied suites. */
export async function loadTasks(
  opts: Pick<
    EvaluateOptions,
    'suites' | 'data' | 'seed' | 'limit' | 'fields' | 'shuffle' | 'scoring' | 'templatePath' | 'images' | 'tracesPath'
  >,
): Promise<{ tasks: Task[]; warnings: string[] }> {
  const template = opts.templatePath ? loadMcqTemplate(opts.templatePath) : DEFAULT_MCQ_TEMPLATE;
  const traces = opts.tracesPath ? readTraces(opts.tracesPath) : undefined;
  const warnings: string[] = [];
  const tasks: Task[] = [];
  for (const suite of opts.suites) {
    const loaded = await loadSuite(suite, { data: opts.data, seed: opts.seed ?? 0, count: opts.limit, fields: opts.fields });
    warnings.push(...loaded.warnings);
    const items = opts.limit !== undefined ? loaded.items.slice(0, opts.limit) : loaded.items;
    const protocol = suiteProtocol(suite);
    if (protocol === 'episode') tasks.push(createEpisodeTask(suite, items as Item<EpisodePayload>[]));
    else if (protocol === 'describe') tasks.push(createDescribeTask(suite, items as Item<{ grid: string }>[]));
    else if (protocol === 'director') tasks.push(createDirectorTask(suite, items as Item<DirectorPayload>[]));
    else if (protocol === 'conversation')
      tasks.push(createConversationTask(suite, items as Item<StoryTurnPayload>[], { images: opts.images }));
    else tasks.push(createMcqTask(suite, items as Item<McqPayload>[], { template, shuffle: opts.shuffle, scoring: opts.scoring, traces }));
  }
  return { tasks, warnings };
}

export async function evaluate(opts: EvaluateOptions): Promise<EvaluateResult> {
  if (opts.suites.length === 0) throw new Error('no suite given');
  if (opts.models.length === 0) throw new Error('no model given (--model SPEC)');
  // Build every model first: a bad spec or a missing key fails before anything is stored.
  const subjects: ChatModel[] = opts.models.map((spec) => createModel(spec, { apiKeyEnv: opts.apiKeyEnv }));
  const { tasks, warnings } = await loadTasks(opts);
  warnings.forEach((w) => opts.onWarning?.(w));
  const settings: GenerationSettings = {
    ...DEFAULT_SETTINGS,
    ...(opts.temperature !== undefined ? { temperature: opts.temperature } : {}),
    ...(opts.maxTokens !== undefined ? { maxTokens: opts.maxTokens } : {}),
  };
  const seed = opts.seed ?? 0;
  const trials = opts.trials ?? 1;
  // What defines the run; operational settings (concurrency, timeout) may change on resumption.
  const config: Record<string, unknown> = {
    suites: opts.suites,
    models: subjects.map((s) => s.spec),
    data: opts.data ?? null,
    trials,
    seed,
    limit: opts.limit ?? null,
    shuffle: opts.shuffle ?? false,
    scoring: opts.scoring ?? 'generate',
    template: opts.templatePath ? contentHash(readFileSync(opts.templatePath, 'utf8')) : 'default',
    ...(opts.tracesPath ? { traces: contentHash(readFileSync(opts.tracesPath, 'utf8')) } : {}),
    ...(opts.images ? { images: true } : {}),
    fields: opts.fields ?? null,
    settings,
  };
  const runId = opts.runId ?? `run-${contentHash(config).slice(0, 12)}`;
  const summary = await runEvaluation({
    store: opts.store,
    runId,
    config,
    tasks,
    subjects,
    settings,
    replicates: trials,
    seed,
    concurrency: opts.concurrency ?? 8,
    timeoutMs: (opts.timeoutSeconds ?? 60) * 1000,
    retry: opts.retry,
    prices: opts.prices,
    useCache: opts.useCache,
    onEvent: opts.onEvent,
  });
  return { ...summary, warnings };
}
