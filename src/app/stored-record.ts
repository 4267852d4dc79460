// A stored trial's record with the protocol that wrote it, read through that protocol's record
// schemas: how scoring, exports and the viewer read records without knowing any protocol by name.

import { readRecord, type StoredTranscript } from '../core/index.js';
import type { ProtocolModule } from '../protocols/index.js';

/** The protocol (among `protocols`) that wrote a stored transcript, and its parsed record; undefined when none did. */
export function storedRecord(
  protocols: readonly ProtocolModule[],
  t: StoredTranscript,
  where: string,
): { protocol: ProtocolModule; record: unknown } | undefined {
  for (const protocol of protocols) {
    const record = readRecord(protocol.records, t, where);
    if (record !== undefined) return { protocol, record };
  }
  return undefined;
}
