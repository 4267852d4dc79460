// The DialToM paper's published prospective correctness rates and its easy-hard test, typed from
// Yadav, Achananuparp, Jiang and Lim, "DialToM: A Theory of Mind Benchmark for Forecasting
// State-Driven Dialogue Trajectories" (arXiv:2604.20443): the hard set's rates from Table 3
// (Prospective), the easy set's from Table 6 (Prospective-Easy, without its gain subscripts),
// Table 22's Mann-Whitney U and rank-biserial r per model and domain, and the items behind each
// rate, the released prospective sets' (MI 136, ESC 203, PFG 184; the paper's Table 19 is
// reproduced with these counts). Model names are Table 22's; Table 3's and Table 6's short names
// stand for the same models (Gemini 2.5 P = Gemini 2.5 Pro, Llama 70B = Llama 3.3 70B, ...).
// Llama 3.1 8B is in Tables 3 and 6 but not in Table 22.

import type { RateRow } from './rate-table.js';

export const PAPER_EASY_HARD_SOURCE =
  'Yadav et al., DialToM (arXiv:2604.20443): Table 3 (prospective), Table 6 (prospective-easy), Table 22 (U, r)';

/** Items per domain behind each published prospective rate (the released sets). */
export const PAPER_PROSPECTIVE_ITEMS: Readonly<Record<string, number>> = { MI: 136, ESC: 203, PFG: 184 };

export interface PaperEasyHardRow {
  model: string;
  domain: string;
  /** Percent correct on the prospective (hard) set, Table 3. */
  hard: number;
  /** Percent correct on the prospective-easy set, Table 6. */
  easy: number;
  /** Table 22's U and r; null where the table has no row. */
  u: number | null;
  r: number | null;
}

const DOMAINS = ['MI', 'ESC', 'PFG'] as const;

// Per model: hard MI, ESC, PFG (Table 3); easy MI, ESC, PFG (Table 6); U and r for MI, ESC, PFG (Table 22).
const TABLES: ReadonlyArray<[string, number[], number[], Array<number | null>]> = [
  ['GPT-4.1', [5.88, 12.81, 10.87], [91.18, 90.64, 64.13], [17136.0, -0.853, 36641.5, -0.778, 25944.0, -0.533]],
  ['GPT-5', [14.71, 16.26, 16.85], [94.85, 91.63, 61.96], [16796.0, -0.816, 36438.5, -0.769, 24748.0, -0.462]],
  ['GPT-OSS 120B', [7.35, 15.76, 6.52], [86.76, 78.33, 55.43], [16388.0, -0.772, 33292.0, -0.616, 23736.0, -0.402]],
  ['Gemini 2.5 Pro', [38.24, 29.06, 19.57], [94.85, 95.07, 67.93], [14484.0, -0.566, 34205.5, -0.66, 1052.0, -0.429]],
  ['Gemini 2.5 Flash', [26.47, 25.12, 17.93], [92.65, 91.13, 61.41], [15368.0, -0.662, 34205.5, -0.66, 24288.0, -0.435]],
  ['Kimi K2', [22.06, 25.62, 13.04], [93.38, 89.66, 65.76], [15844.0, -0.713, 33799.5, -0.64, 11672.0, -0.442]],
  ['Qwen3 235B', [17.65, 29.06, 17.93], [88.24, 89.66, 57.61], [15776.0, -0.706, 33089.0, -0.606, 23644.0, -0.397]],
  ['DeepSeek V3', [10.29, 11.82, 10.33], [93.38, 87.68, 61.96], [16932.0, -0.831, 36235.5, -0.759, 25668.0, -0.516]],
  ['Mistral 3.2 24B', [5.88, 4.93, 7.6], [86.03, 82.76, 65.76], [16660.0, -0.802, 36641.5, -0.778, 26772.0, -0.582]],
  ['Mistral Nemo', [6.62, 14.29, 5.44], [77.21, 66.01, 56.52], [15776.0, -0.706, 31262.0, -0.517, 25576.0, -0.511]],
  ['Llama 4 Maverick', [9.56, 11.82, 5.6], [89.71, 90.64, 69.02], [16660.0, -0.802, 36844.5, -0.788, 26864.0, -0.587]],
  ['Llama 3.3 70B', [18.42, 19.7, 7.07], [86.76, 88.18, 58.15], [8738.0, -0.691, 34104.0, -0.655, 25024.0, -0.478]],
  ['Llama 3.1 8B', [6.62, 16.75, 10.33], [75.0, 66.5, 50.0], [null, null, null, null, null, null]],
];

/** The published rates and Table 22's statistics, one row per model and domain. */
export const PAPER_EASY_HARD: readonly PaperEasyHardRow[] = TABLES.flatMap(([model, hard, easy, t22]) =>
  DOMAINS.map((domain, i) => ({ model, domain, hard: hard[i]!, easy: easy[i]!, u: t22[2 * i] ?? null, r: t22[2 * i + 1] ?? null })),
);

/** The published rates as rate rows (prospective and prospective-easy, with the released item counts). */
export function paperEasyHardRates(): RateRow[] {
  return PAPER_EASY_HARD.flatMap((p) => [
    { model: p.model, domain: p.domain, task: 'prospective' as const, rate: p.hard, items: PAPER_PROSPECTIVE_ITEMS[p.domain]!, line: 0 },
    {
      model: p.model,
      domain: p.domain,
      task: 'prospective-easy' as const,
      rate: p.easy,
      items: PAPER_PROSPECTIVE_ITEMS[p.domain]!,
      line: 0,
    },
  ]);
}
