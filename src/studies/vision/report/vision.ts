// The vision analyses as the CLI and the run report use them: the human reference table, the
// vision section of a run's report (Director, triangles, both), and the judge-disclosure
// comparison of two rubrics on one run with the judges' cost per cell at list prices.

import {
  compareScorers,
  directorByFactor,
  directorFloor,
  directorRunSummary,
  directorSceneOutcomes,
  jointAnalysis,
  parseReferenceGroups,
  triangleCells,
  trianglesFromRun,
  type JudgeCallCost,
  type ReferenceGroups,
} from '../analysis/index.js';
import { readJson } from '../../../core/index.js';
import { renderVisionSection } from './vision-report.js';
import { callCost, PriceBook, type PriceTable } from '../../../runner/index.js';
import type { Store } from '../../../store/index.js';

/** The human reference groups: a file of data/human-references.json's shape, or that file. */
export function loadHumanReferences(file?: string): ReferenceGroups {
  const path = file ?? new URL('../../../../data/human-references.json', import.meta.url).pathname;
  return parseReferenceGroups(readJson(path), file ?? 'data/human-references.json');
}

/** Price lookup needs provider and model name only; judges are priced without building them (no key needed). */
function pricedSpec(spec: string): { spec: string; provider: string; model: string; local: boolean } {
  const colon = spec.indexOf(':');
  const provider = colon > 0 ? spec.slice(0, colon) : spec;
  const rest = colon > 0 ? spec.slice(colon + 1) : '';
  const model = provider === 'openai-compatible' ? rest.slice(rest.lastIndexOf('#') + 1) : rest;
  return { spec, provider, model, local: provider === 'agent' || provider === 'llamacpp' };
}

/** Judge call cost at list prices (the user's table first, then the bundled price list); null where unknown. */
export function judgeCallCost(prices?: PriceTable): JudgeCallCost {
  const book = new PriceBook(prices);
  return (judge, usage) => callCost(book.lookup(pricedSpec(judge)).price, usage);
}

/** The informed-versus-blinded comparison (or any rubrics) on one run: panel figures per arm and cost per cell, per scorer. */
export async function compareTriangleScorers(
  store: Store,
  runId: string,
  scorers: string[],
  opts: { refs?: ReferenceGroups; prices?: PriceTable } = {},
) {
  const refs = opts.refs ?? loadHumanReferences();
  const cells = [];
  for (const scorer of scorers) cells.push({ scorer, cells: await triangleCells(store, runId, scorer) });
  return compareScorers(cells, refs, judgeCallCost(opts.prices));
}

/** The vision section of a run's report, or undefined when the run has neither Director nor judged triangles trials. */
export async function visionReportSection(
  store: Store,
  runId: string,
  refs: ReferenceGroups = loadHumanReferences(),
): Promise<string | undefined> {
  const director = await directorRunSummary(store, runId);
  const triangles = await trianglesFromRun(store, runId, refs);
  if (director.arms.length === 0 && triangles.cells.length === 0) return undefined;
  const outcomes = director.arms.length ? await directorSceneOutcomes(store, runId) : [];
  const byFactor = directorByFactor(outcomes);
  const floor = directorFloor(outcomes);
  const joint =
    director.headline && triangles.profiles.length ? jointAnalysis(director.headline.models, triangles.profiles, refs) : undefined;
  return renderVisionSection({
    refs,
    director: director.arms.length ? { arms: director.arms, byFactor, floor } : undefined,
    triangles: triangles.cells.length ? triangles : undefined,
    joint,
  });
}
