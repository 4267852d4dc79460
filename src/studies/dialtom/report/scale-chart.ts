// Correctness against model scale as a Vega-Lite spec: one panel per task, parameters on a log
// axis, each model a dot with its 95% interval and its name beside it.

import type { TopLevelSpec } from 'vega-lite';
import type { ScaleResult } from '../analysis/model-scale.js';

/** The scale figure of `analyze dialtom-scale --plot`: correctness (with intervals) against parameters, a panel per task. */
export function scaleChartSpec(result: ScaleResult, title = 'DialToM: correctness against model scale'): TopLevelSpec {
  const values = result.points.map((p) => ({
    model: p.model,
    task: p.task,
    params: p.params,
    rate: p.rate,
    lower: p.lower,
    upper: p.upper,
  }));
  const x = {
    field: 'params',
    type: 'quantitative',
    scale: { type: 'log' },
    title: `parameters (billions, ${result.measure})`,
  } as const;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config: { font: 'DejaVu Sans, Helvetica, Arial, sans-serif', view: { stroke: null } },
    title,
    data: { values },
    facet: { column: { field: 'task', type: 'nominal', title: null, sort: ['retrospective', 'prospective', 'prospective-easy'] } },
    spec: {
      width: 260,
      height: 220,
      layer: [
        {
          mark: 'rule',
          encoding: {
            x,
            y: { field: 'lower', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '.0%' }, title: 'correctness' },
            y2: { field: 'upper' },
          },
        },
        { mark: { type: 'point', filled: true }, encoding: { x, y: { field: 'rate', type: 'quantitative' } } },
        {
          mark: { type: 'text', align: 'left', dx: 5, fontSize: 9 },
          encoding: { x, y: { field: 'rate', type: 'quantitative' }, text: { field: 'model' } },
        },
      ],
    },
  } as TopLevelSpec;
}
