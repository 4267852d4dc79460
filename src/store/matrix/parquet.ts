// The response matrix as Parquet, in the same wide layout as the CSV: string metadata columns,
// then one nullable DOUBLE column per subject. Long-layout Parquet files are read too.

import { readFileSync, writeFileSync } from 'node:fs';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { InputError, readParquetRows } from '../../core/index.js';
import { formatCsv } from '../../core/index.js';
import { MATRIX_META_COLUMNS, matrixFromCsv, type MatrixReadOptions, type ResponseMatrix } from './response-matrix.js';

/** A response matrix as Parquet bytes (wide layout). */
export function matrixToParquet(m: ResponseMatrix): ArrayBuffer {
  return parquetWriteBuffer({
    columnData: [
      { name: 'suite', data: m.items.map((i) => i.suite), type: 'STRING' },
      { name: 'item_id', data: m.items.map((i) => i.itemId), type: 'STRING' },
      { name: 'category', data: m.items.map((i) => i.category), type: 'STRING' },
      { name: 'original_label', data: m.items.map((i) => i.originalLabel), type: 'STRING' },
      ...m.subjects.map((s, si) => ({ name: s, data: m.cells.map((row) => row[si]), type: 'DOUBLE' as const })),
    ],
  });
}

/** Write a response matrix to a Parquet file (wide layout). */
export function writeMatrixParquet(path: string, m: ResponseMatrix): void {
  writeFileSync(path, Buffer.from(matrixToParquet(m)));
}

/**
 * Read a Parquet matrix. Its rows go through the CSV reader's validation, so both formats give
 * the same errors (row numbers count from 2, as the header would be line 1).
 */
export async function readMatrixParquet(path: string, opts: MatrixReadOptions = {}): Promise<ResponseMatrix> {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch (err) {
    throw new InputError(`cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, path);
  }
  const file = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  let rows: Array<Record<string, unknown>>;
  try {
    rows = await readParquetRows(file);
  } catch (err) {
    throw new InputError(`not a readable Parquet file: ${(err as Error).message}`, path);
  }
  if (rows.length === 0) throw new InputError('no rows', path);
  const header = Object.keys(rows[0]!);
  const ordered = [
    ...MATRIX_META_COLUMNS.filter((c) => header.includes(c)),
    ...header.filter((h) => !(MATRIX_META_COLUMNS as readonly string[]).includes(h)),
  ];
  const text = formatCsv(
    ordered,
    rows.map((r) =>
      ordered.map((h) =>
        r[h] === null || r[h] === undefined ? null : typeof r[h] === 'bigint' ? Number(r[h]) : (r[h] as string | number),
      ),
    ),
  );
  return matrixFromCsv(text, path, opts);
}
