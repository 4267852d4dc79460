// A generic multiple-choice loader for JSON lines, JSON lists, CSV and Parquet, with a field
// mapping. A benchmark released in such files is this loader with the benchmark's field map.

import { extname } from 'node:path';
import { readFileSync } from 'node:fs';
import type { McqFieldMap } from '../core/index.js';
import { InputError, isCategory, readParquetRows } from '../core/index.js';
import { parseCsv } from '../core/index.js';
import { mcqItem, type LoadResult } from './read-input.js';
import { readJson, readJsonLines, readText } from '../core/index.js';

type Row = { line: number; value: Record<string, unknown> };

/** The records of a JSONL, JSON, CSV or Parquet file, each with its line (or row) number. */
export async function readRecords(file: string): Promise<Row[]> {
  const ext = extname(file).toLowerCase();
  if (ext === '.jsonl' || ext === '.ndjson') return readJsonLines(file);
  if (ext === '.json') {
    const data = readJson(file);
    if (!Array.isArray(data)) throw new InputError('expected a JSON list of records', file);
    return data.map((value, i) => {
      // `line` is the record's place in the list (a JSON file's lines do not delimit its records).
      if (!value || typeof value !== 'object' || Array.isArray(value))
        throw new InputError(`record ${i + 1} of the list is ${describeJson(value)}, not an object`, file);
      return { line: i + 1, value: value as Record<string, unknown> };
    });
  }
  if (ext === '.csv') {
    const rows = parseCsv(readText(file), file);
    if (rows.length === 0) throw new InputError('empty file', file);
    const header = rows[0]!.fields;
    return rows.slice(1).map((r) => {
      if (r.fields.length !== header.length)
        throw new InputError(`row has ${r.fields.length} fields, the header has ${header.length}`, file, r.line);
      return { line: r.line, value: Object.fromEntries(header.map((h, i) => [h, r.fields[i]])) };
    });
  }
  if (ext === '.parquet') {
    const buf = readFileSync(file);
    let rows: Array<Record<string, unknown>>;
    try {
      rows = await readParquetRows(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
    } catch (err) {
      throw new InputError(`not a readable Parquet file: ${(err as Error).message}`, file);
    }
    return rows.map((value, i) => ({ line: i + 1, value }));
  }
  throw new InputError(`unsupported file type "${ext}" (use .jsonl, .json, .csv or .parquet)`, file);
}

/** A JSON value's kind, for errors: null, a list, an object, a number... */
function describeJson(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** A field's value as text: a string, number or boolean (CSV and Parquet cells, JSON scalars); a list or an object is refused. */
function textOf(v: unknown, what: string, file: string, line: number): string {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  throw new InputError(`${what} is ${describeJson(v)}, not text`, file, line);
}

/** The options of a record, and their labels when the file gives them (ARC's `choices: { text, label }`). */
function optionsOf(rec: Record<string, unknown>, map: McqFieldMap, file: string, line: number): { options: string[]; labels?: string[] } {
  const fields = Array.isArray(map.options) ? map.options : [map.options];
  if (fields.length > 1) {
    const options = fields.map((f) => {
      const v = rec[f];
      if (v === undefined || v === null || String(v).trim() === '') throw new InputError(`missing option field "${f}"`, file, line);
      return textOf(v, `option field "${f}"`, file, line).trim();
    });
    return { options };
  }
  let v = rec[fields[0]!];
  if (v === undefined || v === null) throw new InputError(`missing field "${fields[0]}"`, file, line);
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      throw new InputError(`field "${fields[0]}" must be a list or an object of options`, file, line);
    }
  }
  const option = (o: unknown, i: number) => textOf(o, `option ${i + 1} of field "${fields[0]}"`, file, line).trim();
  if (Array.isArray(v)) return { options: v.map(option) };
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    // ARC / Hugging Face layout: { text: [...], label: [...] } (parallel lists).
    if (Array.isArray(o.text)) {
      const options = o.text.map(option);
      if (o.label === undefined) return { options };
      if (!Array.isArray(o.label) || o.label.length !== options.length) {
        throw new InputError(`field "${fields[0]}": "label" must be a list as long as "text" (${options.length})`, file, line);
      }
      return { options, labels: o.label.map((l) => String(l).trim()) };
    }
    // { A: "...", B: "..." }: options in label order, the keys as labels.
    const keys = Object.keys(o).sort();
    return { options: keys.map((k, i) => option(o[k], i)), labels: keys };
  }
  throw new InputError(`field "${fields[0]}" must be a list or an object of options`, file, line);
}

function answerIndex(raw: unknown, options: string[], file: string, line: number, fieldName: string, labels?: string[]): number {
  if (raw === undefined || raw === null || String(raw).trim() === '') throw new InputError(`missing field "${fieldName}"`, file, line);
  const s = textOf(raw, `field "${fieldName}"`, file, line).trim();
  const byLabel = labels?.indexOf(s) ?? -1;
  if (byLabel >= 0) return byLabel;
  if (/^[A-Z]$/.test(s) && s.charCodeAt(0) - 65 < options.length) return s.charCodeAt(0) - 65;
  if (/^\d+$/.test(s) && Number(s) < options.length) return Number(s);
  const byText = options.indexOf(s);
  if (byText >= 0) return byText;
  throw new InputError(`answer "${s}" is not among the options (${options.length} of them)`, file, line);
}

/** Load multiple-choice items from a file with a field mapping (the `mcq` suite, and benchmarks released as such files). */
export async function loadGenericMcq(file: string, map: McqFieldMap, suite = 'mcq'): Promise<LoadResult> {
  const rows = await readRecords(file);
  const lowerMap = Object.fromEntries(Object.entries(map.categoryMap ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const seen = new Set<string>();
  const items = rows.map(({ line, value }) => {
    const get = (name: string | undefined, required: boolean): string => {
      if (!name) return '';
      const v = value[name];
      if (v === undefined || v === null || String(v).trim() === '') {
        if (required) throw new InputError(`missing field "${name}"`, file, line);
        return '';
      }
      return textOf(v, `field "${name}"`, file, line);
    };
    const { options, labels } = optionsOf(value, map, file, line);
    const rawCategory = map.category ? get(map.category, true).trim() : '';
    const category = rawCategory ? (lowerMap[rawCategory.toLowerCase()] ?? rawCategory.toLowerCase()) : map.defaultCategory;
    if (!category || !isCategory(category)) {
      throw new InputError(
        `category "${rawCategory}" maps to no ATOMS category; map it (--fields category.${rawCategory || 'LABEL'}=belief, or categoryMap in a config) or give defaultCategory=`,
        file,
        line,
      );
    }
    const id = map.id ? get(map.id, true) : String(line);
    if (seen.has(id)) throw new InputError(`duplicate id "${id}"`, file, line);
    seen.add(id);
    const sub = get(map.subcategory, false);
    return mcqItem({
      suite,
      id,
      category,
      ability: sub || rawCategory || undefined,
      context: get(map.context, false),
      question: get(map.question, true),
      options,
      answerIndex: answerIndex(value[map.answer], options, file, line, map.answer, labels),
      meta: { originalLabel: rawCategory, subcategory: sub || undefined },
      file,
      line,
    });
  });
  return { items, warnings: [] };
}
