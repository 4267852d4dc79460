// Descriptive statistics of a DialToM item set (the released one, or one `dialtom build` made),
// as the paper's Tables 2 and 9 give them: per domain, the number of contexts (dialogue
// windows), words and turns per context, words per turn (words per context over turns per
// context, as in Table 2), and the questions per task and per attribute. Contexts are read from
// the retrospective items (the prospective items show the states, not the dialogue).
//
// Counted as the paper counts them. A turn is an exchange: one utterance of each speaker, so a
// window of n utterances ("speaker: text" lines) has floor(n / 2) turns; words are the
// whitespace-separated tokens of each line, the speaker label included. Over the 5,943 windows
// the benchmark was built from (the authors' original_data, MI 865, ESC 3,212, PFG 1,863) this
// gives Table 2's turns per context (MI 5.30, ESC 4.48, PFG 5.39) and its words per context for MI
// (188.2) and ESC (205.0); the released, human-verified items are a subset of those windows
// (93, 100 and 111 of them), so their means differ from the paper's.

import type { Item, McqPayload } from '../../../core/index.js';

export interface DialtomDomainStats {
  domain: string;
  contexts: number;
  wordsPerContext: number;
  /** Exchanges (one utterance of each speaker) per context: floor(utterances / 2), as the paper counts turns. */
  turnsPerContext: number;
  /** Utterances ("speaker: text" lines) per context. */
  utterancesPerContext: number;
  wordsPerTurn: number;
  retrospective: number;
  prospective: number;
  /** Questions per attribute (Belief, Desires, ...), per task. */
  byAttribute: Record<string, { retrospective: number; prospective: number }>;
}

/** Words of one "speaker: text" utterance: its whitespace-separated tokens, the speaker label included (as the paper counts). */
export function turnWords(turn: string): number {
  return turn.split(/\s+/).filter(Boolean).length;
}

/** Turns of a window as the paper counts them: exchanges of one utterance of each speaker, floor(utterances / 2). */
export function contextTurns(utterances: number): number {
  return Math.floor(utterances / 2);
}

/** Contexts, words, turns and utterances of dialogue windows (each a list of "speaker: text" utterances). */
export function contextStats(
  contexts: readonly string[][],
): Pick<DialtomDomainStats, 'contexts' | 'wordsPerContext' | 'turnsPerContext' | 'utterancesPerContext' | 'wordsPerTurn'> {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const words = sum(contexts.map((turns) => sum(turns.map(turnWords))));
  const turns = sum(contexts.map((t) => contextTurns(t.length)));
  const n = contexts.length;
  return {
    contexts: n,
    wordsPerContext: n ? words / n : Number.NaN,
    turnsPerContext: n ? turns / n : Number.NaN,
    utterancesPerContext: n ? sum(contexts.map((t) => t.length)) / n : Number.NaN,
    wordsPerTurn: turns ? words / turns : Number.NaN,
  };
}

/**
 * Per-domain statistics of DialToM items (retrospective items give the contexts; prospective
 * items are counted), with an `overall` row whose means are over all contexts.
 */
export function dialtomDatasetStats(
  retrospective: readonly Item<McqPayload>[],
  prospective: readonly Item<McqPayload>[] = [],
): DialtomDomainStats[] {
  const domains = [...new Set([...retrospective, ...prospective].map((i) => String(i.meta.domain ?? 'all')))].sort();
  const contextsOf = (items: readonly Item<McqPayload>[]) => {
    const seen = new Map<string, string[]>();
    for (const i of items) {
      const id = `${String(i.meta.domain)}\u0000${String(i.meta.dialogueId ?? i.id)}`;
      if (!seen.has(id))
        seen.set(
          id,
          i.payload.context.split('\n').filter((t) => t.trim()),
        );
    }
    return [...seen.values()];
  };
  const row = (domain: string, retro: readonly Item<McqPayload>[], pro: readonly Item<McqPayload>[]): DialtomDomainStats => {
    const byAttribute: DialtomDomainStats['byAttribute'] = {};
    for (const [task, items] of [
      ['retrospective', retro],
      ['prospective', pro],
    ] as const) {
      for (const i of items) {
        const a = String(i.meta.state ?? i.category);
        byAttribute[a] ??= { retrospective: 0, prospective: 0 };
        byAttribute[a][task]++;
      }
    }
    return { domain, ...contextStats(contextsOf(retro)), retrospective: retro.length, prospective: pro.length, byAttribute };
  };
  const inDomain = (items: readonly Item<McqPayload>[], d: string) => items.filter((i) => String(i.meta.domain ?? 'all') === d);
  const rows = domains.map((d) => row(d, inDomain(retrospective, d), inDomain(prospective, d)));
  if (domains.length > 1) rows.push(row('overall', retrospective, prospective));
  return rows;
}
