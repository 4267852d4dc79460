// A probe trial as the viewer's panel shows it: the record read with its schema.

import { readRecord, type StoredTranscript } from '../../../core/index.js';
import { PROBE_RECORDS, type ProbeDetail } from '../protocol/records.js';

/** The viewer panel's data for a stored probe trial. */
export function probeView(t: StoredTranscript, ctx: { where: string }): ProbeDetail | undefined {
  return readRecord(PROBE_RECORDS, t, ctx.where);
}
