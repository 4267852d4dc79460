// Reasoning-trace injection (DialToM): a teacher's explanation is shown to the student with
// every direct or indirect reference to an option masked as [MASK], so that it can help the
// reasoning but cannot give the answer away. Deterministic rules: the options' texts (and any
// run of four or more of an option's consecutive words), option labels ("option B", "(B)",
// "B)" / "B." opening a sentence, "answer is B"), and ordinal references ("the second option").

import { InputError, readJsonLines } from '../../core/index.js';

const ORDINALS = 'first|second|third|fourth|fifth|last';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function maskOptionReferences(trace: string, options: string[]): { masked: string; masks: number } {
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
  replace(/\b(option|choice|answer(?:\s+is)?)\s*\(?([A-H])\)?(?![A-Za-z])/gi, (_m, word: string) => `${word} [MASK]`);
  replace(/\(([A-H])\)/g, '([MASK])');
  replace(/(^|[.!?]\s+)([A-H])[).:]\s/g, (_m, lead: string) => `${lead}[MASK] `);
  replace(new RegExp(`\\bthe\\s+(${ORDINALS})\\s+(option|choice|answer)\\b`, 'gi'), (_m, _o: string, w: string) => `the [MASK] ${w}`);
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
