// One trial as the Transcript view shows it: the calls as stored, the record as its protocol's
// panel shows it (multiple choice: read through its schema), every score (judge panels parsed
// with their schema), the item.

import {
  BUILTIN_RECORDS,
  JudgeDetailSchema,
  McqPayloadSchema,
  protocolOf,
  readRecord,
  readScoreDetail,
  type Item,
  type StoredTranscript,
  type TrialKey,
} from '../core/index.js';
import { trialBrowser, type Store } from '../store/index.js';
import type { RecordView, TrialView } from './api-types.js';
import type { ServedPanels } from './panels.js';

/** The record as its protocol's panel shows it; multiple choice is the kernel's own. */
async function recordOf(t: StoredTranscript, item: Item | undefined, where: string, panels: ServedPanels): Promise<RecordView> {
  const protocol = protocolOf(t, Object.values(BUILTIN_RECORDS));
  const mcq = readRecord(BUILTIN_RECORDS.mcq, t, where);
  if (mcq) return { protocol: 'mcq', data: mcq, raw: false };
  // A record stored before transcripts named their protocol (mindscope 0.1) is the first panel's
  // that reads it (each reads through its schemas, which recognise their old records).
  const candidates = t.protocol ? [panels.of(protocol)] : panels.all();
  for (const served of candidates) {
    const data = served?.panel.record ? await served.panel.record(t, { where, item }) : undefined;
    if (data !== undefined)
      return { protocol: served!.panel.protocol, data, raw: false, ...(served!.script ? { script: served!.script } : {}) };
  }
  const served = panels.of(protocol);
  return { protocol, data: t.detail, raw: true, ...(served?.script ? { script: served.script } : {}) };
}

/** A trial's full view, or undefined when the run has no such trial. */
export async function trialView(store: Store, key: TrialKey, panels: ServedPanels): Promise<TrialView | undefined> {
  const browser = trialBrowser(store);
  const row = await browser.trial(key);
  if (!row) return undefined;
  const subjects = await store.runSubjects(key.runId);
  const item = await store.getItem(row.itemHash);
  const stored = row.status === 'done' ? await store.transcript(key) : undefined;
  const where = `${key.suite}/${key.itemId}#${key.replicate}`;
  const payload = item ? readScoreDetail(McqPayloadSchema, item.payload) : undefined;
  const label = item?.meta?.originalLabel;
  const record = stored ? await recordOf(stored.transcript, item, where, panels) : null;
  return {
    ...key,
    spec: subjects.find((s) => s.id === key.subjectId)?.spec ?? key.subjectId,
    status: row.status,
    error: row.error,
    attempts: row.attempts,
    usage: {
      inputTokens: row.inputTokens,
      outputTokens: row.outputTokens,
      costUsd: row.costUsd,
      latencyMs: row.latencyMs,
      batchLatencyMs: Number(row.batchLatencyMs ?? 0),
    },
    finishedAt: row.finishedAt,
    item: item
      ? {
          category: item.category,
          ability: item.ability ?? null,
          answer: item.answer,
          originalLabel: typeof label === 'string' ? label : null,
          mcq: payload ? { context: payload.context, question: payload.question, options: payload.options } : null,
        }
      : null,
    protocol: record?.protocol ?? 'unknown',
    calls: stored?.transcript.calls ?? [],
    record,
    scores: (await browser.scores(key)).map((s) => ({ ...s, judge: readScoreDetail(JudgeDetailSchema, s.detail) ?? null })),
  };
}
