// One prompt to a model, its reply read and checked; a reply that does not pass is answered with
// what is wrong with it (the reader's problem, a follow-up turn after the model's reply) and the
// model asked again, up to `retries` times. Calls go through the author's caller (cache, retries
// on errors), so asking again later replays the same replies from the cache.

import type { ChatMessage } from '../../../core/index.js';
import type { RecordingModel } from '../../../runner/index.js';
import type { Reading } from '../suites/writing-prompts.js';

/** What the writer asked: calls, follow-ups after a reply that did not pass, and what was refused. */
export interface WritingLog {
  calls: number;
  followUps: number;
  refused: Array<{ window: string; what: string; problem: string; attempts: number }>;
}

export const emptyLog = (): WritingLog => ({ calls: 0, followUps: 0, refused: [] });

/** Ask until the reader accepts the reply or `retries` follow-ups are spent; the last reading and the number of attempts. */
export async function askChecked<T>(
  caller: RecordingModel,
  prompt: string,
  read: (reply: string) => Reading<T>,
  retries: number,
  log: WritingLog,
): Promise<{ reading: Reading<T>; attempts: number }> {
  const messages: ChatMessage[] = [{ role: 'user', content: prompt }];
  for (let attempt = 1; ; attempt++) {
    const reply = await caller.chat(messages);
    log.calls++;
    const reading = read(reply.text);
    if ('ok' in reading || attempt > retries) return { reading, attempts: attempt };
    log.followUps++;
    messages.push({ role: 'assistant', content: reply.text }, { role: 'user', content: reading.problem });
  }
}
