// A stored trial's record with the protocol that wrote it, read through that protocol's record
// schemas: how scoring, exports and the viewer read records without knowing any protocol by name.

import { readRecord, type RecordSchemas, type StoredTranscript } from '../core/index.js';
import type { ProtocolModule } from '../protocols/index.js';

/** The transcript read last, the schemas it was read with and what they gave (readers of a trial ask again). */
let lastTranscript: StoredTranscript | undefined;
let lastSchemas: RecordSchemas | undefined;
let lastRecord: unknown;

/** The value a detail shares with other trials' (an object frozen by the store's reader: an item's presented options), if it has exactly one and otherwise plain values. */
function sharedValue(d: unknown): object | undefined {
  if (d === null || typeof d !== 'object' || Array.isArray(d)) return undefined;
  let shared: object | undefined;
  const fields = d as Record<string, unknown>;
  for (const k in fields) {
    const v = fields[k];
    if (v === null || typeof v !== 'object') continue;
    if (shared !== undefined || !Object.isFrozen(v)) return undefined;
    shared = v;
  }
  return shared;
}

/** A level of the records known: the next key (a protocol, a field's name or plain value) to the level after it, or at the end, the record. */
type Known = Map<unknown, unknown>;
const SHARED = Symbol('the shared value');
const RECORD = Symbol('the record');

function step(level: Known, key: unknown): Known {
  let next = level.get(key) as Known | undefined;
  if (next === undefined) level.set(key, (next = new Map()));
  return next;
}

/** Records parsed from details that share a value, by schemas and shared value, then protocol and fields (what gives the same record). */
const sharedRecords = new WeakMap<RecordSchemas, WeakMap<object, { known: Known; size: number }>>();
const SHARED_RECORDS_KEPT = 1000;

/**
 * readRecord, parsed once when asked again of the same transcript with the same schemas (an
 * export reads a trial's record for its answer, then for its sample), and once for details
 * that differ from one read before only in being other objects (the same shared value beside
 * the same plain values): the same value is given, to be read, never changed.
 */
export function readRecordAgain(schemas: RecordSchemas, t: StoredTranscript, where: string): unknown {
  if (t === lastTranscript && schemas === lastSchemas) return lastRecord;
  const shared = sharedValue(t.detail);
  let leaf: Known | undefined;
  let record: unknown;
  if (shared) {
    let byShared = sharedRecords.get(schemas);
    if (!byShared) sharedRecords.set(schemas, (byShared = new WeakMap()));
    let root = byShared.get(shared);
    if (!root || root.size >= SHARED_RECORDS_KEPT) byShared.set(shared, (root = { known: new Map(), size: 0 }));
    leaf = step(root.known, t.protocol ?? null);
    const fields = t.detail as Record<string, unknown>;
    for (const k in fields) {
      const v = fields[k];
      leaf = step(step(leaf, k), v !== null && typeof v === 'object' ? SHARED : v);
    }
    record = leaf.get(RECORD);
    if (record === undefined) root.size++;
  }
  if (record === undefined) {
    record = readRecord(schemas, t, where);
    if (leaf && record !== undefined) leaf.set(RECORD, record);
  }
  lastTranscript = t;
  lastSchemas = schemas;
  lastRecord = record;
  return record;
}

/** The protocol (among `protocols`) that wrote a stored transcript, and its parsed record; undefined when none did. */
export function storedRecord(
  protocols: readonly ProtocolModule[],
  t: StoredTranscript,
  where: string,
): { protocol: ProtocolModule; record: unknown } | undefined {
  for (const protocol of protocols) {
    const record = readRecordAgain(protocol.records, t, where);
    if (record !== undefined) return { protocol, record };
  }
  return undefined;
}
