// The batch ledger: provider batches a run submitted (--batch) and the calls each carries, keyed
// by call-cache key. A call is claimed in the ledger before its batch is created, so two
// processes never submit it twice; the provider's batch id is stored as soon as the provider
// answers, so a killed process (or any other) resumes polling instead of resubmitting.

/** submitting: claimed, not yet created at the provider; submitted: in flight; fetched: results taken; failed: the batch as a whole failed. */
export type BatchState = 'submitting' | 'submitted' | 'fetched' | 'failed';

export interface BatchRecord {
  /** Our id (also sent to the provider as the batch's label). */
  id: string;
  runId: string;
  /** The subject's model spec, from which the model (and its batch API) is rebuilt. */
  spec: string;
  /** Multi-turn protocols run in rounds, one turn of every pending trial per round. */
  round: number;
  /** The provider's batch id; null until the provider answered the submission. */
  remoteId: string | null;
  state: BatchState;
  requests: number;
  error: string | null;
  createdAt: string;
}

/** One call of a batch: pending until its batch's results are taken; then done (its reply is in the call cache) or error. */
export interface BatchRequestRow {
  key: string;
  batchId: string;
  status: 'pending' | 'done' | 'error';
  /** What the call cost at batch prices (null: unknown price, or not done). */
  costUsd: number | null;
  error: string | null;
}

/** The ledger's part of the Store. */
export interface BatchLedger {
  /**
   * Record a batch about to be submitted and claim its calls: keys the run's ledger holds already
   * (submitted by this or another process) are left out. Returns the keys claimed; when none is,
   * no batch is recorded.
   */
  openBatch(batch: { id: string; runId: string; spec: string; round: number }, keys: string[]): Promise<string[]>;
  /** Change a batch's provider id, state or error. */
  updateBatch(id: string, change: { remoteId?: string; state?: BatchState; error?: string }): Promise<void>;
  /** The run's batches, oldest first. */
  runBatches(runId: string): Promise<BatchRecord[]>;
  /** Every call in the run's ledger. */
  batchRequests(runId: string): Promise<BatchRequestRow[]>;
  /** Record what the provider returned for a batch's calls. */
  settleBatchRequests(
    batchId: string,
    rows: Array<{ key: string; status: 'done' | 'error'; costUsd: number | null; error: string | null }>,
  ): Promise<void>;
  /**
   * Forget batches stuck in `submitting` for longer than `olderThanMs` (their process died
   * before the provider answered, or before its id was stored): their calls can be claimed again.
   */
  dropStaleBatches(runId: string, olderThanMs: number): Promise<number>;
}
