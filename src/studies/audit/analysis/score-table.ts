// A table of per-model benchmark scores (one row per model, one column per benchmark), the
// input of the benchmark-level audit (`mindscope audit --scores`). Columns may hold text (an
// `hf_id`, a family): only the columns an analysis names must be numeric, and scoreColumn says
// which cell of a named column is not a number.

import { ConfigError, InputError } from '../../../core/errors.js';
import { decimalNumber, parseCsv } from '../../../store/matrix/index.js';

export interface ScoreTable {
  models: string[];
  /** The numeric columns. */
  benchmarks: Record<string, number[]>;
  /** Columns with a cell that is not a number: the first such cell and its line. */
  textColumns?: Record<string, { value: string; line: number }>;
  /** The file the table came from, for error messages. */
  file?: string;
}

/** Read a table of benchmark scores per model (CSV: a model column and numeric benchmark columns); errors name the file, line and cell. */
export function parseScoreTable(text: string, file = '<scores>'): ScoreTable {
  const rows = parseCsv(text, file);
  if (rows.length < 2) throw new InputError('expected a header and at least one model row', file);
  const header = rows[0]!.fields.map((h) => h.trim());
  const modelCol = header.findIndex((h) => /^(model|subject|name)$/i.test(h));
  const nameCol = Math.max(modelCol, 0);
  const columns: Record<string, number[]> = {};
  const textColumns: Record<string, { value: string; line: number }> = {};
  header.forEach((h, j) => {
    if (j !== nameCol) columns[h] = [];
  });
  const models: string[] = [];
  const seen = new Set<string>();
  for (const r of rows.slice(1)) {
    if (r.fields.length !== header.length)
      throw new InputError(`row has ${r.fields.length} fields, the header has ${header.length}`, file, r.line);
    const model = r.fields[nameCol]!.trim();
    if (seen.has(model)) throw new InputError(`model "${model}" appears twice`, file, r.line);
    seen.add(model);
    models.push(model);
    header.forEach((h, j) => {
      if (j === nameCol) return;
      const cell = r.fields[j]!;
      const v = decimalNumber(cell.trim());
      if (cell.trim() === '' || !Number.isFinite(v)) textColumns[h] ??= { value: cell, line: r.line };
      columns[h]!.push(v);
    });
  }
  const benchmarks = Object.fromEntries(Object.entries(columns).filter(([h]) => !textColumns[h]));
  return { models, benchmarks, ...(Object.keys(textColumns).length ? { textColumns } : {}), file };
}

/** A named numeric column; an error naming the file, line and cell when it holds text, or the columns when it is absent. */
export function scoreColumn(table: ScoreTable, name: string): number[] {
  const bad = table.textColumns?.[name];
  if (bad) throw new InputError(`column "${name}": "${bad.value}" is not a number`, table.file, bad.line);
  const column = table.benchmarks[name];
  if (!column)
    throw new ConfigError(
      `no column "${name}" in the score table${table.file ? ` ${table.file}` : ''} (columns: ${[...Object.keys(table.benchmarks), ...Object.keys(table.textColumns ?? {})].join(', ')})`,
    );
  return column;
}
