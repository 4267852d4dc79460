// Queries for browsing a run's trials one page at a time (the viewer): filters, free-text
// search over prompts and replies, sorting, counts and the values each filter can take. Written
// once in SQL for both backends; pages are read by keyset (a cursor holds the sort values of
// the row a page starts after or ends before, ties broken by trial id), so the page after
// row 50,000 costs what the first one does and a run of 100,000 trials is never read whole. A trial's own score is its protocol's, the first score it got;
// judge panels' scores come later (`mindscope score`).

import { MindscopeError } from '../../core/errors.js';
import type { TrialKey } from '../../core/index.js';
import type { TrialStatus } from '../store.js';
import type { SqlDriver } from './driver.js';
import { pgJson } from './pg-json.js';
import { pgBlockTextLike, pgBlockTextValues, pgBlockTextWhere } from './pg-text-blocks.js';

/** Columns a trial list can be sorted by. */
export type TrialSort = 'order' | 'item' | 'subject' | 'score' | 'latency' | 'cost' | 'finished';

/** PostgreSQL: the blocks of a run's items (one parameter: the run id). */
const PG_RUN_ITEM_BLOCKS = 'SELECT ir.block FROM items ir WHERE ir.id IN (SELECT item_ref FROM trials WHERE run_id = ?)';

export interface TrialQuery {
  runId: string;
  subjectId?: string;
  suite?: string;
  category?: string;
  /** The item's label in its source benchmark (`meta.originalLabel`). */
  originalLabel?: string;
  /** correct: the trial's score is 1 (or more); incorrect: below 1; failed: the trial failed after its retries. */
  outcome?: 'correct' | 'incorrect' | 'failed';
  parseFailed?: boolean;
  /** Trials a judge panel scored whose judges gave different values. */
  judgeDisagreement?: boolean;
  replicate?: number;
  /** Case-insensitive text searched in the transcript (messages sent, replies) and the item. */
  search?: string;
  sort?: TrialSort;
  descending?: boolean;
  /** A cursor (TrialPageRows.next): the page of rows after the row it was taken from. */
  after?: string;
  /** A cursor (TrialPageRows.prev): the page of rows before the row it was taken from. */
  before?: string;
  limit?: number;
}

/** One page of a trial list, with the cursors of the pages beside it (null: none). */
export interface TrialPageRows {
  rows: TrialListRow[];
  /** The query's `after` for the next page. */
  next: string | null;
  /** The query's `before` for the previous page. */
  prev: string | null;
}

/** One row of a trial list. */
export interface TrialListRow extends TrialKey {
  spec: string;
  /** The content hash of the item the trial was made with. */
  itemHash: string;
  status: TrialStatus;
  category: string | null;
  originalLabel: string | null;
  /** The protocol's score; null for a failed trial. */
  score: number | null;
  parseFailed: boolean;
  /** How many scores the trial has (1 + the judge panels that scored it). */
  scorers: number;
  /** A judge panel scored it and its judges gave different values. */
  judgesDisagree: boolean;
  error: string | null;
  latencyMs: number;
  /** The wait of the trial's batch-answered calls, submission to collection (0: none was): not latency. */
  batchLatencyMs: number;
  costUsd: number;
  finishedAt: string;
}

/** The values each filter can take in a run. */
export interface TrialFacets {
  subjects: Array<{ id: string; spec: string }>;
  suites: string[];
  categories: string[];
  originalLabels: string[];
  replicates: number[];
}

/** A run's trial counts and the time its first and last trials finished. */
export interface RunActivity {
  trials: number;
  done: number;
  failed: number;
  firstFinishedAt: string | null;
  lastFinishedAt: string | null;
}

