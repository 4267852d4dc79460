// Model-written items: the author's caller a study uses to have a model write its items. Calls
// go through the runner's recording model (cache, retries).

import { DEFAULT_SETTINGS } from '../core/index.js';
import type { ChatModel } from '../models/index.js';
import { CallerFactory, type RecordingModel } from '../runner/index.js';
import type { Store } from '../store/index.js';
import { createRegistry, type Registry } from './registry.js';

/** An author's caller: recorded under `author:SPEC`, cached, retried, four calls at a time. */
export function authorCaller(
  opts: { store: Store; model: string; apiKeyEnv?: string; registry?: Registry },
  temperature: number,
): { model: ChatModel; caller: RecordingModel; factory: CallerFactory } {
  const model = (opts.registry ?? createRegistry()).createModel(opts.model, { apiKeyEnv: opts.apiKeyEnv });
  const factory = new CallerFactory({ store: opts.store, concurrency: 4, timeoutMs: 180_000 });
  return { model, factory, caller: factory.caller(model, `author:${model.spec}`, { ...DEFAULT_SETTINGS, temperature }) };
}
