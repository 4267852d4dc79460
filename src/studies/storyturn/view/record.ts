// A StoryTurn conversation as the viewer's panel shows it: the record read with its schema.

import { BUILTIN_RECORDS, readRecord, type StoredTranscript, type StoryTurnDetail } from '../../../core/index.js';

/** The viewer panel's data for a stored conversation. */
export function conversationView(t: StoredTranscript, ctx: { where: string }): StoryTurnDetail | undefined {
  return readRecord(BUILTIN_RECORDS.conversation, t, ctx.where);
}
