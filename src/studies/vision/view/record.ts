// Director scenes and triangle descriptions as the viewer's panels show them: the records read
// with their schemas (the stimulus is in the calls the page shows beside them).

import { readRecord, type StoredTranscript } from '../../../core/index.js';
import { DESCRIBE_RECORDS, type DescribeDetail } from '../protocols/describe-records.js';
import { DIRECTOR_RECORDS, type DirectorDetail } from '../protocols/director-records.js';

/** The viewer panel's data for a stored Director trial. */
export function directorView(t: StoredTranscript, ctx: { where: string }): DirectorDetail | undefined {
  return readRecord(DIRECTOR_RECORDS, t, ctx.where);
}

/** The viewer panel's data for a stored description (animated triangles). */
export function describeView(t: StoredTranscript, ctx: { where: string }): DescribeDetail | undefined {
  return readRecord(DESCRIBE_RECORDS, t, ctx.where);
}
