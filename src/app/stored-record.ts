// A stored trial's record with the protocol that wrote it, read through that protocol's record
// schemas: how scoring, exports and the viewer read records without knowing any protocol by name.

import { readRecord, type RecordSchemas, type StoredTranscript } from '../core/index.js';
import type { ProtocolModule } from '../protocols/index.js';

/** The transcript read last, the schemas it was read with and what they gave (readers of a trial ask again). */
let lastTranscript: StoredTranscript | undefined;
let lastSchemas: RecordSchemas | undefined;
let lastRecord: unknown;

/**
 * readRecord, parsed once when asked again of the same transcript with the same schemas (an
 * export reads a trial's record for its answer, then for its sample): the same value is given.
 */
export function readRecordAgain(schemas: RecordSchemas, t: StoredTranscript, where: string): unknown {
  if (t === lastTranscript && schemas === lastSchemas) return lastRecord;
  const record = readRecord(schemas, t, where);
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
