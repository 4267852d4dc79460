// Messages between mindscope's transcripts and Inspect AI's ChatMessage lists, both ways.
// Images travel as Inspect image parts (URLs or data URIs); a video becomes a text note naming
// it (Inspect's video part wants a file format mindscope does not record); reasoning becomes a
// reasoning part of the assistant message.

import type { CallRecordSchema, ChatMessage } from '../core/index.js';
import type { z } from 'zod';
import type { InspectChatMessage } from './inspect-log-schema.js';

type CallRecord = z.infer<typeof CallRecordSchema>;

function toInspectContent(content: ChatMessage['content']): InspectChatMessage['content'] {
  if (typeof content === 'string') return content;
  return content.map((p) =>
    p.type === 'text'
      ? { type: 'text', text: p.text }
      : p.type === 'image'
        ? { type: 'image', image: p.url }
        : { type: 'text', text: `[video: ${p.url}]` },
  );
}

function toInspectMessage(m: ChatMessage, source: 'input' | 'generate'): InspectChatMessage {
  return { role: m.role, content: toInspectContent(m.content), source };
}

function assistant(text: string, reasoning: string | undefined, model: string): InspectChatMessage {
  return {
    role: 'assistant',
    content: reasoning
      ? [
          { type: 'reasoning', reasoning },
          { type: 'text', text },
        ]
      : text,
    source: 'generate',
    model,
  };
}

/** A prompt's messages as Inspect input messages. */
export function promptToInspect(messages: readonly ChatMessage[]): InspectChatMessage[] {
  return messages.map((m) => toInspectMessage(m, 'input'));
}

/** A reply and its reasoning (a reasoning part before the text, when there is any) as an Inspect assistant message. */
export function assistantToInspect(text: string, reasoning: string | null | undefined, model: string): InspectChatMessage {
  return assistant(text, reasoning ?? undefined, model);
}

/** A call's reply as the Inspect assistant message that follows its prompt. */
export function replyToInspect(response: NonNullable<CallRecord['response']>, model: string): InspectChatMessage {
  return assistant(response.text, response.reasoning?.text, model);
}

/**
 * A trial's calls as one Inspect conversation: the first call's messages are the input; a later
 * call that continues the conversation so far adds only its new messages; each reply follows.
 */
export function callsToInspect(calls: CallRecord[], model: string): { input: InspectChatMessage[]; messages: InspectChatMessage[] } {
  const sent: ChatMessage[] = [];
  const messages: InspectChatMessage[] = [];
  let input: InspectChatMessage[] = [];
  for (const c of calls) {
    if (c.kind !== 'chat' || !c.messages) continue;
    const continues = c.messages.length >= sent.length && sent.every((m, i) => JSON.stringify(m) === JSON.stringify(c.messages![i]));
    const fresh = continues ? c.messages.slice(sent.length) : c.messages;
    if (!continues) sent.length = 0;
    const converted = promptToInspect(fresh);
    if (input.length === 0) input = converted;
    messages.push(...converted);
    sent.push(...fresh);
    if (c.response) {
      messages.push(replyToInspect(c.response, model));
      sent.push({ role: 'assistant', content: c.response.text });
    }
  }
  return { input, messages };
}

/** The text of an Inspect message (its text parts joined); reasoning parts are left out. */
export function inspectText(content: InspectChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return content
    .filter((p) => p.type === 'text' && p.text !== undefined)
    .map((p) => p.text)
    .join('\n');
}

/** The reasoning text of an Inspect message, if it has reasoning parts. */
export function inspectReasoning(content: InspectChatMessage['content']): string | undefined {
  if (typeof content === 'string') return undefined;
  const parts = content.filter((p) => p.type === 'reasoning' && p.reasoning !== undefined).map((p) => p.reasoning);
  return parts.length ? parts.join('\n\n') : undefined;
}

/** Inspect messages as mindscope chat messages (tool messages become user messages marked as tool output). */
export function inspectToMessages(messages: InspectChatMessage[]): ChatMessage[] {
  return messages.map((m) => {
    const role = m.role === 'tool' ? 'user' : m.role;
    if (typeof m.content === 'string') return { role, content: m.role === 'tool' ? `[tool] ${m.content}` : m.content };
    const parts = m.content.flatMap((p): Exclude<ChatMessage['content'], string> => {
      if (p.type === 'text' && p.text !== undefined) return [{ type: 'text', text: p.text }];
      if (p.type === 'image' && p.image !== undefined) return [{ type: 'image', url: p.image }];
      return [];
    });
    return { role, content: parts };
  });
}