/** Sort columns; text columns (compared byte by byte in both databases) are marked. */
const TEXT_COLUMNS = new Set(['t.suite', 't.item_id', 's.spec', 't.finished_at']);
/** Sort columns; each list ends with the trial id, so that every row has a place of its own (a cursor). */
const ORDER: Record<TrialSort, string[]> = {
  order: ['t.id'],
  item: ['t.suite', 't.item_id', 't.replicate', 's.spec', 't.id'],
  subject: ['s.spec', 't.suite', 't.item_id', 't.replicate', 't.id'],
  score: ['score', 't.id'],
  latency: ['t.latency_ms', 't.id'],
  cost: ['t.cost_usd', 't.id'],
  finished: ['t.finished_at', 't.id'],
};

/**
 * A failed trial's score in the sort (it has none): below every score, where SQLite puts a
 * NULL ascending; a value, not a NULL, so that a cursor compares with it in both databases.
 */
const NO_SCORE = -1e300;

/** A cursor: the sort values of a row, the trial id last (base64url JSON). */
function encodeCursor(values: ReadonlyArray<string | number>): string {
  return Buffer.from(JSON.stringify(values)).toString('base64url');
}

function decodeCursor(cursor: string, columns: number, name: string): Array<string | number> {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    values = undefined;
  }
  if (
    !Array.isArray(values) ||
    values.length !== columns ||
    !values.every((v) => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)))
  )
    throw new MindscopeError(`?${name}=${cursor}: not a cursor of this list (take it from the page's next or prev)`);
  return values as Array<string | number>;
}

/** `%text%` for LIKE, with the wildcards in the text itself escaped. */
const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Browse the trials of a store's runs (from SqlStore.browser()). */
export class TrialBrowser {
  constructor(private readonly db: SqlDriver) {}

