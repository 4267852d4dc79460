// A StoryTurn conversation as the viewer's panel shows it: the record read with its schema.

import { readRecord, type StoredTranscript } from '../../../core/index.js';
import { STORYTURN_RECORDS, type StoryTurnDetail } from '../protocol/records.js';

/** The viewer panel's data for a stored conversation. */
export function conversationView(t: StoredTranscript, ctx: { where: string }): StoryTurnDetail | undefined {
  return readRecord(STORYTURN_RECORDS, t, ctx.where);
}
