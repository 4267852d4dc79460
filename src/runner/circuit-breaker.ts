// A circuit breaker per endpoint: a server that takes calls and never answers is otherwise
// retried forever (each trial costs maxRetries x timeout). After `maxConsecutive` timeouts in a
// row on one endpoint, with no answer of any kind in between, the breaker opens and every call
// to that endpoint fails at once with an `unresponsive` error, which stops its subjects (the run
// stays resumable). Any answer from the server, even an error status, shows that it is alive.
// Calls in flight together time out together: 64 calls caught in one stall of a busy server are
// one piece of evidence, not 64. So a timeout counts only for a call that started after the last
// counted one, and opening the breaker takes `maxConsecutive` time limits of silence in a row.

import { ModelCallError } from '../models/index.js';

/** The default number of timeouts in a row after which an endpoint is taken as down. */
export const DEFAULT_MAX_CONSECUTIVE_TIMEOUTS = 5;

/** Counts consecutive timeouts of one endpoint and opens after too many (0 turns it off). */
export class CircuitBreaker {
  #consecutive = 0;
  /** When the last counted timeout happened: calls started before it belong to the same stall. */
  #lastCounted = Number.NEGATIVE_INFINITY;
  #open: ModelCallError | undefined;

  constructor(
    readonly endpoint: string,
    readonly maxConsecutive = DEFAULT_MAX_CONSECUTIVE_TIMEOUTS,
  ) {}

  /** The error every call now gets, once the breaker is open. */
  get openError(): ModelCallError | undefined {
    return this.#open;
  }

  /** The server answered (a reply or an error status): the count starts again. */
  onAnswer(): void {
    this.#consecutive = 0;
  }

  /** A call started at `startedAt` (ms since the epoch) timed out; returns the breaker's error when this opens it (or it was open already). */
  onTimeout(spec: string, timeoutMs: number, startedAt: number): ModelCallError | undefined {
    if (this.#open) return this.#open;
    if (this.maxConsecutive <= 0 || startedAt < this.#lastCounted) return undefined;
    this.#lastCounted = Date.now();
    if (++this.#consecutive >= this.maxConsecutive) {
      this.#open = new ModelCallError(
        `${spec}: ${this.#consecutive} calls in a row to ${this.endpoint} got no answer within ${timeoutMs / 1000}s; ` +
          'the server seems hung, so its subjects were stopped (--max-consecutive-timeouts). Run the same command again to continue the run.',
        'unresponsive',
      );
    }
    return this.#open;
  }
}
