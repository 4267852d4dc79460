// Descriptive statistics of a DialToM item set (the released one, or one `dialtom build` made),
// as the paper's Tables 2 and 9 give them: per domain, the number of contexts (dialogue
// windows), words and turns per context, words per turn (total words over total turns, so that
// it equals words per context over turns per context, as in Table 2), and the questions per
// task and per attribute. Words are the whitespace-separated tokens of each utterance after its
// "speaker:" label; contexts are read from the retrospective items (the prospective items show
// the states, not the dialogue).

import type { Item, McqPayload } from '../../../core/index.js';

export interface DialtomDomainStats {
  domain: string;
  contexts: number;
  wordsPerContext: number;
  turnsPerContext: number;
  wordsPerTurn: number;
  retrospective: number;
  prospective: number;
  /** Questions per attribute (Belief, Desires, ...), per task. */
  byAttribute: Record<string, { retrospective: number; prospective: number }>;
}

/** Words of one "speaker: text" turn, the speaker label left out. */
export function turnWords(turn: string): number {
  const text = turn.replace(/^[^:\n]{1,40}:\s*/, '');
  return text.split(/\s+/).filter(Boolean).length;
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
    const contexts = contextsOf(retro);
    const words = contexts.map((turns) => turns.reduce((s, t) => s + turnWords(t), 0));
    const turns = contexts.map((t) => t.length);
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
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
    return {
      domain,
      contexts: contexts.length,
      wordsPerContext: contexts.length ? sum(words) / contexts.length : Number.NaN,
      turnsPerContext: contexts.length ? sum(turns) / contexts.length : Number.NaN,
      wordsPerTurn: sum(turns) ? sum(words) / sum(turns) : Number.NaN,
      retrospective: retro.length,
      prospective: pro.length,
      byAttribute,
    };
  };
  const inDomain = (items: readonly Item<McqPayload>[], d: string) => items.filter((i) => String(i.meta.domain ?? 'all') === d);
  const rows = domains.map((d) => row(d, inDomain(retrospective, d), inDomain(prospective, d)));
  if (domains.length > 1) rows.push(row('overall', retrospective, prospective));
  return rows;
}
