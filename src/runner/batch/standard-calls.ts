// Which calls of a batch run were made one by one, at the standard price: those of a subject
// without a batch API, and those a batch returned as errors (or whose batch was refused). The
// final pass counts the calls that reach each subject's provider; replies a batch fetched come
// from the call cache and never reach it.

import type { ChatModel } from '../../models/index.js';
import type { RunSubject } from '../trial-executor.js';

/** Calls made one by one at the standard price, per subject, and why. */
export interface StandardPriceCalls {
  spec: string;
  calls: number;
  /** 'no batch API': the subject has none; 'batch errors': its batches returned these calls as errors, or were refused. */
  reason: 'no batch API' | 'batch errors';
}

/** Counts the calls each subject's model answers (a local model's, free, are not counted). */
export class StandardCallCounter {
  readonly #calls = new Map<string, number>();

  /** The subject with its model counted; a local model's subject as it is. */
  count(subject: RunSubject): RunSubject {
    const target = subject.model;
    if (target.local) return subject;
    const calls = this.#calls;
    const model = new Proxy(target, {
      get(t, prop) {
        if (prop === 'chat')
          return async (request: Parameters<ChatModel['chat']>[0]) => {
            const reply = await t.chat(request);
            calls.set(t.spec, (calls.get(t.spec) ?? 0) + 1);
            return reply;
          };
        const value: unknown = Reflect.get(t, prop, t);
        return typeof value === 'function' ? value.bind(t) : value;
      },
    });
    return { ...subject, model };
  }

  /** The subjects that made calls, with their counts; `batched`: the specs whose calls went to batches. */
  counts(batched: ReadonlySet<string>): StandardPriceCalls[] {
    return [...this.#calls].map(([spec, calls]) => ({ spec, calls, reason: batched.has(spec) ? 'batch errors' : 'no batch API' }));
  }
}
