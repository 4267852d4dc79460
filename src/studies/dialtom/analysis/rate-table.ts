// Published DialToM summary rates, for re-analysing a paper's table: a CSV with columns
// model, domain, task (retrospective, prospective or prospective-easy), correct_rate (percent)
// and items (the number of items behind the rate).

import { decimalNumber, InputError, parseCsv } from '../../../core/index.js';

export type DialtomTaskName = 'retrospective' | 'prospective' | 'prospective-easy';

export interface RateRow {
  model: string;
  domain: string;
  task: DialtomTaskName;
  /** Percent correct, 0-100. */
  rate: number;
  items: number;
  line: number;
}

/** Read published correctness rates (CSV model,domain,task,correct_rate,items); errors name the file and line. */
export function parseRateTable(text: string, file = '<rates>'): RateRow[] {
  const rows = parseCsv(text, file);
  if (rows.length < 2) throw new InputError('expected a header and at least one row', file);
  const header = rows[0]!.fields.map((h) => h.trim().toLowerCase());
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new InputError(`no "${name}" column (expected model, domain, task, correct_rate, items)`, file, 1);
    return i;
  };
  const m = col('model');
  const d = col('domain');
  const t = col('task');
  const r = col('correct_rate');
  const n = col('items');
  const seen = new Set<string>();
  return rows.slice(1).map((row) => {
    const f = row.fields.map((x) => x.trim());
    if (f.length !== header.length) throw new InputError(`row has ${f.length} fields, the header has ${header.length}`, file, row.line);
    const task = f[t] as DialtomTaskName;
    if (!['retrospective', 'prospective', 'prospective-easy'].includes(task))
      throw new InputError(`task must be retrospective, prospective or prospective-easy, not "${f[t]}"`, file, row.line);
    const rate = decimalNumber(f[r]!);
    if (f[r] === '' || !(rate >= 0 && rate <= 100))
      throw new InputError(`correct_rate must be a percentage in [0, 100], not "${f[r]}"`, file, row.line);
    const items = decimalNumber(f[n]!);
    if (!Number.isInteger(items) || items <= 0)
      throw new InputError(`items must be a positive whole number, not "${f[n]}"`, file, row.line);
    const key = `${f[m]}\u0000${f[d]}\u0000${task}`;
    if (seen.has(key)) throw new InputError(`${f[m]} / ${f[d]} / ${task} appears twice`, file, row.line);
    seen.add(key);
    return { model: f[m]!, domain: f[d]!, task, rate, items, line: row.line };
  });
}
