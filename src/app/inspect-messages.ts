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

/** The places of the model's replies in a conversation stored whole: those given, else its assistant messages. */
function replyPlaces(conversation: readonly ChatMessage[], generated: readonly number[] | undefined): Set<number> {
  if (generated) return new Set(generated);
  return new Set(conversation.flatMap((m, i) => (m.role === 'assistant' ? [i] : [])));
}

/**
 * A conversation stored whole (a trial imported from an Inspect log; `generated`: the places of
 * the model's replies, else its assistant messages) as one Inspect conversation: the messages
 * before the first reply are the input; each reply is the model's.
 */
export function conversationToInspect(
  conversation: readonly ChatMessage[],
  generated: readonly number[] | undefined,
  model: string,
): { input: InspectChatMessage[]; messages: InspectChatMessage[] } {
  const replies = replyPlaces(conversation, generated);
  const messages = conversation.map((m, i) =>
    replies.has(i) ? { ...toInspectMessage(m, 'generate'), model } : toInspectMessage(m, 'input'),
  );
  const first = messages.findIndex((_, i) => replies.has(i));
  return { input: first < 0 ? messages : messages.slice(0, first), messages };
}

/**
 * The message lists a conversation stored whole was sent as, call by call (`generated` as for
 * conversationToInspect): each reply's conversation before it, from the last message that starts
 * the conversation over (one equal to its first: callsToInspect writes a call that does not
 * continue the conversation whole after it); the whole conversation when it holds no reply.
 */
export function conversationPrompts(conversation: readonly ChatMessage[], generated: readonly number[] | undefined): ChatMessage[][] {
  const replies = replyPlaces(conversation, generated);
  const first = JSON.stringify(conversation[0]);
  const prompts: ChatMessage[][] = [];
  let start = 0;
  let after = 0;
  conversation.forEach((_, i) => {
    if (!replies.has(i)) return;
    if (after > 0 && i > after && JSON.stringify(conversation[after]) === first) start = after;
    if (i > start) prompts.push(conversation.slice(start, i));
    after = i + 1;
  });
  return prompts.length || conversation.length === 0 ? prompts : [[...conversation]];
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