  /** A JSON text field (a path of keys) as text, in either dialect. */
  #jsonText(column: string, ...path: string[]): string {
    if (this.db.backend === 'sqlite') return `json_extract(${column}, '$.${path.join('.')}')`;
    const last = path[path.length - 1]!;
    return `(${pgJson(column)}${path
      .slice(0, -1)
      .map((p) => ` -> '${p}'`)
      .join('')} ->> '${last}')`;
  }

  /** The trial's own (first) score, as a scalar subquery on `t`. */
  #firstScore(column: 'value' | 'detail'): string {
    const value = column === 'detail' ? this.db.dialect.text('s1.detail') : 's1.value';
    return `(SELECT ${value} FROM scores s1 WHERE s1.trial_id = t.id ORDER BY s1.${this.db.dialect.insertionOrder} LIMIT 1)`;
  }

  /** Whether some judge panel on trial `t` has judges whose values differ (a panel's detail lists `judges`, each with `values`). */
  #judgesDisagree(): string {
    const distinctValues =
      this.db.backend === 'sqlite'
        ? `(SELECT COUNT(DISTINCT json_extract(j.value, '$.values')) FROM json_each(${this.db.dialect.text('sj.detail')}, '$.judges') j)`
        : `(SELECT COUNT(DISTINCT (j ->> 'values')) FROM json_array_elements(CASE WHEN json_typeof(${pgJson('sj.detail')} -> 'judges') = 'array' THEN ${pgJson('sj.detail')} -> 'judges' END) j)`;
    return `EXISTS (SELECT 1 FROM scores sj WHERE sj.trial_id = t.id AND ${distinctValues} > 1)`;
  }

  /**
   * Trial `t`'s item is one of the run's items matching `condition` (on `ib`, one parameter: the
   * run id, then the condition's): each item's body is read once, not once per trial (SQLite
   * inflates it).
   */
  #runItemsWhere(condition: string): string {
    return `t.item_ref IN (SELECT ib.id FROM items ib WHERE ib.id IN (SELECT item_ref FROM trials WHERE run_id = ?) AND ${condition})`;
  }

  #where(q: TrialQuery): { sql: string; params: unknown[] } {
    const clauses = ['t.run_id = ?'];
    const params: unknown[] = [q.runId];
    const add = (sql: string, ...values: unknown[]) => {
      clauses.push(sql);
      params.push(...values);
    };
    if (q.subjectId !== undefined) add('t.subject_id = ?', q.subjectId);
    if (q.suite !== undefined) add('t.suite = ?', q.suite);
    if (q.category !== undefined) add('i.category = ?', q.category);
    if (q.originalLabel !== undefined) {
      // PostgreSQL: item bodies kept in blocks read a block at a time (pg-text-blocks.ts).
      if (this.db.backend === 'postgres')
        add(
          this.#runItemsWhere(pgBlockTextWhere('ib', PG_RUN_ITEM_BLOCKS, (t) => `${this.#jsonText(t, 'meta', 'originalLabel')} = ?`)),
          q.runId,
          q.originalLabel,
          q.runId,
          q.originalLabel,
        );
      else
        add(
          this.#runItemsWhere(`${this.#jsonText(this.db.dialect.itemBody('ib.body'), 'meta', 'originalLabel')} = ?`),
          q.runId,
          q.originalLabel,
        );
    }
    if (q.replicate !== undefined) add('t.replicate = ?', q.replicate);
    if (q.outcome === 'failed') add(`t.status = 'failed'`);
    if (q.outcome === 'correct') add(`t.status = 'done' AND ${this.#firstScore('value')} >= 1`);
    if (q.outcome === 'incorrect') add(`t.status = 'done' AND ${this.#firstScore('value')} < 1`);
    if (q.parseFailed !== undefined) {
      const flag = this.#jsonText(this.#firstScore('detail'), 'parseFailed');
      const isTrue = this.db.backend === 'sqlite' ? `${flag} = 1` : `${flag} = 'true'`;
      add(q.parseFailed ? `t.status = 'done' AND ${isTrue}` : `t.status = 'done' AND NOT COALESCE(${isTrue}, FALSE)`);
    }
    if (q.judgeDisagreement !== undefined) add(q.judgeDisagreement ? this.#judgesDisagree() : `NOT ${this.#judgesDisagree()}`);
    if (q.search?.trim()) {
      const p = likePattern(q.search.trim());
      // PostgreSQL: transcripts and item bodies kept in blocks searched a block at a time (each parsed once), the run's.
      const pg = this.db.backend === 'postgres';
      const [transcriptLike, ...transcriptParams] = pg
        ? [
            pgBlockTextLike('tr', 'SELECT tb.block FROM trials tt JOIN transcripts tb ON tb.trial_id = tt.id WHERE tt.run_id = ?'),
            p,
            q.runId,
            p,
          ]
        : [`LOWER(COALESCE(${this.db.dialect.text('tr.body')}, '')) LIKE ? ESCAPE '\\'`, p];
      const [itemLike, ...itemParams] = pg
        ? [pgBlockTextLike('ib', PG_RUN_ITEM_BLOCKS), p, q.runId, p]
        : [`LOWER(${this.db.dialect.itemBody('ib.body')}) LIKE ? ESCAPE '\\'`, p];
      add(
        `(${transcriptLike} OR ${this.#runItemsWhere(itemLike)} OR LOWER(COALESCE(t.error, '')) LIKE ? ESCAPE '\\')`,
        ...transcriptParams,
        q.runId,
        ...itemParams,
        p,
      );
    }
    return { sql: clauses.join(' AND '), params };
  }

  static readonly #FROM = `FROM trials t JOIN subjects s ON s.id = t.subject_id LEFT JOIN items i ON i.id = t.item_ref
    LEFT JOIN transcripts tr ON tr.trial_id = t.id`;

  /** One page of a run's trials matching the query (sorted, after or before a cursor, at most `limit`, default 50). */
  async list(q: TrialQuery): Promise<TrialListRow[]> {
    return (await this.page(q)).rows;
  }

  /** One page of a run's trials matching the query, with the cursors of the pages after and before it. */
  async page(q: TrialQuery): Promise<TrialPageRows> {
    const { sql, params } = this.#where(q);
    const { bytewise } = this.db.dialect;
    const sort = q.sort ?? 'order';
    const limit = Math.max(1, Math.min(q.limit ?? 50, 1000));
    if (q.after !== undefined && q.before !== undefined) throw new MindscopeError('?after and ?before: give one of them');
    // Going back reads the rows before the cursor in the opposite order, then turns them round.
    const backwards = q.before !== undefined;
    const ascending = !q.descending !== backwards;
    const columns = ORDER[sort].map((c) => (c === 'score' ? `COALESCE(${this.#firstScore('value')}, ${NO_SCORE})` : c));
    const sortable = columns.map((c) => (TEXT_COLUMNS.has(c) ? bytewise(c) : c));
    const order = sortable.map((c) => `${c} ${ascending ? 'ASC' : 'DESC'}`);
    const where = [sql];
    const keyParams: unknown[] = [];
    const cursor = q.after ?? q.before;
    if (cursor !== undefined) {
      // (a, b, id) past the cursor's (x, y, z): a > x OR (a = x AND (b > y OR (b = y AND id > z))).
      const values = decodeCursor(cursor, columns.length, backwards ? 'before' : 'after');
      const past = ascending ? '>' : '<';
      let clause = '';
      for (let i = sortable.length - 1; i >= 0; i--) {
        const beyond = `${sortable[i]} ${past} ?`;
        clause = clause ? `(${beyond} OR (${sortable[i]} = ? AND ${clause}))` : beyond;
      }
      // Parameters in the order the clause reads them: a, a, b, b, ..., id.
      for (let i = 0; i < values.length; i++) keyParams.push(...(i < values.length - 1 ? [values[i], values[i]] : [values[i]]));
      where.push(clause);
    }
    // The page's ids first (only the columns the filter and sort need), then the rows' columns
    // for those ids alone. One row more than the page tells whether another page follows.
    const needsItems = q.category !== undefined;
    const from = [
      'FROM trials t',
      sort === 'item' || sort === 'subject' ? 'JOIN subjects s ON s.id = t.subject_id' : '',
      needsItems ? 'LEFT JOIN items i ON i.id = t.item_ref' : '',
      q.search?.trim() ? 'LEFT JOIN transcripts tr ON tr.trial_id = t.id' : '',
    ].join(' ');
    const ids = `SELECT ${columns.map((c, i) => `${c} AS k${i}`).join(', ')} ${from} WHERE ${where.join(' AND ')}
      ORDER BY ${order.join(', ')} LIMIT ?`;
    const keyed = await this.db.all<Record<string, string | number>>(ids, [...params, ...keyParams, limit + 1]);
    const more = keyed.length > limit;
    const shown = keyed.slice(0, limit);
    if (backwards) shown.reverse();
    const cursorOf = (r: Record<string, string | number> | undefined) => (r ? encodeCursor(columns.map((_, i) => r[`k${i}`]!)) : null);
    const next = backwards ? cursorOf(shown.at(-1)) : more ? cursorOf(shown.at(-1)) : null;
    const prev = backwards ? (more ? cursorOf(shown[0]) : null) : cursor !== undefined ? cursorOf(shown[0]) : null;
    const page = shown.map((r) => Number(r[`k${columns.length - 1}`]));
    return { rows: await this.#rows(page), next, prev };
  }

  /** The list rows of trials by id, in the order given. */
  async #rows(page: number[]): Promise<TrialListRow[]> {
    if (!page.length) return [];
    const rows = await this.db.all<
      Omit<TrialListRow, 'parseFailed' | 'judgesDisagree'> & { parseFailed: unknown; judgesDisagree: unknown; id: number }
    >(
      `SELECT t.id AS id, t.run_id AS "runId", t.subject_id AS "subjectId", s.spec AS spec, t.suite AS suite, t.item_id AS "itemId",
         t.replicate AS replicate, t.item_hash AS "itemHash", t.status AS status, i.category AS category,
         ${this.#jsonText(this.db.dialect.itemBody('i.body'), 'meta', 'originalLabel')} AS "originalLabel",
         ${this.#firstScore('value')} AS score, ${this.#jsonText(this.#firstScore('detail'), 'parseFailed')} AS "parseFailed",
         (SELECT COUNT(*) FROM scores s3 WHERE s3.trial_id = t.id) AS scorers,
         CASE WHEN ${this.#judgesDisagree()} THEN 1 ELSE 0 END AS "judgesDisagree",
         t.error AS error, t.latency_ms AS "latencyMs", t.batch_latency_ms AS "batchLatencyMs", t.cost_usd AS "costUsd",
         t.finished_at AS "finishedAt"
       FROM trials t JOIN subjects s ON s.id = t.subject_id LEFT JOIN items i ON i.id = t.item_ref
       WHERE t.id IN (${page.map(() => '?').join(', ')})`,
      page,
    );
    const byId = new Map(rows.map(({ id, ...r }) => [Number(id), r]));
    return page.flatMap((id) => {
      const r = byId.get(id);
      if (!r) return [];
      return [
        {
          ...r,
          scorers: Number(r.scorers),
          judgesDisagree: Number(r.judgesDisagree) === 1,
          parseFailed: r.parseFailed === 1 || r.parseFailed === 'true' || r.parseFailed === true,
        },
      ];
    });
  }

  /** How many of a run's trials match the query (its filters and search; sort and page ignored). */
  async count(q: TrialQuery): Promise<number> {
    const { sql, params } = this.#where(q);
    // The transcript join only when searching: counting 100,000 rows should not touch their bodies.
    const from = q.search?.trim() ? TrialBrowser.#FROM : 'FROM trials t LEFT JOIN items i ON i.id = t.item_ref';
    const row = await this.db.get<{ n: number }>(`SELECT COUNT(*) AS n ${from} WHERE ${sql}`, params);
    return Number(row?.n ?? 0);
  }

  /** The values each filter can take in a run (subjects, suites, categories, original labels, replicates). */
  async facets(runId: string): Promise<TrialFacets> {
    const { bytewise } = this.db.dialect;
    const distinct = async (expr: string) =>
      (
        await this.db.all<{ v: string | number | null }>(`SELECT DISTINCT ${expr} AS v FROM trials t WHERE t.run_id = ? ORDER BY v`, [
          runId,
        ])
      )
        .map((r) => r.v)
        .filter((v): v is string | number => v !== null);
    // Item columns from the run's distinct items, not from every trial (an item has many trials).
    const itemsOf = async (expr: string) =>
      (
        await this.db.all<{ v: string | null }>(
          `SELECT DISTINCT ${expr} AS v FROM items i WHERE i.id IN (SELECT DISTINCT item_ref FROM trials WHERE run_id = ?) ORDER BY v`,
          [runId],
        )
      )
        .map((r) => r.v)
        .filter((v): v is string => v !== null);
    return {
      subjects: await this.db.all<{ id: string; spec: string }>(
        // Sorted outside the DISTINCT: PostgreSQL refuses an ORDER BY expression (a collation) not in its select list.
        `SELECT id, spec FROM (SELECT DISTINCT s.id AS id, s.spec AS spec FROM run_plan p JOIN subjects s ON s.id = p.subject_id WHERE p.run_id = ?) d
         ORDER BY ${bytewise('spec')}`,
        [runId],
      ),
      suites: (
        await this.db.all<{ suite: string }>(
          `SELECT suite FROM (SELECT DISTINCT suite FROM run_plan WHERE run_id = ?) d ORDER BY ${bytewise('suite')}`,
          [runId],
        )
      ).map((r) => r.suite),
      categories: (await itemsOf('i.category')).map(String),
      originalLabels: (this.db.backend === 'postgres'
        ? await this.#pgOriginalLabels(runId)
        : await itemsOf(this.#jsonText(this.db.dialect.itemBody('i.body'), 'meta', 'originalLabel'))
      ).map(String),
      replicates: (await distinct('t.replicate')).map(Number),
    };
  }

  /** PostgreSQL: the original labels of a run's items, their bodies read a block at a time (pg-text-blocks.ts). */
  async #pgOriginalLabels(runId: string): Promise<string[]> {
    const ids = 'SELECT DISTINCT item_ref FROM trials WHERE run_id = ?';
    const rows = await this.db.all<{ v: string | null }>(
      `SELECT DISTINCT v FROM (${pgBlockTextValues('items', ids, (t) => this.#jsonText(t, 'meta', 'originalLabel'))}) x ORDER BY v`,
      [runId, runId, runId],
    );
    return rows.map((r) => r.v).filter((v): v is string => v !== null);
  }

  /** A run's trial counts and the times its first and last trials finished. */
  async activity(runId: string): Promise<RunActivity> {
    const row = await this.db.get<RunActivity>(
      `SELECT COUNT(*) AS trials, COALESCE(SUM(CASE WHEN status = 'done' THEN 1 ELSE 0 END), 0) AS done,
         COALESCE(SUM(CASE WHEN status = 'failed' THEN 1 ELSE 0 END), 0) AS failed,
         MIN(finished_at) AS "firstFinishedAt", MAX(finished_at) AS "lastFinishedAt" FROM trials WHERE run_id = ?`,
      [runId],
    );
    return {
      trials: Number(row?.trials ?? 0),
      done: Number(row?.done ?? 0),
      failed: Number(row?.failed ?? 0),
      firstFinishedAt: row?.firstFinishedAt ?? null,
      lastFinishedAt: row?.lastFinishedAt ?? null,
    };
  }

  /** A value that changes when trials are recorded (or a failed one done) or runs are added: the viewer polls it. */
  async changeStamp(): Promise<string> {
    const row = await this.db.get<{ n: number; done: number; last: number | null; runs: number }>(
      `SELECT COUNT(*) AS n, COALESCE(SUM(CASE WHEN status = 'done' THEN 1 ELSE 0 END), 0) AS done, MAX(id) AS last,
         (SELECT COUNT(*) FROM runs) AS runs FROM trials`,
    );
    return `${row?.runs ?? 0}:${row?.n ?? 0}:${row?.done ?? 0}:${row?.last ?? 0}`;
  }

  /** Every score a trial has (the protocol's first, then judge panels'), with details as stored JSON. */
  async scores(k: TrialKey): Promise<Array<{ scorer: string; value: number; detail: unknown }>> {
    const rows = await this.db.all<{ scorer: string; value: number; detail: string | Uint8Array }>(
      `SELECT sc.scorer AS scorer, sc.value AS value, sc.detail AS detail FROM trials t JOIN scores sc ON sc.trial_id = t.id
       WHERE t.run_id = ? AND t.subject_id = ? AND t.suite = ? AND t.item_id = ? AND t.replicate = ?
       ORDER BY sc.${this.db.dialect.insertionOrder}`,
      [k.runId, k.subjectId, k.suite, k.itemId, k.replicate],
    );
    return rows.map((r) => ({ scorer: r.scorer, value: r.value, detail: JSON.parse(this.db.codec.decode(r.detail)) }));
  }

  /** A trial's stored row: status, error, attempts, item hash, usage. */
  async trial(k: TrialKey): Promise<
    | {
        itemHash: string;
        status: TrialStatus;
        error: string | null;
        attempts: number;
        inputTokens: number;
        outputTokens: number;
        costUsd: number;
        latencyMs: number;
        batchLatencyMs: number;
        finishedAt: string;
      }
    | undefined
  > {
    return this.db.get(
      `SELECT item_hash AS "itemHash", status, error, attempts, input_tokens AS "inputTokens", output_tokens AS "outputTokens",
         cost_usd AS "costUsd", latency_ms AS "latencyMs", batch_latency_ms AS "batchLatencyMs", finished_at AS "finishedAt"
       FROM trials WHERE run_id = ? AND subject_id = ? AND suite = ? AND item_id = ? AND replicate = ?`,
      [k.runId, k.subjectId, k.suite, k.itemId, k.replicate],
    );
  }
}
