// DialToM's model writer (`mindscope dialtom build --model`): one structured call per dialogue
// window for the true and wrong options and the distractor trajectories, through the author's
// caller (cache, retries).

import { InputError } from '../../../core/index.js';
import type { Store } from '../../../store/index.js';
import { authorCaller, type Registry } from '../../../app/index.js';
import { writerPrompt, type Writer } from '../suites/dialtom-builder.js';

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
