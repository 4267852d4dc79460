// DialToM's qualitative pairwise comparison of reasoning traces (the paper's Appendix K.5): for
// each Prospective item, a judge panel scores two teachers' masked traces side by side on four
// dimensions (0-2 each: attribute coverage, elimination specificity, consistency verification,
// surface vs. structural language). The judge is not told which model wrote which trace: the two
// are put in a seeded order per item and the scores mapped back. Per dimension the result gives
// each source's mean, the items each scored higher, and the two-sided sign test of those wins.

import { createRng, deriveSeed, InputError, type Item, type McqPayload } from '../../../core/index.js';
import { aggregate, loadRubric, scoreWithPanel } from '../../../judges/index.js';
import { maskOptionReferences } from '../../../protocols/index.js';
import { binomialTest } from '../../../stats/index.js';
import type { Store } from '../../../store/index.js';
import { judgeCallers, type Registry } from '../../../app/index.js';

export interface TracePairDimension {
  dimension: string;
  /** Means of the two trace sources (a and b as given, not as shown to the judge). */
  meanA: number;
  meanB: number;
  winsA: number;
  winsB: number;
  ties: number;
  /** Two-sided exact sign test of winsA in winsA + winsB (null when every item is a tie). */
  pSign: number | null;
}

export interface TracePairResult {
  names: { a: string; b: string };
  items: number;
  judgeFailures: number;
  dimensions: TracePairDimension[];
  /** Per item: whether b was shown first, each source's scores, and the judges' raw replies. */
  perItem: Array<{ item: string; swapped: boolean; a: Record<string, number>; b: Record<string, number>; raw: string[][] }>;
}

/**
 * Judge two trace sources (maps item id -> trace, e.g. readTraces of two JSONL files) on the
 * items they share, with a pairwise rubric whose fields come in a_NAME / b_NAME pairs
 * (rubrics/dialtom-trace-pair.yaml). Traces are masked as for injection (maskOptionReferences).
 */
export async function judgeTracePairs(opts: {
  store: Store;
  items: readonly Item<McqPayload>[];
  traces: { a: Map<string, string>; b: Map<string, string> };
  names?: { a: string; b: string };
  judges: string[];
  rubricPath?: string;
  seed?: number;
  /** Drop each trace's last sentence (true) or last N sentences before it is masked and judged. */
  dropLast?: boolean | number;
  apiKeyEnv?: string;
  registry?: Registry;
}): Promise<TracePairResult> {
  const rubric = loadRubric(opts.rubricPath ?? 'dialtom-trace-pair');
  const dims = rubric.fields
    .filter((f) => f.name.startsWith('a_') && rubric.fields.some((g) => g.name === `b_${f.name.slice(2)}`))
    .map((f) => f.name.slice(2));
  if (dims.length === 0) throw new InputError('a pairwise rubric needs fields in pairs a_NAME and b_NAME', rubric.file);
  const shared = opts.items.filter((i) => opts.traces.a.has(i.id) && opts.traces.b.has(i.id));
  if (shared.length === 0) throw new InputError('the two trace files share no item of the suite');
  const { callers, models } = judgeCallers(opts.store, opts.judges, { useCache: true, apiKeyEnv: opts.apiKeyEnv, registry: opts.registry });
  const names = opts.names ?? { a: 'a', b: 'b' };
  const result: TracePairResult = { names, items: 0, judgeFailures: 0, dimensions: [], perItem: [] };
  try {
    for (const item of shared) {
      const mask = (t: string) => maskOptionReferences(t, item.payload.options, opts.dropLast ?? false).masked;
      const a = mask(opts.traces.a.get(item.id)!);
      const b = mask(opts.traces.b.get(item.id)!);
      const swapped = createRng(deriveSeed('trace-pair', opts.seed ?? 0, item.suite, item.id)).next() < 0.5;
      const [first, second] = swapped ? [b, a] : [a, b];
      const wrong = item.payload.options.filter((o) => o !== item.answer);
      const panel = await scoreWithPanel(callers, rubric, {
        subject: 'trace-pair',
        response: `${first}\n\n${second}`,
        vars: {
          trace_a: first,
          trace_b: second,
          domain: String(item.meta.domain ?? ''),
          mental_state_profile: String(item.meta.profile ?? item.payload.context),
          correct_option: item.answer,
          distractor_1: wrong[0] ?? '',
          distractor_2: wrong[1] ?? '',
          distractor_3: wrong[2] ?? '',
        },
      });
      result.judgeFailures += panel.failures;
      if (!panel.aggregate) continue;
      const shown = (side: 'a' | 'b') => Object.fromEntries(dims.map((d) => [d, panel.aggregate![`${side}_${d}`]!]));
      result.perItem.push({
        item: item.id,
        swapped,
        a: swapped ? shown('b') : shown('a'),
        b: swapped ? shown('a') : shown('b'),
        raw: panel.judges.map((j) => j.raw),
      });
    }
  } finally {
    await Promise.all(models.map((m) => m.close?.()));
  }
  result.items = result.perItem.length;
  result.dimensions = dims.map((dimension) => {
    const pairs = result.perItem.map((p) => [p.a[dimension]!, p.b[dimension]!] as const);
    const winsA = pairs.filter(([x, y]) => x > y).length;
    const winsB = pairs.filter(([x, y]) => y > x).length;
    return {
      dimension,
      meanA: pairs.length
        ? aggregate(
            pairs.map((p) => p[0]),
            'mean',
          )
        : Number.NaN,
      meanB: pairs.length
        ? aggregate(
            pairs.map((p) => p[1]),
            'mean',
          )
        : Number.NaN,
      winsA,
      winsB,
      ties: pairs.length - winsA - winsB,
      pSign: winsA + winsB ? binomialTest(winsA, winsA + winsB) : null,
    };
  });
  return result;
}
