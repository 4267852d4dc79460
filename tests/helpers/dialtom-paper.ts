// DialToM paper numbers shared by tests/dialtom-analysis.test.ts and tests-shared/dialtom-tables.test.ts:
// Table 3's rates and Table 19's chi-square and Cramer's V (typed from the paper), the item counts the
// paper reports, and the rates table the analysis reads.

import { loadDialtom } from '../../src/studies/dialtom/index.js';

// Table 3: retrospective MI, ESC, PFG; prospective MI, ESC, PFG (percent).
const TABLE3: Record<string, number[]> = {
  'Gemini 3 Pro': [97.71, 99.15, 98.78, 83.09, 80.46, 86.96],
  'GPT-5': [93.46, 95.2, 95.28, 14.71, 16.26, 16.85],
  'GPT-4.1': [93.14, 94.07, 94.4, 5.88, 12.81, 10.87],
  'GPT-OSS 120B': [75.49, 88.98, 85.25, 7.35, 15.76, 6.52],
  'Gemini 2.5 Pro': [92.48, 97.18, 94.99, 38.24, 29.06, 19.57],
  'Gemini 2.5 Flash': [94.77, 95.48, 94.4, 26.47, 25.12, 17.93],
  'Kimi K2': [92.16, 95.48, 93.22, 22.06, 25.62, 13.04],
  'DeepSeek V3': [96.73, 97.74, 98.82, 10.29, 11.82, 10.33],
  'Mistral 3.2 24B': [61.11, 68.64, 74.34, 5.88, 4.93, 7.6],
  'Mistral Nemo': [42.16, 52.26, 56.64, 6.62, 14.29, 5.44],
  'Qwen3 235B': [95.1, 97.18, 97.94, 17.65, 29.06, 17.93],
  'Llama 3.3 70B': [77.45, 84.75, 87.91, 18.42, 19.7, 7.07],
  'Llama 4 Maverick': [87.58, 87.57, 79.28, 9.56, 11.82, 5.6],
};

// Table 19: chi-square and V for MI, ESC, PFG.
export const TABLE19: Record<string, number[]> = {
  'Gemini 3 Pro': [29.56, 0.259, 61.78, 0.333, 30.83, 0.243],
  'Gemini 2.5 Pro': [148.08, 0.579, 295.81, 0.729, 310.66, 0.771],
  'Gemini 2.5 Flash': [223.4, 0.711, 299.86, 0.734, 314.34, 0.775],
  'GPT-5': [270.48, 0.782, 356.98, 0.801, 331.87, 0.797],
  'GPT-4.1': [316.89, 0.847, 368.29, 0.813, 362.13, 0.832],
  'GPT-OSS 120B': [173.56, 0.627, 291.37, 0.723, 299.39, 0.757],
  'Kimi K2': [219.48, 0.705, 296.66, 0.73, 333.49, 0.799],
  'Qwen3 235B': [272.05, 0.785, 295.81, 0.729, 358.25, 0.828],
  'DeepSeek V3': [331.74, 0.866, 423.2, 0.872, 422.99, 0.899],
  'Mistral 3.2 24B': [114.26, 0.508, 208.73, 0.612, 209.82, 0.633],
  'Mistral Nemo': [53.74, 0.349, 77.04, 0.372, 129.75, 0.498],
  'Llama 4 Maverick': [244.15, 0.743, 305.2, 0.74, 258.86, 0.704],
  'Llama 3.3 70B': [133.65, 0.55, 226.78, 0.638, 320.01, 0.782],
};

export const DOMAINS = ['MI', 'ESC', 'PFG'];

export type ItemCounts = Record<'retrospective' | 'prospective', Record<string, number>>;

/** The item counts per task and domain the paper reports (and the release holds; tests-shared checks that). */
export const PUBLISHED_ITEMS: ItemCounts = {
  retrospective: { MI: 306, ESC: 354, PFG: 339 },
  prospective: { MI: 136, ESC: 203, PFG: 184 },
};

/** Items per task and domain, counted from the files under a data folder. */
export function itemCounts(data: string): ItemCounts {
  const out: ItemCounts = { retrospective: {}, prospective: {} };
  for (const task of ['retrospective', 'prospective'] as const) {
    for (const it of loadDialtom(data, task).items) out[task][String(it.meta.domain)] = (out[task][String(it.meta.domain)] ?? 0) + 1;
  }
  return out;
}

/** Table 3 as the rates CSV `analyze dialtom --rates` reads, with the given item counts. */
export function ratesCsv(n: ItemCounts): string {
  const lines = ['model,domain,task,correct_rate,items'];
  for (const [model, r] of Object.entries(TABLE3)) {
    DOMAINS.forEach((d, i) => {
      lines.push(`${model},${d},retrospective,${r[i]},${n.retrospective[d]}`);
      lines.push(`${model},${d},prospective,${r[3 + i]},${n.prospective[d]}`);
    });
  }
  return `${lines.join('\n')}\n`;
}
