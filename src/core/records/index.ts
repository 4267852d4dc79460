// Record schemas, one per built-in protocol (what its trials store) and one for judge panels;
// a study's protocols keep theirs beside them (src/studies/*/protocols).
// Protocols validate against them before a trial is stored; analyses, scoring, reports and the
// viewer read stored records only through `readRecord`, which parses them. A protocol added by
// a user brings its own schemas (see RecordSchemas in task.ts).

import type { z } from 'zod';
import { MindscopeError } from '../errors.js';
import type { RecordSchemas } from '../task.js';
import { InspectDetailSchema, InspectScoreDetailSchema } from './inspect.js';
import { McqDetailSchema, McqScoreDetailSchema } from './mcq.js';
import type { StoredTranscript } from './transcript.js';

export * from './inspect.js';
export * from './judge.js';
export * from './mcq.js';
export * from './transcript.js';

export const MCQ_RECORDS = {
  protocol: 'mcq',
  scorer: 'mcq-exact',
  legacy: (d) => 'presented' in d && 'correctLabel' in d,
  detail: McqDetailSchema,
  score: McqScoreDetailSchema,
} satisfies RecordSchemas;
/** Trials imported from Inspect AI eval logs (no protocol of ours ran them; `mindscope import inspect`). */
export const INSPECT_RECORDS = {
  protocol: 'inspect',
  scorer: 'inspect',
  detail: InspectDetailSchema,
  score: InspectScoreDetailSchema,
} satisfies RecordSchemas;

/** The built-in protocols' record schemas, by protocol name. */
export const BUILTIN_RECORDS = {
  mcq: MCQ_RECORDS,
} as const;

/**
 * The protocol that wrote a transcript, among `known` record schemas: the name it stores, or for
 * a transcript stored before transcripts named it (stores written by mindscope 0.1), the first
 * schemas whose `legacy` test recognises its fields.
 */
export function protocolOf(t: StoredTranscript, known: readonly RecordSchemas[]): string {
  if (t.protocol) return t.protocol;
  const d = t.detail;
  if (typeof d !== 'object' || d === null) return 'unknown';
  return known.find((s) => s.legacy?.(d))?.protocol ?? 'unknown';
}

/** Whether a transcript was written by the protocol of `schemas` (see protocolOf). */
function writtenBy(schemas: RecordSchemas, t: StoredTranscript): boolean {
  if (t.protocol) return t.protocol === schemas.protocol;
  return typeof t.detail === 'object' && t.detail !== null && (schemas.legacy?.(t.detail) ?? false);
}

/**
 * A stored transcript's record parsed with a protocol's schemas, or undefined when the
 * transcript belongs to another protocol. A record of the right protocol that does not parse is
 * an error naming the trial: it means the store was written by something else. `where` names the
 * trial, or is a function that names it (called only for the error).
 */
export function readRecord<S extends RecordSchemas>(
  schemas: S,
  t: StoredTranscript,
  where: string | (() => string),
): z.infer<S['detail']> | undefined {
  if (!writtenBy(schemas, t)) return undefined;
  const parsed = schemas.detail.safeParse(t.detail);
  if (!parsed.success)
    throw new MindscopeError(
      `${typeof where === 'string' ? where : where()}: stored ${schemas.protocol} record does not parse: ${parsed.error.issues[0]?.message ?? ''} at ${parsed.error.issues[0]?.path.join('.') ?? ''}`,
    );
  return parsed.data as z.infer<S['detail']>;
}

/** A score detail parsed with a schema; undefined when it does not fit (a score by another scorer). */
export function readScoreDetail<T extends z.ZodType>(schema: T, detail: unknown): z.infer<T> | undefined {
  const parsed = schema.safeParse(detail);
  return parsed.success ? parsed.data : undefined;
}

/** Check a protocol's result against its schemas before it is stored; the error names the trial and the field. */
export function validateRecord(schemas: RecordSchemas, detail: unknown, scoreDetail: unknown, where: string): void {
  for (const [what, schema, value] of [
    ['record', schemas.detail, detail],
    ['score detail', schemas.score, scoreDetail],
  ] as const) {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new MindscopeError(
        `${where}: the ${schemas.protocol} ${what} does not match its schema: ${issue?.message ?? ''} at ${issue?.path.join('.') || '(root)'}`,
      );
    }
  }
}
