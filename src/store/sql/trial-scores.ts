// The scores of a range of trials (by id), in trial order and each trial's in the order they
// came: what readers that stream trial rows attach to each row (trial-pages.ts,
// trial-summaries.ts). SQLite's are read from score_rows, not through the view "scores" (which
// looks each row's scorer name and shared detail up again): scorers by number (TrialNames),
// each shared detail (score_details) read once.

// core's errors file, not its index: the index loads every record schema (zod), which `report` does without.
import { MindscopeError } from '../../core/errors.js';
import { type SqlDriver, untaggedValue } from './driver.js';
import type { TrialNames } from './trial-names.js';

/** Score details at most this long (tagged) are decoded once per distinct stored value (a protocol's details repeat). */
const REMEMBERED_DETAIL_CHARS = 512;
/** Details a reader remembers before it starts again empty. */
const REMEMBERED_DETAILS = 10_000;

export interface RangeScore {
  trialId: number;
  scorer: string;
  value: number;
  /** The detail's text; empty when read without details. */
  detail: string;
}

/** Reads scores by trial id range; `withDetails` false: their values only. */
export class TrialScores {
  readonly #sqlite: boolean;
  readonly #sql: string;
  /** Decoded details: short ones by their tagged value, shared ones by their score_details number. */
  readonly #known = new Map<string, string>();
  readonly #shared = new Map<number, string>();

  constructor(
    private readonly db: SqlDriver,
    private readonly names: TrialNames,
    private readonly withDetails: boolean,
  ) {
    this.#sqlite = db.backend === 'sqlite';
    const tagged = db.dialect.tagged('detail');
    // A score_details number stays a number (read once per reader); any other detail is read tagged.
    const detail = withDetails
      ? this.#sqlite
        ? `, CASE typeof(detail) WHEN 'integer' THEN detail ELSE ${tagged} END`
        : `, ${tagged}`
      : '';
    this.#sql = this.#sqlite
      ? `SELECT trial_id, scorer_key, value${detail} FROM score_rows WHERE trial_id >= ? AND trial_id <= ? ORDER BY trial_id, rowid`
      : `SELECT trial_id, scorer, value${detail} FROM scores WHERE trial_id >= ? AND trial_id <= ?
         ORDER BY trial_id, ${db.dialect.insertionOrder}`;
  }

  /** The scores of trials `first` to `last` (those of other runs' trials in the range too). */
  async range(first: number, last: number): Promise<RangeScore[]> {
    const rows = await this.db.rows(this.#sql, [first, last]);
    if (this.#sqlite) await this.names.resolve(rows, [1]);
    if (this.withDetails) await this.#readShared(rows);
    const out: RangeScore[] = [];
    for (const r of rows)
      out.push({
        trialId: Number(r[0]),
        scorer: this.#sqlite ? this.names.name(r[1]) : (r[1] as string),
        value: r[2] as number,
        detail: this.withDetails ? this.#detail(r[3] as string | number) : '',
      });
    return out;
  }

  /** Read the shared details (score_details numbers) the rows name and are not known yet. */
  async #readShared(rows: readonly unknown[][]): Promise<void> {
    const missing = new Set<number>();
    for (const r of rows) if (typeof r[3] === 'number' && !this.#shared.has(r[3])) missing.add(r[3]);
    if (missing.size === 0) return;
    // Before a range's are read, never between: every number the range names stays known while it is read.
    if (this.#shared.size + missing.size > REMEMBERED_DETAILS) this.#shared.clear();
    const ids = [...missing];
    for (let i = 0; i < ids.length; i += 500) {
      const part = ids.slice(i, i + 500);
      const found = await this.db.rows(
        `SELECT id, ${this.db.dialect.tagged('body')} FROM score_details WHERE id IN (${part.map(() => '?').join(', ')})`,
        part,
      );
      for (const [id, body] of found) this.#shared.set(Number(id), this.db.codec.decode(untaggedValue(body)!));
    }
  }

  #detail(stored: string | number): string {
    if (typeof stored === 'number') {
      const shared = this.#shared.get(stored);
      if (shared === undefined) throw new MindscopeError(`score detail ${stored} is missing from the store's score_details`);
      return shared;
    }
    let text = this.#known.get(stored);
    if (text === undefined) {
      text = this.db.codec.decode(untaggedValue(stored)!);
      if (stored.length <= REMEMBERED_DETAIL_CHARS) {
        if (this.#known.size >= REMEMBERED_DETAILS) this.#known.clear();
        this.#known.set(stored, text);
      }
    }
    return text;
  }
}
