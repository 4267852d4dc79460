// A stored trial's record with the protocol that wrote it, read through that protocol's record
// schemas: how scoring, exports and the viewer read records without knowing any protocol by name.
// A multiple-choice record (most trials) that is exactly what its schema gives back unchanged is
// taken as it is (shape-checks.ts); any other record goes through its schema's parse.

import { MCQ_RECORDS, readRecord, type RecordSchemas, type StoredTranscript } from '../core/index.js';
import type { ProtocolModule } from '../protocols/index.js';
import { arrayOf, type Check, isInt, isNumber, isString, nullable, object, oneOf } from './shape-checks.js';

/** McqDetailSchema's fields in its order, each a check of what it parses unchanged. */
const mcqDetail = object(
  {
    presented: arrayOf(object({ label: isString, text: isString }, ['label', 'text'])),
    correctLabel: isString,
    reply: isString,
    parsed: nullable(isString),
    parseMethod: oneOf('answer-tag', 'leading-label', 'bare-label', 'option-text', 'none'),
    traceMasks: (v) => isInt(v) && (v as number) >= 0,
    logprobs: arrayOf(isNumber),
    tokenCounts: arrayOf(isNumber),
    logprobsPerByte: arrayOf(isNumber),
  },
  ['presented', 'correctLabel'],
);

/** Record schemas with a quick check, by their detail schema. */
const quickChecks = new Map<unknown, Check>([[MCQ_RECORDS.detail, mcqDetail]]);

/** The transcript read last, the schemas it was read with and what they gave (readers of a trial ask again). */
let lastTranscript: StoredTranscript | undefined;
let lastSchemas: RecordSchemas | undefined;
let lastRecord: unknown;

/** readRecord: the record itself when it names the protocol and passes the quick check, else the schema's parse. */
function readQuickly(schemas: RecordSchemas, t: StoredTranscript, where: string | (() => string)): unknown {
  if (t.protocol === schemas.protocol && quickChecks.get(schemas.detail)?.(t.detail)) return t.detail;
  return readRecord(schemas, t, where);
}

/**
 * readRecord, parsed once when asked again of the same transcript with the same schemas (an
 * export reads a trial's record for its answer, then for its sample): the same value is given.
 * `where` may be a function that names the trial, called only for an error.
 */
export function readRecordAgain(schemas: RecordSchemas, t: StoredTranscript, where: string | (() => string)): unknown {
  if (t === lastTranscript && schemas === lastSchemas) return lastRecord;
  const record = readQuickly(schemas, t, where);
  lastTranscript = t;
  lastSchemas = schemas;
  lastRecord = record;
  return record;
}

/**
 * The protocol (among `protocols`) that wrote a stored transcript, and its parsed record; undefined
 * when none did. `where` names the trial, or is a function that names it (called only for an error).
 */
export function storedRecord(
  protocols: readonly ProtocolModule[],
  t: StoredTranscript,
  where: string | (() => string),
): { protocol: ProtocolModule; record: unknown } | undefined {
  for (const protocol of protocols) {
    const record = readRecordAgain(protocol.records, t, where);
    if (record !== undefined) return { protocol, record };
  }
  return undefined;
}
