// Reasoning-trace injection (DialToM): a teacher's explanation is shown to the student with
// every direct or indirect reference to an option masked as [MASK], so that it can help the
// reasoning but cannot give the answer away. Deterministic rules: the options' texts (and any
// run of four or more of an option's consecutive words), option labels ("option B", "(B)",
// "B)" / "B." opening a sentence, "answer is B"), and ordinal references ("the second option").

import { InputError, readJsonLines } from '../../core/index.js';

const ORDINALS = 'first|second|third|fourth|fifth|last';

// Words that make a following capital letter an option label ("options A and C", "pick B").
const LABEL_CUES =
  'options?|choices?|answers?|letters?|alternatives?|pick(?:ed|s)?|choose|chose|chosen|select(?:ed|s)?|between|and|or|nor|not|than|vs\\.?|versus|is|be|was|are|were|either|neither|both';
// Words after which "A" is a label rather than the article ("A is correct", "A seems right").
const LABEL_VERBS =
  "is|was|are|were|seems?|looks?|would|could|should|must|can|cannot|can't|does|doesn't|did|has|fits?|matches|remains|states|says|describes|suggests|best|correct|wrong|incorrect|right|makes|gives|captures|reflects";

/**
 * Replace option labels (the first `n` capital letters) where they are used as labels. A
 * capital letter standing alone (no ASCII letter on either side) is a label; "A" alone is the
 * article unless punctuation, a label cue before it, or a verb after it says otherwise.
 */
function maskLabels(text: string, n: number, count: () => void): string {
  const last = String.fromCharCode(64 + Math.max(1, Math.min(26, n)));
  const letters = `A-${last}`;
  // Lower-case labels after an explicit cue: "option b", "answer (c)".
  let out = text.replace(
    new RegExp(`\\b(options?|choices?|answer(?:\\s+is)?)(\\s*[:：]?\\s*[(（\\[]?\\s*)([a-${last.toLowerCase()}])(?![A-Za-z])`, 'g'),
    (_m, w: string, gap: string) => {
      count();
      return `${w}${gap}[MASK]`;
    },
  );
  const single = new RegExp(`(?<![A-Za-z])([${letters}])(?![A-Za-z'’])`, 'g');
  out = out.replace(single, (m, letter: string, offset: number, whole: string) => {
    // "A" (the article) and "I" (the pronoun) are labels only where the context says so.
    if (letter === 'A' || letter === 'I') {
      const before = whole.slice(Math.max(0, offset - 40), offset);
      const after = whole.slice(offset + 1, offset + 40);
      const punctuated = /^\s*(?:$|[.,;:!?)\]*）】」』]|\s*\n)/.test(after) || /[([*（【「『:：]\s*$/.test(before);
      const cued = new RegExp(`(?:^|[^A-Za-z])(?:${LABEL_CUES})\\s*[,:：]?\\s*$`, 'i').test(before);
      const verb = letter === 'A' && new RegExp(`^\\s+(?:${LABEL_VERBS})\\b`, 'i').test(after);
      if (!punctuated && !cued && !verb) return m;
    }
    count();
    return '[MASK]';
  });
  return out;
}

/** Where a text's sentences start: runs with words, ending in . ! ? (or their full-width forms), a line break or the end. */
function sentenceStarts(text: string): number[] {
  return [...text.matchAll(/[^.!?。！？\n]+(?:[.!?。！？]+|\n+|$)/g)].filter((m) => m[0].trim()).map((m) => m.index);
}

/**
 * The text without its last `n` sentences (a sentence ends in . ! ? or a line break), trimmed;
 * a text of `n` sentences or fewer becomes empty. The DialToM paper drops a teacher trace's last
 * five sentences, where it declares its answer and sums up (Appendix L.3).
 */
export function dropLastSentences(text: string, n: number): string {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`dropLastSentences: n must be a whole number >= 0, not ${n}`);
  if (n === 0) return text;
  const t = text.trimEnd();
  const starts = sentenceStarts(t);
  return starts.length > n ? t.slice(0, starts[starts.length - n]).trimEnd() : '';
}

