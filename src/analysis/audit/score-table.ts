// A table of per-model benchmark scores (one row per model, one column per benchmark), the
// input of the benchmark-level audit (`mindscope audit --scores`).

import { InputError, parseCsv } from '../../core/index.js';

export interface ScoreTable {
  models: string[];
  benchmarks: Record<string, number[]>;
}

export function parseScoreTable(text: string, file = '<scores>'): ScoreTable {
  const rows = parseCsv(text);
  if (rows.length < 2) throw new InputError('expected a header and at least one model row', file);
  const header = rows[0].fields.map((h) => h.trim());
  const modelCol = header.findIndex((h) => /^(model|subject|name)$/i.test(h));
  const nameCol = Math.max(modelCol, 0);
  const benchmarks: Record<string, number[]> = {};
  header.forEach((h, j) => {
    if (j !== nameCol) benchmarks[h] = [];
  });
  const models: string[] = [];
  const seen = new Set<string>();
  for (const r of rows.slice(1)) {
    if (r.fields.length !== header.length)
      throw new InputError(`row has ${r.fields.length} fields, the header has ${header.length}`, file, r.line);
    const model = r.fields[nameCol].trim();
    if (seen.has(model)) throw new InputError(`model "${model}" appears twice`, file, r.line);
    seen.add(model);
    models.push(model);
    header.forEach((h, j) => {
      if (j === nameCol) return;
      const v = Number(r.fields[j]);
      if (r.fields[j].trim() === '' || !Number.isFinite(v))
        throw new InputError(`column "${h}": "${r.fields[j]}" is not a number`, file, r.line);
      benchmarks[h].push(v);
    });
  }
  return { models, benchmarks };
}
