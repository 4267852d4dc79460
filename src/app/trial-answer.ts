// What a trial's record says the subject answered, read through the protocols' record schemas:
// the reply, the answer the protocol read from it and the gold answer it was scored against.
// Multi-part records (StoryTurn turns, Director prompts, EnactToM probes) give JSON lists.

import {
  CONVERSATION_RECORDS,
  DESCRIBE_RECORDS,
  DIRECTOR_RECORDS,
  EPISODE_RECORDS,
  INSPECT_RECORDS,
  MCQ_RECORDS,
  readRecord,
  type StoredTranscript,
} from '../core/index.js';

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

function reasoningOf(t: StoredTranscript): { reasoning: string | null; reasoningTokens: number | null } {
  const texts: string[] = [];
  let tokens: number | null = null;
  for (const c of t.calls) {
    const r = c.response?.reasoning;
    if (r?.text) texts.push(r.text);
    if (r?.tokens !== undefined) tokens = (tokens ?? 0) + r.tokens;
  }
  return { reasoning: texts.length ? texts.join('\n\n') : null, reasoningTokens: tokens };
}

/** The reply, parsed answer and gold of a stored trial; `where` names the trial in errors. */
export function trialAnswer(t: StoredTranscript, where: string): TrialAnswer {
  const base = { reply: lastReply(t), parsed: null, gold: null, ...reasoningOf(t) };
  const mcq = readRecord(MCQ_RECORDS, t, where);
  if (mcq) return { ...base, reply: mcq.reply ?? base.reply, parsed: mcq.parsed ?? null, gold: mcq.correctLabel };
  const story = readRecord(CONVERSATION_RECORDS, t, where);
  if (story)
    return {
      ...base,
      reply: JSON.stringify(story.turns.map((x) => x.reply)),
      parsed: JSON.stringify(story.turns.map((x) => x.answer)),
      gold: JSON.stringify(story.turns.map((x) => x.expected)),
    };
  const director = readRecord(DIRECTOR_RECORDS, t, where);
  if (director) {
    const prompts = { a: director.a, b: director.b, cQ1: director.cQ1, cQ2: director.cQ2 };
    return {
      ...base,
      reply: JSON.stringify(Object.fromEntries(Object.entries(prompts).map(([k, v]) => [k, v.reply]))),
      parsed: JSON.stringify(Object.fromEntries(Object.entries(prompts).map(([k, v]) => [k, v.letters ?? []]))),
    };
  }
  const describe = readRecord(DESCRIBE_RECORDS, t, where);
  if (describe) return { ...base, reply: describe.reply };
  const episode = readRecord(EPISODE_RECORDS, t, where);
  if (episode)
    return {
      ...base,
      parsed: JSON.stringify(episode.probes.map((p) => p.answer)),
      gold: JSON.stringify(episode.probes.map((p) => p.expected)),
    };
  const imported = readRecord(INSPECT_RECORDS, t, where);
  if (imported)
    return {
      ...base,
      reply: imported.reply,
      parsed: imported.answer,
      gold: imported.target.join(' | '),
      reasoning: imported.reasoning ?? null,
    };
  return base;
}
