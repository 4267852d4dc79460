// A trial's key in SQL (its five columns, their WHERE clause and parameters) and multi-row
// VALUES lists: shared by the store's trial writes, leases and queries.

import type { TrialKey } from '../../core/index.js';

export const KEY_COLUMNS = 'run_id, subject_id, suite, item_id, replicate';
export const KEY_WHERE = 'run_id = ? AND subject_id = ? AND suite = ? AND item_id = ? AND replicate = ?';
export const keyParams = (k: TrialKey): unknown[] => [k.runId, k.subjectId, k.suite, k.itemId, k.replicate];

/** `(?, ?, ...), (?, ?, ...)` for `rows` rows of `width` values. */
export const valuesList = (rows: number, width: number, row = `(${Array(width).fill('?').join(', ')})`): string =>
  Array(rows).fill(row).join(', ');
