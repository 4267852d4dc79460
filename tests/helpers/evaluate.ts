// The tests written before the run specification was split from run operations call
// `evaluate` with one flat options object; this adapter splits it the way the CLI does, so
// those tests keep their bodies and assertions unchanged.

import { evaluate as evaluateSpec, type EvaluateResult, type RunEvent, type Store } from '../../src/index.js';
import type { McqFieldMap } from '../../src/core/index.js';
import type { PriceTable, RetryPolicy } from '../../src/runner/index.js';

export interface FlatEvaluateOptions {
  store: Store;
  suites: string[];
  models: string[];
  data?: string;
  runId?: string;
  trials?: number;
  seed?: number;
  limit?: number;
  concurrency?: number;
  timeoutSeconds?: number;
  shuffle?: boolean;
  scoring?: 'generate' | 'loglik' | 'loglik-norm';
  templatePath?: string;
  temperature?: number;
  maxTokens?: number;
  apiKeyEnv?: string;
  fields?: McqFieldMap;
  prices?: PriceTable;
  retry?: RetryPolicy;
  useCache?: boolean;
  images?: boolean;
  tracesPath?: string;
  onEvent?: (e: RunEvent) => void;
  onWarning?: (message: string) => void;
}

export function evaluate(o: FlatEvaluateOptions): Promise<EvaluateResult> {
  return evaluateSpec(
    {
      suites: o.suites,
      models: o.models,
      data: o.data,
      trials: o.trials,
      seed: o.seed,
      limit: o.limit,
      shuffle: o.shuffle,
      scoring: o.scoring,
      template: o.templatePath,
      traces: o.tracesPath,
      images: o.images,
      fields: o.fields,
      settings: {
        ...(o.temperature !== undefined ? { temperature: o.temperature } : {}),
        ...(o.maxTokens !== undefined ? { maxTokens: o.maxTokens } : {}),
      },
    },
    {
      store: o.store,
      runId: o.runId,
      concurrency: o.concurrency,
      timeoutMs: o.timeoutSeconds !== undefined ? o.timeoutSeconds * 1000 : undefined,
      apiKeyEnv: o.apiKeyEnv,
      prices: o.prices,
      retry: o.retry,
      useCache: o.useCache,
      onEvent: o.onEvent,
      onWarning: o.onWarning,
    },
  );
}
