// Answer extraction for multiple-choice replies. It records which rule matched, so that a
// report can show how answers were read; a reply that no rule reads is a parse failure
// (scored 0 and counted per subject), never a crash.

import type { McqOption } from '../../core/index.js';

export type ExtractMethod = 'answer-tag' | 'leading-label' | 'bare-label' | 'option-text' | 'none';

export interface ExtractedAnswer {
  label: string | null;
  method: ExtractMethod;
}

const normalise = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/**
 * The option a reply chooses, and the rule that read it. `patterns` (a template's
 * answerPatterns, e.g. ToMBench's "[[A]]") are tried first, in order, the first match of each;
 * their first group is the label.
 */
export function extractAnswer(reply: string, options: McqOption[], patterns: readonly string[] = []): ExtractedAnswer {
  const labels = new Set(options.map((o) => o.label));
  const text = reply.replace(/\*\*/g, '').trim();
  const valid = (l: string | undefined) => (l && labels.has(l.toUpperCase()) ? l.toUpperCase() : null);
  for (const p of patterns) {
    const l = valid(new RegExp(p).exec(reply)?.[1]);
    if (l) return { label: l, method: 'answer-tag' };
  }

  // "Answer: B", "answer is (B)", "Final answer: B." — the last such statement wins.
  // The letter must be upper case: "the answer is a cat" names no option.
  const tagged = [...text.matchAll(/(?:answer|Answer|ANSWER)(?:\s+is)?\s*[:：]?\s*[([]?\s*([A-Z])\s*[)\]]?(?=[\s.,;:!)]|$)/g)];
  for (let i = tagged.length - 1; i >= 0; i--) {
    const l = valid(tagged[i]![1]);
    if (l) return { label: l, method: 'answer-tag' };
  }
  // "B. text", "(B) text", "B) text", "B: ..." at the start of the reply.
  const leading = /^[([]?([A-Z])[)\].:](?:\s|$)/.exec(text);
  if (leading && valid(leading[1])) return { label: valid(leading[1]), method: 'leading-label' };
  // The reply is just a label.
  const bare = /^[([]?([A-Za-z])[)\].]?$/.exec(text);
  if (bare && valid(bare[1])) return { label: valid(bare[1]), method: 'bare-label' };
  // The reply names exactly one option's text.
  const norm = normalise(text);
  if (norm) {
    const exact = options.filter((o) => normalise(o.text) === norm);
    if (exact.length === 1) return { label: exact[0]!.label, method: 'option-text' };
    const contained = options.filter((o) => normalise(o.text).length > 0 && ` ${norm} `.includes(` ${normalise(o.text)} `));
    if (contained.length === 1) return { label: contained[0]!.label, method: 'option-text' };
  }
  return { label: null, method: 'none' };
}
