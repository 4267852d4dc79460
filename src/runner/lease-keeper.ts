// Trial leases held by this process: claimed in the store before a trial runs, renewed by a
// heartbeat while the process lives, released when it ends. A process killed at any moment
// stops renewing, so its leases expire after `ttlMs` and another process takes its trials.

import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { TrialKey } from '../core/index.js';
import type { ClaimResult, Store } from '../store/index.js';

/** How long a lease lasts without its heartbeat: a killed process's trials come back after this. */
export const DEFAULT_LEASE_MS = 60_000;

export class LeaseKeeper {
  /** This process, as the store's leases name it. */
  readonly owner = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  #timer: NodeJS.Timeout | undefined;
  #renewing: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: Store,
    readonly ttlMs: number = DEFAULT_LEASE_MS,
  ) {
    if (!(ttlMs >= 100)) throw new Error(`a lease must last at least 100 ms, got ${ttlMs}`);
  }

  /** Start the heartbeat: every lease held is renewed three times per lease period. */
  start(): this {
    this.#timer ??= setInterval(() => {
      // A failed renewal is not fatal: a lease that lapses lets another process run the trial,
      // and the store records its result once all the same.
      this.#renewing = this.store.renewLeases(this.owner, this.ttlMs).catch(() => {});
    }, this.ttlMs / 3);
    this.#timer.unref();
    return this;
  }

  claim(keys: TrialKey[]): Promise<ClaimResult[]> {
    return this.store.claimTrials(keys, this.owner, this.ttlMs);
  }

  /** Stop the heartbeat and give back every lease still held. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#renewing;
    await this.store.releaseLeases(this.owner);
  }
}
