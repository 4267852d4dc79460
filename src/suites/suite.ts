// What a suite is: where its items come from and which protocol runs them. `defineSuite`
// closes over the payload type, so a registry can hold suites of every protocol side by side
// and each still hands its protocol items of the right shape.

import { ConfigError, InputError, type Item, type McqFieldMap, type Task } from '../core/index.js';
import type { ProtocolModule, ProtocolSettings } from '../protocols/index.js';
import { ensureSuiteData } from './data/fetch-data.js';
import type { LoadResult } from './read-input.js';

export interface SuiteLoadOptions {
  /** Data folder (the shared data root, the suite's folder, or for file-based suites a file). */
  data?: string;
  /** Seed for generated suites. */
  seed: number;
  /** Number of items for generated suites (their default otherwise). */
  count?: number;
  /** Field mapping for the generic `mcq` suite. */
  fields?: McqFieldMap;
  /** Environment for the data cache and mirror (MINDSCOPE_CACHE, MINDSCOPE_DATA_MIRROR); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Accept a suite that loads no item (an error otherwise: it is almost always a wrong path or filter). */
  allowEmpty?: boolean;
}

export interface SuiteDefinition<P> {
  id: string;
  describe: string;
  protocol: ProtocolModule<P>;
  /** Whether the suite reads files (`--data`); generated suites do not. */
  needsData: boolean;
  load(opts: SuiteLoadOptions & { data: string }): LoadResult<P> | Promise<LoadResult<P>>;
}

/** A registered suite: its items, and a ready task for a run. */
export interface Suite {
  readonly id: string;
  readonly describe: string;
  readonly protocol: string;
  readonly needsData: boolean;
  /** The suite's items (the first `limit` when given). */
  load(opts: SuiteLoadOptions, limit?: number): Promise<LoadResult<unknown>>;
  /** Load the items and hand them to the protocol: the task a run executes, and the loader's warnings. */
  task(opts: SuiteLoadOptions, settings: ProtocolSettings, limit?: number): Promise<{ task: Task; warnings: string[] }>;
}

/** Where an item came from, for errors: its file and line when the loader recorded them, else its place in the suite. */
function placeOf(item: Item<unknown>, index: number, data: string | undefined): string {
  const source = item.meta.source as { file?: unknown; line?: unknown } | undefined;
  if (source && typeof source.file === 'string') return `${source.file}${typeof source.line === 'number' ? `:${source.line}` : ''}`;
  return `item ${index + 1}${data ? ` of ${data}` : ''}`;
}

/**
 * Two items under one id share a trial key: one would never be run and the run would never
 * complete. Refused at load, naming both places.
 */
function refuseDuplicateIds(suite: string, items: Array<Item<unknown>>, data: string | undefined): void {
  const first = new Map<string, number>();
  items.forEach((item, i) => {
    const before = first.get(item.id);
    if (before === undefined) first.set(item.id, i);
    else
      throw new InputError(
        `suite ${suite}: the item id "${item.id}" is given twice, at ${placeOf(items[before]!, before, data)} and at ${placeOf(item, i, data)}`,
      );
  });
}

/** Declare a suite: an id, a protocol and a loader. */
export function defineSuite<P>(def: SuiteDefinition<P>): Suite {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(def.id)) throw new Error(`suite id "${def.id}" must be lower-case letters, digits and dashes`);
  const load = async (opts: SuiteLoadOptions, limit?: number): Promise<LoadResult<P>> => {
    // A public benchmark without --data is fetched into the cache (verified) on first use.
    // Data for a suite that generates its items would be ignored: refused (app's refuseGeneratedData says more).
    if (!def.needsData && opts.data !== undefined)
      throw new ConfigError(`--data ${opts.data}: the suite ${def.id} generates its items and reads no data`);
    const data = opts.data ?? (def.needsData ? await ensureSuiteData(def.id, { env: opts.env }) : undefined);
    if (def.needsData && !data) throw new ConfigError(`suite ${def.id} reads your own data files: give them with --data`);
    const loaded = await def.load({ ...opts, data: data ?? '' });
    refuseDuplicateIds(def.id, loaded.items, data);
    if (loaded.items.length === 0 && !opts.allowEmpty) {
      throw new ConfigError(`suite ${def.id} loaded no items${data ? ` from ${data}` : ''} (--allow-empty runs it anyway)`);
    }
    return limit !== undefined ? { ...loaded, items: loaded.items.slice(0, limit) } : loaded;
  };
  return {
    id: def.id,
    describe: def.describe,
    protocol: def.protocol.name,
    needsData: def.needsData,
    load,
    async task(opts, settings, limit) {
      const { items, warnings } = await load(opts, limit);
      return { task: def.protocol.createTask(def.id, items, settings), warnings };
    },
  };
}

/** Item lists typed for their protocol, for callers that need the items only. */
export type SuiteItems = Item<unknown>[];
