// Model-written items: the author's caller a study uses to have a model write its items, and
// DialToM options and trajectories (`mindscope dialtom build --model`). Calls go through the
// runner's recording model (cache, retries).

import { DEFAULT_SETTINGS, InputError } from '../core/index.js';
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
import { writerPrompt, type Writer } from '../suites/index.js';

/** A DialToM writer backed by a model: one structured call per window (see writerPrompt). */
export function modelDialtomWriter(opts: { store: Store; model: string; apiKeyEnv?: string; registry?: Registry }): {
  writer: Writer;
  close: () => Promise<void>;
} {
  const { model, caller, factory } = authorCaller(opts, 0);
  const recipients: Record<string, string> = { MI: 'client', ESC: 'seeker', PFG: 'persuadee' };
  const writer: Writer = async (d, w) => {
    const reply = await caller.chat([{ role: 'user', content: writerPrompt(d, w, recipients[d.domain] ?? 'listener') }]);
    const start = reply.text.indexOf('{');
    const end = reply.text.lastIndexOf('}');
    if (start < 0 || end <= start) throw new InputError(`window ${w.id}: the writer's reply holds no JSON`);
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(reply.text.slice(start, end + 1));
    } catch (err) {
      throw new InputError(`window ${w.id}: the writer's JSON does not parse: ${(err as Error).message}`);
    }
    return {
      true: raw.true as never,
      wrong: raw.wrong as never,
      distractorTrajectories: raw.distractor_trajectories as never,
      summary: typeof raw.summary === 'string' ? raw.summary : undefined,
    };
  };
  return {
    writer,
    close: async () => {
      try {
        await factory.settle();
      } finally {
        await model.close?.();
      }
    },
  };
}
