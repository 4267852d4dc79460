// RFC 4180 CSV: quoted fields may hold commas, quotes ("") and newlines. Rows keep the line
// number they start on, so that errors can name it.

export interface CsvRow {
  line: number;
  fields: string[];
}

export function parseCsv(text: string): CsvRow[] {
  const rows: CsvRow[] = [];
  let fields: string[] = [];
  let field = '';
  let inQuotes = false;
  let line = 1;
  let rowLine = 1;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0; // byte-order mark
  const endRow = () => {
    fields.push(field);
    if (!(fields.length === 1 && fields[0] === '')) rows.push({ line: rowLine, fields });
    fields = [];
    field = '';
  };
  for (; i < text.length; i++) {
    const c = text[i];
    if (inQuotes) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else inQuotes = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
    } else if (c === '"' && field === '') inQuotes = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else field += c;
  }
  if (field !== '' || fields.length) endRow();
  return rows;
}

function quote(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export function formatCsv(header: string[], rows: Array<Array<string | number | null | undefined>>): string {
  const lines = [header.map(quote).join(',')];
  for (const row of rows) lines.push(row.map((v) => (v === null || v === undefined ? '' : quote(String(v)))).join(','));
  return lines.join('\n') + '\n';
}
