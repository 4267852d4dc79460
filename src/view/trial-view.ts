// One trial as the Transcript view shows it: the calls as stored, the record read through its
// protocol's schema (readRecord), every score (judge panels parsed with their schema), the item.

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
import { EPISODE_RECORDS, taskOfItem } from '../studies/enacttom/index.js';
import { trialBrowser, type Store } from '../store/index.js';
import { STORYTURN_RECORDS } from '../studies/storyturn/index.js';
import { DESCRIBE_RECORDS, DIRECTOR_RECORDS } from '../studies/vision/index.js';
import type { RecordView, TrialView } from './api-types.js';
import { replayEpisode } from './episode-replay.js';

// The record schemas the view knows, in the order stores written before transcripts named their
// protocol are recognised by (see protocolOf).
const KNOWN_RECORDS = [BUILTIN_RECORDS.mcq, STORYTURN_RECORDS, EPISODE_RECORDS, DIRECTOR_RECORDS, DESCRIBE_RECORDS];

function recordOf(t: StoredTranscript, item: Item | undefined, where: string): RecordView {
  const protocol = protocolOf(t, KNOWN_RECORDS);
  const mcq = readRecord(BUILTIN_RECORDS.mcq, t, where);
  if (mcq) return { protocol: 'mcq', mcq };
  const story = readRecord(STORYTURN_RECORDS, t, where);
  if (story) return { protocol: 'conversation', story };
  const episode = readRecord(EPISODE_RECORDS, t, where);
  if (episode) return replayEpisode(item ? taskOfItem(item) : undefined, episode);
  const director = readRecord(DIRECTOR_RECORDS, t, where);
  if (director) return { protocol: 'director', director };
  const describe = readRecord(DESCRIBE_RECORDS, t, where);
  if (describe) return { protocol: 'describe', describe };
  return { protocol: 'other', name: protocol, raw: t.detail };
}

/** A trial's full view, or undefined when the run has no such trial. */
export async function trialView(store: Store, key: TrialKey): Promise<TrialView | undefined> {
  const browser = trialBrowser(store);
  const row = await browser.trial(key);
  if (!row) return undefined;
  const subjects = await store.runSubjects(key.runId);
  const item = await store.getItem(row.itemHash);
  const stored = row.status === 'done' ? await store.transcript(key) : undefined;
  const where = `${key.suite}/${key.itemId}#${key.replicate}`;
  const payload = item ? readScoreDetail(McqPayloadSchema, item.payload) : undefined;
  const label = item?.meta?.originalLabel;
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
    protocol: stored ? protocolOf(stored.transcript, KNOWN_RECORDS) : 'unknown',
    calls: stored?.transcript.calls ?? [],
    record: stored ? recordOf(stored.transcript, item, where) : null,
    scores: (await browser.scores(key)).map((s) => ({ ...s, judge: readScoreDetail(JudgeDetailSchema, s.detail) ?? null })),
  };
}
