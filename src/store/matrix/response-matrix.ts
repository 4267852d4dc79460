// The response matrix: subjects x items of 1 / 0 / blank with item metadata, the input of every
// psychometric analysis. Files hold one row per item, the metadata columns first
// (suite, item_id, category, original_label) and then one column per subject; a cell is the
// subject's score on the item (the mean over replicates when a run has several), blank when
// the subject has no scored trial on it. The long layout (one row per subject and item) is
// read too.

import { writeFileSync } from 'node:fs';
import { InputError } from '../../core/errors.js';
import { decimalNumber } from '../../core/decimal-number.js';
import { isCategory } from '../../core/categories.js';
import { readText } from '../../core/files.js';
import type { ResponseRow } from '../store.js';
import { forEachCsvRow, formatCsv } from '../../core/csv.js';

export interface MatrixItem {
  suite: string;
  itemId: string;
  category: string;
  originalLabel: string;
}

export interface ResponseMatrix {
  subjects: string[];
  items: MatrixItem[];
  /** cells[item][subject]: a score in [0, 1], or null when missing. */
  cells: Array<Array<number | null>>;
}

export const MATRIX_META_COLUMNS = ['suite', 'item_id', 'category', 'original_label'] as const;

/** Builds a matrix one scored row at a time; `replicate` picks one replicate, otherwise replicates are averaged. */
class MatrixBuilder {
  readonly #subjectIndex = new Map<string, number>();
  readonly #itemIndex = new Map<string, number>();
  readonly #items: MatrixItem[] = [];
  readonly #sums: Array<Map<number, { sum: number; n: number }>> = [];

  constructor(private readonly replicate: number | undefined) {}

  add(r: ResponseRow): void {
    if (this.replicate !== undefined && r.replicate !== this.replicate) return;
    if (!this.#subjectIndex.has(r.spec)) this.#subjectIndex.set(r.spec, this.#subjectIndex.size);
    const key = `${r.suite}\u0000${r.itemId}`;
    let ii = this.#itemIndex.get(key);
    if (ii === undefined) {
      ii = this.#items.length;
      this.#itemIndex.set(key, ii);
      this.#items.push({
        suite: r.suite,
        itemId: r.itemId,
        category: r.category,
        originalLabel: String(r.meta.originalLabel ?? r.ability ?? ''),
      });
      this.#sums.push(new Map());
    }
    const si = this.#subjectIndex.get(r.spec)!;
    const sums = this.#sums[ii]!;
    const cell = sums.get(si) ?? { sum: 0, n: 0 };
    cell.sum += r.value;
    cell.n += 1;
    sums.set(si, cell);
  }

  matrix(): ResponseMatrix {
    const subjects = [...this.#subjectIndex.keys()];
    const cells = this.#sums.map((m) =>
      subjects.map((_, si) => {
        const c = m.get(si);
        return c ? c.sum / c.n : null;
      }),
    );
    return { subjects, items: this.#items, cells };
  }
}

/** Build a matrix from scored rows; `replicate` picks one replicate, otherwise replicates are averaged. */
export function buildMatrix(rows: Iterable<ResponseRow>, opts: { replicate?: number } = {}): ResponseMatrix {
  const b = new MatrixBuilder(opts.replicate);
  for (const r of rows) b.add(r);
  return b.matrix();
}

/** Build a matrix from a stream of scored rows (a store's `responses`), without holding the rows. */
export async function buildMatrixFrom(rows: AsyncIterable<ResponseRow>, opts: { replicate?: number } = {}): Promise<ResponseMatrix> {
  const b = new MatrixBuilder(opts.replicate);
  for await (const r of rows) b.add(r);
  return b.matrix();
}

/** A response matrix as CSV text (wide layout). */
export function matrixToCsv(m: ResponseMatrix): string {
  const header = [...MATRIX_META_COLUMNS, ...m.subjects];
  const rows = m.items.map((it, i) => [it.suite, it.itemId, it.category, it.originalLabel, ...m.cells[i]!]);
  return formatCsv(header, rows);
}

const SCORE_FORMS = 'expected 1, 0, a decimal such as 0.5, true/false, or blank/NA';

function parseCell(raw: string, file: string, line: number, column: string): number | null {
  if (raw === '1') return 1; // the common cells, without further checks
  if (raw === '0') return 0;
  const v = raw.trim();
  if (v === '') return null;
  const refuse = (why: string) => new InputError(`column "${column}": "${raw}" is not a score in [0, 1] (${why})`, file, line);
  // A cell is read as written: " 1 " or "0x1" is a mistake in the file, not a 1.
  if (v !== raw) throw refuse(`spaces around the value; ${SCORE_FORMS}`);
  const lower = v.toLowerCase();
  if (lower === 'na' || lower === 'nan') return null;
  // Boolean columns (pandas writes True/False) are correctness too.
  if (lower === 'true') return 1;
  if (lower === 'false') return 0;
  const n = decimalNumber(v);
  if (Number.isNaN(n)) throw refuse(`not a decimal number; ${SCORE_FORMS}`);
  if (!(n >= 0 && n <= 1)) throw refuse(SCORE_FORMS);
  return n;
}

function checkCategory(category: string, file: string, line: number): string {
  if (!isCategory(category)) throw new InputError(`unknown category "${category}"`, file, line);
  return category;
}

export interface MatrixReadOptions {
  /**
   * Accept any category label instead of the ToM categories (general-ability control
   * benchmarks carry their own, or none: 'general' when the column is absent).
   */
  anyCategory?: boolean;
}

