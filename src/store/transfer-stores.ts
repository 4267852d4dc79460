// Moving runs between stores: `db copy` (SQLite <-> PostgreSQL, either way) and `merge` (runs
// sharded by hand across machines, each into its own file, put back together).

import { existsSync } from 'node:fs';
import { ConfigError } from '../core/index.js';
import { isPostgresLocation, openStore } from './open-store.js';
import type { ImportSummary } from './store.js';

/** Copy everything one store holds into another (created when missing); see Store.importRecords for the rules. */
export async function copyStore(from: string, to: string): Promise<ImportSummary> {
  if (!isPostgresLocation(from) && !existsSync(from.replace(/^sqlite:/i, ''))) throw new ConfigError(`${from}: no such store`);
  const source = await openStore(from);
  try {
    const target = await openStore(to);
    try {
      return await target.importRecords(source.exportRecords());
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}

/**
 * Merge stores into a new one: runs found in several inputs must have the same specification,
 * and a trial done in several is taken from the first input that has it done.
 */
export async function mergeStores(inputs: string[], out: string): Promise<ImportSummary> {
  if (inputs.length < 2) throw new ConfigError('merge needs two or more stores');
  if (!isPostgresLocation(out) && existsSync(out.replace(/^sqlite:/i, '')))
    throw new ConfigError(`${out} exists already: merge writes a new store`);
  for (const i of inputs)
    if (!isPostgresLocation(i) && !existsSync(i.replace(/^sqlite:/i, ''))) throw new ConfigError(`${i}: no such store`);
  const total: ImportSummary = { runs: 0, items: 0, trials: 0, duplicateTrials: 0, cacheEntries: 0, batches: 0, batchRequests: 0 };
  const target = await openStore(out);
  try {
    for (const input of inputs) {
      const source = await openStore(input);
      try {
        const s = await target.importRecords(source.exportRecords());
        for (const k of Object.keys(total) as Array<keyof ImportSummary>) total[k] += s[k];
      } finally {
        await source.close();
      }
    }
  } finally {
    await target.close();
  }
  return total;
}
