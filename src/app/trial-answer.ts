// What a trial's record says the subject answered, read through the protocols' record schemas:
// the reply, the answer the protocol read from it and the gold answer it was scored against.
// Multi-part records (StoryTurn turns, Director prompts, EnactToM probes) give JSON lists.

import { INSPECT_RECORDS, readRecord, type StoredTranscript } from '../core/index.js';
import type { ProtocolModule } from '../protocols/index.js';
import { defaultProtocols } from './default-protocols.js';
import { storedRecord } from './stored-record.js';

export interface TrialAnswer {
  /** The subject's reply as the protocol recorded it (the last call's text when the record has none). */
  reply: string | null;
  /** What the protocol read from the reply; null on a parse failure or where it reads nothing. */
  parsed: string | null;
  /** What the answer was scored against, when the record holds it (else the item's answer). */
  gold: string | null;
  /** Reasoning text of the calls (providers that return it), joined; null when none. */
  reasoning: string | null;
  reasoningTokens: number | null;
}

function lastReply(t: StoredTranscript): string | null {
  for (let i = t.calls.length - 1; i >= 0; i--) {
    const text = t.calls[i]!.response?.text;
    if (text !== undefined) return text;
  }
  return null;
}

/** The calls' reasoning texts joined, and their reasoning tokens summed; null where none has any. */
function reasoningOf(t: StoredTranscript): { reasoning: string | null; reasoningTokens: number | null } {
  let texts: string[] | undefined;
  let tokens: number | null = null;
  for (const c of t.calls) {
    const r = c.response?.reasoning;
    if (r?.text) (texts ??= []).push(r.text);
    if (r?.tokens !== undefined) tokens = (tokens ?? 0) + r.tokens;
  }
  return { reasoning: texts ? texts.join('\n\n') : null, reasoningTokens: tokens };
}

/**
 * The reply, parsed answer and gold of a stored trial, read by the protocol that wrote it; `where`
 * names the trial in errors (or is a function that names it, called only for an error).
 */
export function trialAnswer(
  t: StoredTranscript,
  where: string | (() => string),
  protocols: readonly ProtocolModule[] = defaultProtocols(),
): TrialAnswer {
  // Each answer made as one object literal (no spread of a base one: a trial makes one object, not three).
  const { reasoning, reasoningTokens } = reasoningOf(t);
  const imported = readRecord(INSPECT_RECORDS, t, where);
  if (imported)
    return {
      reply: imported.reply,
      parsed: imported.answer,
      gold: imported.target.join(' | '),
      reasoning: imported.reasoning ?? null,
      reasoningTokens: imported.reasoningTokens ?? reasoningTokens,
    };
  const reply = lastReply(t);
  const found = storedRecord(protocols, t, where);
  const said = found?.protocol.answer?.(found.record);
  if (!said) return { reply, parsed: null, gold: null, reasoning, reasoningTokens };
  return {
    reply: said.reply === undefined ? reply : said.reply,
    parsed: said.parsed ?? null,
    gold: said.gold ?? null,
    reasoning,
    reasoningTokens,
  };
}
