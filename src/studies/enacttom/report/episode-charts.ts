// The embodied report's figures (EnactToM paper, Figures 3 and 4): functional success by K-depth
// per model, and the literal-functional gap (literal Avg minus functional Avg) by depth.

import type { TopLevelSpec } from 'vega-lite';
import type { SubjectEpisodeMetrics } from '../analysis/index.js';
import { displayNames, renderSvg } from '../../../report/index.js';

const FONT = { config: { font: 'DejaVu Sans, Helvetica, Arial, sans-serif', view: { stroke: null } } };

export interface DepthPoint {
  subject: string;
  depth: number;
  functional: number;
  literal: number;
  gap: number;
  runs: number;
}

/** One point per subject and K-depth scope ("depth N") with episodes. */
export function depthPoints(metrics: SubjectEpisodeMetrics[]): DepthPoint[] {
  const names = displayNames(metrics.map((m) => m.subject));
  return metrics.flatMap((m) =>
    m.scopes.flatMap((s) => {
      const depth = /^depth (\d+)$/.exec(s.scope)?.[1];
      return depth === undefined || s.runs === 0
        ? []
        : [
            {
              subject: names.get(m.subject) ?? m.subject,
              depth: Number(depth),
              functional: s.functional.avg,
              literal: s.literal.avg,
              gap: s.gap,
              runs: s.runs,
            },
          ];
    }),
  );
}

/** Functional success by depth, a line per model. */
export function successByDepthSpec(points: DepthPoint[]): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    ...FONT,
    title: 'Functional success by ToM depth',
    width: 360,
    height: 220,
    data: { values: points },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'depth', type: 'ordinal', title: 'K-depth' },
      y: { field: 'functional', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '.0%' }, title: 'functional Avg' },
      color: { field: 'subject', type: 'nominal', legend: { labelLimit: 300 } },
      tooltip: [{ field: 'subject' }, { field: 'depth' }, { field: 'functional', format: '.3f' }, { field: 'runs' }],
    },
  } as TopLevelSpec;
}

/** Literal minus functional success by depth, bars grouped by model. */
export function literalFunctionalGapSpec(points: DepthPoint[]): TopLevelSpec {
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    ...FONT,
    title: 'Literal − functional gap by ToM depth',
    width: 360,
    height: 220,
    data: { values: points },
    mark: 'bar',
    encoding: {
      x: { field: 'depth', type: 'ordinal', title: 'K-depth' },
      xOffset: { field: 'subject', type: 'nominal' },
      y: { field: 'gap', type: 'quantitative', scale: { domain: [-1, 1] }, axis: { format: '.0%' }, title: 'literal − functional' },
      color: { field: 'subject', type: 'nominal', legend: { labelLimit: 300 } },
      tooltip: [
        { field: 'subject' },
        { field: 'depth' },
        { field: 'literal', format: '.3f' },
        { field: 'functional', format: '.3f' },
        { field: 'gap', format: '.3f' },
      ],
    },
  } as TopLevelSpec;
}

/** The two figures as an HTML fragment of inline SVGs (empty when no episode has a depth). */
export async function renderEpisodeFigures(metrics: SubjectEpisodeMetrics[]): Promise<string> {
  const points = depthPoints(metrics);
  if (points.length === 0) return '';
  const [success, gap] = await Promise.all([renderSvg(successByDepthSpec(points)), renderSvg(literalFunctionalGapSpec(points))]);
  return `<h3>By ToM depth</h3>\n<div class="chart">${success}</div>\n<div class="chart">${gap}</div>`;
}

/** Functional success per model over evolution rounds (one stored run per round). */
export function evolutionRoundsSpec(
  rounds: Array<{ round: number; subjects: Array<{ subject: string; functional: number }> }>,
): TopLevelSpec {
  const names = displayNames([...new Set(rounds.flatMap((r) => r.subjects.map((s) => s.subject)))]);
  const values = rounds.flatMap((r) =>
    r.subjects.map((s) => ({ round: r.round, subject: names.get(s.subject) ?? s.subject, functional: s.functional })),
  );
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    ...FONT,
    title: 'Functional success over evolution rounds',
    width: 360,
    height: 220,
    data: { values },
    mark: { type: 'line', point: true },
    encoding: {
      x: { field: 'round', type: 'ordinal', title: 'round' },
      y: { field: 'functional', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '.0%' }, title: 'functional Avg' },
      color: { field: 'subject', type: 'nominal', legend: { labelLimit: 300 } },
      tooltip: [{ field: 'subject' }, { field: 'round' }, { field: 'functional', format: '.3f' }],
    },
  } as TopLevelSpec;
}