/** Read a matrix from CSV text, wide (one column per subject) or long (subject and correct columns). */
export function matrixFromCsv(text: string, file = '<csv>', opts: MatrixReadOptions = {}): ResponseMatrix {
  // Row by row as the text is parsed: only the matrix stays, not the file's rows. The first
  // problem in the file's order is the one reported (the header's before any row's).
  let header: string[] | undefined;
  let layout: MatrixLayout | undefined;
  forEachCsvRow(
    text,
    (fields, line) => {
      if (!header) {
        header = fields.map((h) => h.trim());
        layout = matrixLayout(header, line, file, opts);
        return;
      }
      if (fields.length !== header.length)
        throw new InputError(`row has ${fields.length} fields, the header has ${header.length}`, file, line);
      layout!.add(fields, line);
    },
    file,
  );
  if (!layout) throw new InputError('empty file', file);
  return layout.matrix;
}

/** The reader of a file's data rows, chosen by its header: wide or long layout. */
interface MatrixLayout {
  add(fields: string[], line: number): void;
  readonly matrix: ResponseMatrix;
}

function matrixLayout(header: string[], headerLine: number, file: string, opts: MatrixReadOptions): MatrixLayout {
  const col = (name: string) => header.indexOf(name);
  const itemCol = col('item_id') >= 0 ? col('item_id') : col('item');
  if (itemCol < 0) throw new InputError('no item_id column', file, headerLine);
  const suiteCol = col('suite');
  const catCol = col('category');
  const labelCol = col('original_label');
  const valueCol = col('correct') >= 0 ? col('correct') : col('value');
  // Suites, categories and labels repeat from row to row: each kept once, not once an item.
  const known = new Map<string, string>();
  const shared = (v: string): string => {
    let s = known.get(v);
    if (s === undefined && known.size < 10_000) known.set(v, (s = v));
    return s ?? v;
  };
  const itemIdOf = (fields: string[], line: number): string => {
    const id = fields[itemCol]!;
    if (id.trim() === '') throw new InputError(`column "${header[itemCol]}" is empty`, file, line);
    return id;
  };
  const itemOf = (fields: string[], line: number): MatrixItem => ({
    suite: suiteCol >= 0 ? shared(fields[suiteCol]!) : 'unknown',
    itemId: itemIdOf(fields, line),
    category: opts.anyCategory
      ? catCol >= 0
        ? shared(fields[catCol]!)
        : 'general'
      : catCol >= 0
        ? checkCategory(shared(fields[catCol]!), file, line)
        : 'belief',
    originalLabel: labelCol >= 0 ? shared(fields[labelCol]!) : '',
  });
  const subjectCol = col('subject');
  if (subjectCol >= 0 && valueCol >= 0) {
    // Long layout.
    const subjectIndex = new Map<string, number>();
    const itemIndex = new Map<string, number>();
    const items: MatrixItem[] = [];
    const cells: Array<Array<number | null>> = [];
    const seen = new Set<string>();
    return {
      add(fields, line) {
        const it = itemOf(fields, line);
        const subject = fields[subjectCol]!;
        if (subject.trim() === '') throw new InputError(`column "${header[subjectCol]}" is empty`, file, line);
        const key = `${it.suite}\u0000${it.itemId}`;
        if (seen.has(`${key}\u0000${subject}`))
          throw new InputError(`subject "${subject}" has a second row for item ${it.itemId}`, file, line);
        seen.add(`${key}\u0000${subject}`);
        if (!subjectIndex.has(subject)) {
          subjectIndex.set(subject, subjectIndex.size);
          cells.forEach((c) => c.push(null));
        }
        let ii = itemIndex.get(key);
        if (ii === undefined) {
          ii = items.length;
          itemIndex.set(key, ii);
          items.push(it);
          cells.push(new Array(subjectIndex.size).fill(null));
        }
        cells[ii]![subjectIndex.get(subject)!] = parseCell(fields[valueCol]!, file, line, header[valueCol]!);
      },
      get matrix() {
        return { subjects: [...subjectIndex.keys()], items, cells };
      },
    };
  }
  const meta = new Set<string>([...MATRIX_META_COLUMNS, 'item']);
  const subjectCols = header.map((h, i) => ({ h, i })).filter(({ h }) => !meta.has(h));
  if (subjectCols.length === 0) throw new InputError('no subject columns after the item metadata', file, headerLine);
  const named = new Set<string>();
  for (const { h, i } of subjectCols) {
    if (h === '') throw new InputError(`column ${i + 1} of the header has no name`, file, headerLine);
    if (named.has(h)) throw new InputError(`subject column "${h}" appears twice in the header`, file, headerLine);
    named.add(h);
  }
  const items: MatrixItem[] = [];
  const cells: Array<Array<number | null>> = [];
  // An item's row, by suite and id: a second row would count the item twice.
  const firstLine = new Map<string, number>();
  return {
    add(fields, line) {
      const it = itemOf(fields, line);
      const key = `${it.suite}\u0000${it.itemId}`;
      const first = firstLine.get(key);
      if (first !== undefined)
        throw new InputError(
          `item ${it.itemId}${suiteCol >= 0 ? ` of suite ${it.suite}` : ''} has a second row (the first is line ${first})`,
          file,
          line,
        );
      firstLine.set(key, line);
      items.push(it);
      cells.push(subjectCols.map(({ h, i }) => parseCell(fields[i]!, file, line, h)));
    },
    matrix: { subjects: subjectCols.map((c) => c.h), items, cells },
  };
}

/** Write a response matrix to a CSV file (wide layout: one row per item, one column per subject). */
export function writeMatrixCsv(path: string, m: ResponseMatrix): void {
  writeFileSync(path, matrixToCsv(m));
}

/** Read a response matrix from CSV (wide or long layout); errors name the file, line and column. */
export function readMatrixCsv(path: string, opts: MatrixReadOptions = {}): ResponseMatrix {
  return matrixFromCsv(readText(path), path, opts);
}
