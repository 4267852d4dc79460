// Director scenes and triangle descriptions as the viewer's panels show them: the records read
// with their schemas (the stimulus is in the calls the page shows beside them).

import { BUILTIN_RECORDS, readRecord, type DescribeDetail, type DirectorDetail, type StoredTranscript } from '../../../core/index.js';

/** The viewer panel's data for a stored Director trial. */
export function directorView(t: StoredTranscript, ctx: { where: string }): DirectorDetail | undefined {
  return readRecord(BUILTIN_RECORDS.director, t, ctx.where);
}

/** The viewer panel's data for a stored description (animated triangles). */
export function describeView(t: StoredTranscript, ctx: { where: string }): DescribeDetail | undefined {
  return readRecord(BUILTIN_RECORDS.describe, t, ctx.where);
}
