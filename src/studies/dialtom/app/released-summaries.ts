// Conversation summaries for released DialToM items (`mindscope dialtom summarize`): each
// prospective item's dialogue window summarised once (items of the same window share it), written
// as the released layout with the "Summary + States" context mode, which the dialtom-prospective
// suite reads (the summary in the item's context and its `summary` field, for the
// dialtom-summary-states template). Items whose summary was refused are left out and named.

import { writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { InputError, makeDirectory, readJson } from '../../../core/index.js';
import { runPool } from '../../../runner/index.js';
import { listFiles, resolveDataDir } from '../../../suites/index.js';

export interface SummarizedRelease {
  files: string[];
  items: number;
  /** Distinct dialogue windows summarised. */
  conversations: number;
  /** Items left out because their window's summary was refused. */
  leftOut: string[];
}

/** Summarise the prospective items of a release (`data`), writing OUT/dialtom/data/DOMAIN_prospective_verified.json. */
export async function summarizeReleasedItems(opts: {
  data: string;
  out: string;
  summarize: (conversation: string, where: string) => Promise<string | undefined>;
  domains?: readonly string[];
  /** The first N items of each domain. */
  limit?: number;
  concurrency: number;
}): Promise<SummarizedRelease> {
  const dir = resolveDataDir(resolveDataDir(opts.data, 'dialtom'), 'data');
  const files = listFiles(dir, /^([A-Za-z0-9-]+)_prospective_verified\.json$/, 'DOMAIN_prospective_verified.json files').filter(
    (f) => !opts.domains?.length || opts.domains.includes(basename(f).split('_')[0]!),
  );
  if (files.length === 0) throw new InputError(`no prospective file of domain ${opts.domains!.join(', ')}`, dir);
  const sets = files.map((file) => {
    const rows = readJson(file);
    if (!Array.isArray(rows)) throw new InputError('expected a JSON list of items', file);
    return { file, rows: (rows as Array<Record<string, unknown>>).slice(0, opts.limit) };
  });
  const windowOf = (row: Record<string, unknown>, file: string, i: number) => {
    if (!Array.isArray(row.ctx) || row.ctx.length === 0) throw new InputError('"ctx" must be a list of turns', `${file} [item ${i}]`);
    return (row.ctx as unknown[]).map(String).join('\n');
  };
  const windows = new Map<string, string>();
  for (const { file, rows } of sets)
    rows.forEach((row, i) => {
      const text = windowOf(row, file, i);
      if (!windows.has(text)) windows.set(text, `${basename(file).split('_')[0]} window "${String(row.id)}"`);
    });
  const summaries = new Map<string, string | undefined>();
  await runPool([...windows], Math.max(1, opts.concurrency), async ([text, where]) => {
    summaries.set(text, await opts.summarize(text, where));
  });
  const outDir = join(opts.out, 'dialtom', 'data');
  makeDirectory(outDir);
  const leftOut: string[] = [];
  let items = 0;
  const written: string[] = [];
  for (const { file, rows } of sets) {
    const kept = rows.flatMap((row, i) => {
      const summary = summaries.get(windowOf(row, file, i));
      if (summary === undefined) {
        leftOut.push(`${basename(file).split('_')[0]}/${String(row.id)}/${String(row.state)}`);
        return [];
      }
      return [{ ...row, context_mode: 'summary+states', summary }];
    });
    items += kept.length;
    const target = join(outDir, basename(file));
    writeFileSync(target, JSON.stringify(kept, null, 1));
    written.push(target);
  }
  return { files: written, items, conversations: windows.size, leftOut };
}
