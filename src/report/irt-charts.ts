// IRT charts as Vega-Lite specs, rendered to SVG by renderSvg (charts.ts): item
// characteristic curves, item and test information, the Wright map (models' abilities and
// items' difficulties on one axis) and estimated against full-suite accuracy.

import type { TopLevelSpec } from 'vega-lite';
import type { IrtChartData } from '../analysis/irt/index.js';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const FONT = { config: { font: 'DejaVu Sans, Helvetica, Arial, sans-serif', view: { stroke: null } } };
const THETA = { field: 'theta', type: 'quantitative' as const, title: 'ability (theta)' };

/** P(correct | theta) of each charted item. */
export function itemCharacteristicSpec(data: IrtChartData): TopLevelSpec {
  return {
    $schema: SCHEMA,
    ...FONT,
    title: 'Item characteristic curves',
    width: 420,
    height: 260,
    data: { values: data.curves },
    mark: { type: 'line', strokeWidth: 1.5 },
    encoding: {
      x: THETA,
      y: { field: 'probability', type: 'quantitative', title: 'P(correct)', scale: { domain: [0, 1] } },
      color: { field: 'item', type: 'nominal', legend: { labelLimit: 260 } },
    },
  } as TopLevelSpec;
}

/** Item information curves and, beside them, the test information with its standard error. */
export function informationSpec(data: IrtChartData): TopLevelSpec {
  return {
    $schema: SCHEMA,
    ...FONT,
    hconcat: [
      {
        title: 'Item information',
        width: 320,
        height: 240,
        data: { values: data.curves },
        mark: { type: 'line', strokeWidth: 1.5 },
        encoding: {
          x: THETA,
          y: { field: 'information', type: 'quantitative', title: 'information' },
          color: { field: 'item', type: 'nominal', legend: { labelLimit: 200 } },
        },
      },
      {
        title: 'Test information and standard error',
        width: 320,
        height: 240,
        data: { values: data.test },
        encoding: { x: THETA },
        layer: [
          {
            mark: { type: 'line', color: '#1f3b73' },
            encoding: { y: { field: 'information', type: 'quantitative', title: 'information' } },
          },
          {
            mark: { type: 'line', color: '#c0392b', strokeDash: [4, 3] },
            encoding: { y: { field: 'se', type: 'quantitative', title: 'SE (dashed)', axis: { orient: 'right' } } },
          },
        ],
        resolve: { scale: { y: 'independent' } },
      },
    ],
  } as TopLevelSpec;
}

/** The Wright map: models' abilities (left) and items' difficulties (right) on one scale. */
export function wrightMapSpec(data: IrtChartData): TopLevelSpec {
  const y = { field: 'bin', type: 'quantitative' as const, title: 'ability / difficulty (theta)', scale: { domain: [-5, 5] } };
  return {
    $schema: SCHEMA,
    ...FONT,
    title: 'Wright map',
    hconcat: [
      {
        title: 'models',
        width: 180,
        height: 320,
        data: { values: data.wright.models },
        transform: [
          { calculate: 'max(-5, min(5, datum.theta))', as: 't' },
          { bin: { step: 0.25 }, field: 't', as: 'bin' },
        ],
        mark: { type: 'bar', color: '#1f3b73', orient: 'horizontal' },
        encoding: { y, x: { aggregate: 'count', type: 'quantitative', title: 'models', scale: { reverse: true } } },
      },
      {
        title: 'items',
        width: 240,
        height: 320,
        data: { values: data.wright.items },
        transform: [
          { calculate: 'max(-5, min(5, datum.b))', as: 't' },
          { bin: { step: 0.25 }, field: 't', as: 'bin' },
        ],
        mark: { type: 'bar', orient: 'horizontal' },
        encoding: {
          y: { ...y, axis: { orient: 'right' } },
          x: { aggregate: 'count', type: 'quantitative', title: 'items' },
          color: { field: 'category', type: 'nominal' },
        },
      },
    ],
    resolve: { scale: { y: 'shared' } },
  } as TopLevelSpec;
}

export interface EstimatedAccuracyPoint {
  model: string;
  /** Full-suite accuracy. */
  full: number;
  estimate: number;
  lower: number;
  upper: number;
  /** Estimator or strategy label, coloured. */
  method: string;
}

/** Estimated (from tiny or adaptive tests) against full-suite accuracy, with intervals and the identity line. */
export function estimatedAccuracySpec(points: EstimatedAccuracyPoint[], title = 'Estimated vs full-suite accuracy'): TopLevelSpec {
  const x = {
    field: 'full',
    type: 'quantitative' as const,
    title: 'full-suite accuracy',
    scale: { domain: [0, 1] },
    axis: { format: '.0%' },
  };
  return {
    $schema: SCHEMA,
    ...FONT,
    title,
    width: 360,
    height: 360,
    layer: [
      {
        data: {
          values: [
            { full: 0, estimate: 0 },
            { full: 1, estimate: 1 },
          ],
        },
        mark: { type: 'line', color: '#999', strokeDash: [4, 4] },
        encoding: { x, y: { field: 'estimate', type: 'quantitative' } },
      },
      {
        data: { values: points },
        mark: { type: 'rule', opacity: 0.5 },
        encoding: { x, y: { field: 'lower', type: 'quantitative' }, y2: { field: 'upper' }, color: { field: 'method', type: 'nominal' } },
      },
      {
        data: { values: points },
        mark: { type: 'point', filled: true, size: 30 },
        encoding: {
          x,
          y: { field: 'estimate', type: 'quantitative', title: 'estimated accuracy', scale: { domain: [0, 1] }, axis: { format: '.0%' } },
          color: { field: 'method', type: 'nominal' },
          tooltip: [{ field: 'model' }, { field: 'full', format: '.3f' }, { field: 'estimate', format: '.3f' }, { field: 'method' }],
        },
      },
    ],
  } as TopLevelSpec;
}
