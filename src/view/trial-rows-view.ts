// The rows of the Trials view: each trial of a page with what it was asked (the first characters
// of its question, else of its prompt), what the subject answered and the gold answer, read by
// the protocol that wrote the record (the reply itself where the protocol reads no answer).

import { createRegistry, trialAnswer } from '../app/index.js';
import { BUILTIN_RECORDS, McqPayloadSchema, readRecord, readScoreDetail, type Item, type StoredTranscript } from '../core/index.js';
import { messageText } from '../models/index.js';
import type { Store, TrialListRow } from '../store/index.js';
import type { TrialRowView } from './api-types.js';

/** How many characters of a question, prompt or answer a row shows. */
const PREVIEW = 120;

/** `text` on one line, at most PREVIEW characters (an ellipsis where cut); null for none. */
function preview(text: string | null | undefined): string | null {
  if (typeof text !== 'string') return null;
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > PREVIEW ? `${line.slice(0, PREVIEW - 1)}\u2026` : line;
}

/** What the trial was asked: a multiple-choice item's question, else the first message sent, else the item's question or prompt field. */
function inputOf(item: Item | undefined, transcript: StoredTranscript | undefined): string | null {
  const mcq = item ? readScoreDetail(McqPayloadSchema, item.payload) : undefined;
  if (mcq) return preview(mcq.question);
  for (const call of transcript?.calls ?? []) {
    const sent = call.messages?.find((m) => m.role === 'user');
    if (sent) return preview(messageText(sent));
  }
  const payload = (item?.payload ?? {}) as Record<string, unknown>;
  return preview(['question', 'prompt', 'text'].map((k) => payload[k]).find((v): v is string => typeof v === 'string'));
}

let protocols: ReturnType<typeof createRegistry>['protocols'] | undefined;

/** What the trial answered and what it was scored against; a multiple-choice label with the text of its option ("B. the basket"). */
function answerOf(transcript: StoredTranscript, where: string, item: Item | undefined): { answer: string | null; gold: string | null } {
  const said = trialAnswer(transcript, where, protocols);
  const mcq = readRecord(BUILTIN_RECORDS.mcq, transcript, where);
  const option = (label: string | null) => {
    const text = label === null ? undefined : mcq?.presented.find((o) => o.label === label)?.text;
    return text === undefined ? label : `${label}. ${text}`;
  };
  return { answer: option(said.parsed) ?? said.reply, gold: option(said.gold ?? item?.answer ?? null) };
}

/** The rows with their input, answer and gold; a record that cannot be read shows no answer (its trial page says why). */
export async function trialRowsView(store: Store, rows: readonly TrialListRow[]): Promise<TrialRowView[]> {
  protocols ??= createRegistry().protocols;
  const items = new Map<string, Item | undefined>();
  const out: TrialRowView[] = [];
  for (const row of rows) {
    if (!items.has(row.itemHash)) items.set(row.itemHash, await store.getItem(row.itemHash));
    const item = items.get(row.itemHash);
    const transcript = row.status === 'done' ? (await store.transcript(row))?.transcript : undefined;
    let said: { answer: string | null; gold: string | null } = { answer: null, gold: item?.answer ?? null };
    if (transcript)
      try {
        said = answerOf(transcript, `${row.suite}/${row.itemId}#${row.replicate}`, item);
      } catch {
        // The trial's own page shows the error.
      }
    out.push({ ...row, input: inputOf(item, transcript), answer: preview(said.answer), gold: preview(said.gold) });
  }
  return out;
}
