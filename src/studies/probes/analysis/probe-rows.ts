// The probe trials of a stored run, each record read with its schema.

import { readRecord } from '../../../core/index.js';
import type { Store } from '../../../store/index.js';
import { PROBE_RECORDS, type ProbeDetail } from '../protocol/records.js';

/** One stored probe trial. */
export interface ProbeRow {
  subject: string;
  suite: string;
  itemId: string;
  replicate: number;
  detail: ProbeDetail;
}

/** Every probe trial of a run (none when the run has no probe suite). */
export async function probeRows(store: Store, runId: string): Promise<ProbeRow[]> {
  const out: ProbeRow[] = [];
  for await (const r of store.responses(runId, PROBE_RECORDS.scorer)) {
    const key = { runId, subjectId: r.subjectId, suite: r.suite, itemId: r.itemId, replicate: r.replicate };
    const t = await store.transcript(key);
    const detail = t ? readRecord(PROBE_RECORDS, t.transcript, `${r.suite}/${r.itemId}`) : undefined;
    if (detail) out.push({ subject: r.spec, suite: r.suite, itemId: r.itemId, replicate: r.replicate, detail });
  }
  return out;
}

/** Rows grouped by subject, in first-seen order. */
export function bySubject<T extends { subject: string }>(rows: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of rows) out.set(r.subject, [...(out.get(r.subject) ?? []), r]);
  return out;
}

/** A share, NaN of nothing. */
export const share = (k: number, n: number): number => (n > 0 ? k / n : Number.NaN);
