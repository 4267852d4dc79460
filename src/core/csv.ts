// RFC 4180 CSV: quoted fields may hold commas, quotes ("") and newlines. Rows keep the line
// number they start on, so that errors can name it.

import { InputError } from './errors.js';

export interface CsvRow {
  line: number;
  fields: string[];
}

const QUOTE = 34;
const COMMA = 44;
const LF = 10;
const CR = 13;

/** Parse CSV text (RFC 4180 quoting, CRLF or LF) into rows of fields, each with its line number; `file` names it in errors. */
export function parseCsv(text: string, file?: string): CsvRow[] {
  const rows: CsvRow[] = [];
  forEachCsvRow(text, (fields, line) => rows.push({ line, fields }), file);
  return rows;
}

/**
 * Parse CSV text as parseCsv does, handing each row to `onRow` as it is read instead of keeping
 * them all: a large file's rows then die young (the garbage collector copies every object still
 * alive when it runs, and a whole file's field arrays cost it more than parsing them).
 */
export function forEachCsvRow(text: string, onRow: (fields: string[], line: number) => void, file?: string): void {
  let fields: string[] = [];
  let line = 1;
  let rowLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // byte-order mark
  const n = text.length;
  const endRow = () => {
    if (!(fields.length === 1 && fields[0] === '')) onRow(fields, rowLine);
    fields = [];
  };
  while (i <= n) {
    // One field per pass: quoted (with "" for a quote, possibly spanning lines) or plain (sliced).
    let field: string;
    if (text.charCodeAt(i) === QUOTE) {
      field = '';
      let from = ++i;
      for (;;) {
        const q = text.indexOf('"', from);
        if (q < 0) {
          // It would swallow the rest of the file as one field (and the row's count be wrong).
          const message = 'a quoted field opened here is never closed (a " is missing, or a quote in it is not doubled)';
          throw new InputError(file ? message : `line ${line}: ${message}`, file, file ? line : undefined);
        }
        field += text.slice(from, q);
        if (text.charCodeAt(q + 1) === QUOTE) {
          field += '"';
          from = q + 2;
        } else {
          i = q + 1;
          break;
        }
      }
      for (let k = field.indexOf('\n'); k >= 0; k = field.indexOf('\n', k + 1)) line++;
      // Anything between the closing quote and the delimiter belongs to the field, as before.
      const start = i;
      while (i < n) {
        const c = text.charCodeAt(i);
        if (c === COMMA || c === LF || c === CR) break;
        i++;
      }
      if (i > start) field += text.slice(start, i);
    } else {
      const start = i;
      while (i < n) {
        const c = text.charCodeAt(i);
        if (c === COMMA || c === LF || c === CR) break;
        i++;
      }
      field = text.slice(start, i);
    }
    fields.push(field);
    if (i >= n) {
      if (!(fields.length === 1 && fields[0] === '')) onRow(fields, rowLine);
      break;
    }
    const c = text.charCodeAt(i);
    if (c === COMMA) {
      i++;
      if (i === n) {
        fields.push('');
        onRow(fields, rowLine);
        break;
      }
      continue;
    }
    // End of row: CRLF, LF or CR.
    i += c === CR && text.charCodeAt(i + 1) === LF ? 2 : 1;
    endRow();
    line++;
    rowLine = line;
    if (i === n) break;
  }
}

function quote(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Format a header and rows as CSV text, quoting fields that need it. */
export function formatCsv(header: string[], rows: Array<Array<string | number | null | undefined>>): string {
  const lines = [header.map(quote).join(',')];
  for (const row of rows) lines.push(row.map((v) => (v === null || v === undefined ? '' : quote(String(v)))).join(','));
  return `${lines.join('\n')}\n`;
}
