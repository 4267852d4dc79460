// Trial leases held by this process: claimed in the store before a trial runs, renewed by a
// heartbeat while the process lives, released when it ends. A process killed at any moment
// stops renewing, so its leases expire after `ttlMs` and another process takes its trials; a
// process on the same machine sees at once that the owner is gone (its pid is not running)
// and takes them without waiting.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { TrialKey } from '../core/index.js';
import type { ClaimResult, Store } from '../store/index.js';

/** How long a lease lasts without its heartbeat: a killed process's trials come back after this. */
export const DEFAULT_LEASE_MS = 60_000;

/** This machine: its host name and, where there is one, the start of its machine id (host names repeat across containers). */
function machine(): string {
  let id = '';
  try {
    id = readFileSync('/etc/machine-id', 'utf8').trim().slice(0, 8);
  } catch {
    /* not every system has one */
  }
  return id ? `${hostname()}/${id}` : hostname();
}

const MACHINE = machine();

/** Whether a process with this pid runs on this machine. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The leases one process holds in a store: claim, heartbeat, release, and take-over of dead local owners. */
export class LeaseKeeper {
  /** This process, as the store's leases name it: machine, pid, and a random part. */
  readonly owner = `${MACHINE}:${process.pid}:${randomBytes(4).toString('hex')}`;
  #timer: NodeJS.Timeout | undefined;
  #renewing: Promise<unknown> = Promise.resolve();

  constructor(
    readonly store: Store,
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

  /** Give back leases on trials this process will not run after all. */
  release(keys: TrialKey[]): Promise<void> {
    return this.store.releaseLeases(this.owner, keys);
  }

  /** Give back the leases on a run that processes of this machine hold and that no longer run (killed); returns how many owners. */
  async reapDeadLocal(runId: string): Promise<number> {
    let reaped = 0;
    for (const owner of await this.store.leaseOwners(runId)) {
      const m = /^(.*):(\d+):[0-9a-f]+$/.exec(owner);
      if (!m || m[1] !== MACHINE || owner === this.owner || running(Number(m[2]))) continue;
      await this.store.releaseLeases(owner);
      reaped++;
    }
    return reaped;
  }

  /** Stop the heartbeat and give back every lease still held. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#renewing;
    await this.store.releaseLeases(this.owner);
  }
}