/** The text without its last sentence (dropLastSentences(text, 1)). */
export function dropLastSentence(text: string): string {
  return dropLastSentences(text, 1);
}

/** How many sentences a drop-last setting drops: true is one, false none. */
function sentencesToDrop(dropLast: boolean | number | undefined): number {
  return dropLast === true ? 1 : typeof dropLast === 'number' ? dropLast : 0;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Mask every reference to an option in a teacher's trace: option texts (and runs of four or
 * more of an option's words), labels in any phrasing ("Answer: C", "I pick C.", "B is correct",
 * "Options A and C are wrong", "**C**", "（C）", "答案是C"), and ordinals ("the second option").
 * `dropLast` also drops the trace's last sentence (true) or last N sentences, where teachers
 * state their pick (the DialToM paper drops five).
 */
export function maskOptionReferences(
  trace: string,
  options: string[],
  dropLast: boolean | number = false,
): { masked: string; masks: number } {
  let masks = 0;
  let text = trace;
  const replace = (re: RegExp, by: string | ((...m: string[]) => string)) => {
    text = text.replace(re, (...m: string[]) => {
      masks++;
      return typeof by === 'string' ? by : by(...m);
    });
  };
  // Whole option texts, longest first; then any run of four or more consecutive words that an
  // option also contains (found through the options' word 4-grams, in one pass over the trace).
  for (const o of [...options].sort((a, b) => b.length - a.length)) {
    const t = o.trim().replace(/[.!?]+$/, '');
    if (t.length >= 3) replace(new RegExp(escapeRegExp(t), 'gi'), '[MASK]');
  }
  const norm = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}']/gu, '');
  const grams = new Set<string>();
  for (const o of options) {
    const w = o.split(/\s+/).map(norm).filter(Boolean);
    for (let i = 0; i + 4 <= w.length; i++) grams.add(w.slice(i, i + 4).join(' '));
  }
  // Word spans without trailing punctuation, so that a masked run keeps the comma after it.
  const words = [...text.matchAll(/\S+/g)].map((m) => ({
    start: m.index!,
    end: m.index! + m[0].replace(/[^\p{L}\p{N}']+$/u, '').length,
    w: norm(m[0]),
  }));
  const covered = new Uint8Array(words.length);
  for (let i = 0; i + 4 <= words.length; i++) {
    if (
      grams.has(
        words
          .slice(i, i + 4)
          .map((x) => x.w)
          .join(' '),
      )
    )
      covered.fill(1, i, i + 4);
  }
  let rebuilt = '';
  let at = 0;
  for (let i = 0; i < words.length; ) {
    if (!covered[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < words.length && covered[j + 1]) j++;
    rebuilt += `${text.slice(at, words[i]!.start)}[MASK]`;
    at = words[j]!.end;
    masks++;
    i = j + 1;
  }
  text = rebuilt + text.slice(at);
  // A label opening a sentence ("D) is the answer") is masked with its bracket.
  replace(/(^|[.!?]\s+)([A-H])[).:]\s/g, (_m, lead: string) => `${lead}[MASK] `);
  text = maskLabels(text, options.length, () => masks++);
  replace(
    new RegExp(`\\b(the)\\s+(${ORDINALS})\\s+(option|choice|answer)\\b`, 'gi'),
    (_m, the: string, _o: string, w: string) => `${the} [MASK] ${w}`,
  );
  const drop = sentencesToDrop(dropLast);
  if (drop > 0) {
    const trimmed = dropLastSentences(text, drop);
    if (trimmed !== text) masks++;
    text = trimmed;
  }
  return { masked: text, masks };
}

export const TRACE_PREFIX = "A teacher's reasoning about this item (every reference to an option is hidden as [MASK]):";

/** Teacher explanations: JSON lines with item_id (or id) and trace. */
export function readTraces(path: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const { line, value } of readJsonLines(path)) {
    const id = String(value.item_id ?? value.id ?? '');
    if (!id || typeof value.trace !== 'string') throw new InputError('each line needs item_id and trace', path, line);
    map.set(id, value.trace);
  }
  return map;
}
