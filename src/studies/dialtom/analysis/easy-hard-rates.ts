// The easy-hard gap from published rates: a rate over n items is round(rate x n) items right, so
// each set's per-item correctness (0/1) is known up to the order of the items, which a rank test
// does not see; easyHardGap then gives Mann-Whitney U of the easy set, its p and the rank-biserial
// r exactly as it does for a stored run. From the paper's Tables 3 and 6 with the released item
// counts this reproduces 24 of Table 22's 36 (U, r) cells (U exactly, r to its 0.001); the other
// twelve (every GPT-5, GPT-OSS 120B and Llama 3.3 70B cell, and PFG of Gemini 2.5 Pro, Kimi K2
// and Llama 4 Maverick) do not follow from Tables 3 and 6 (GPT-5 MI's U of 16796 implies 18 of 136
// right on the hard set, where Table 3 gives 14.71%, 20 of 136).

import { easyHardGap } from './dialtom-gaps.js';
import { PAPER_EASY_HARD } from './published-easy-hard.js';
import type { RateRow } from './rate-table.js';

export interface EasyHardFromRates {
  model: string;
  domain: string;
  /** Items and right answers per set (round(rate x items)). */
  itemsHard: number;
  itemsEasy: number;
  rightHard: number;
  rightEasy: number;
  /** Percent correct, as given. */
  hard: number;
  easy: number;
  u: number;
  p: number;
  rankBiserial: number;
  /** The paper's Table 22 values for this model and domain, when the rates are the paper's; null otherwise. */
  paper: { u: number; r: number } | null;
  /** Whether U equals the paper's and r rounds to it (to 0.001); null without the paper's values. */
  reproduced: boolean | null;
}

const ones = (right: number, n: number) => Array.from({ length: n }, (_, i) => (i < right ? 1 : 0));

/**
 * The easy-hard gap of every model and domain that has both a prospective and a
 * prospective-easy rate; `paper` (Table 22) is attached where model and domain are in it and
 * `withPaper` is set (the rates are the paper's).
 */
export function easyHardFromRates(rows: readonly RateRow[], withPaper = false): EasyHardFromRates[] {
  const out: EasyHardFromRates[] = [];
  for (const hard of rows.filter((r) => r.task === 'prospective')) {
    const easy = rows.find((r) => r.task === 'prospective-easy' && r.model === hard.model && r.domain === hard.domain);
    if (!easy) continue;
    const rightHard = Math.round((hard.rate / 100) * hard.items);
    const rightEasy = Math.round((easy.rate / 100) * easy.items);
    const gap = easyHardGap(ones(rightHard, hard.items), ones(rightEasy, easy.items));
    const published = withPaper ? PAPER_EASY_HARD.find((p) => p.model === hard.model && p.domain === hard.domain) : undefined;
    const paper = published && published.u !== null && published.r !== null ? { u: published.u, r: published.r } : null;
    out.push({
      model: hard.model,
      domain: hard.domain,
      itemsHard: hard.items,
      itemsEasy: easy.items,
      rightHard,
      rightEasy,
      hard: hard.rate,
      easy: easy.rate,
      u: gap.u,
      p: gap.p,
      rankBiserial: gap.rankBiserial,
      paper,
      reproduced: paper ? paper.u === gap.u && Math.abs(paper.r - gap.rankBiserial) <= 0.001 + 1e-9 : null,
    });
  }
  return out;
}
