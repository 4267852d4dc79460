// Charts as SVG, rendered in Node by Vega from Vega-Lite specs. Row heights are fixed per
// subject, so charts grow with the number of subjects and stay readable at 30 and more.

import { existsSync } from 'node:fs';
import type { TopLevelSpec } from 'vega-lite';
import type { AccuracyTable } from '../analysis/index.js';
import { displayNames } from './subject-names.js';

interface Vega {
  parse: typeof import('vega').parse;
  View: typeof import('vega').View;
  compile: typeof import('vega-lite').compile;
}

/** The one-module bundle of Vega and Vega-Lite that the build writes (vega-bundle/): dist/vega/vega-bundle.js. */
const BUNDLE = new URL('../vega/vega-bundle.js', import.meta.url);
let vegaModules: Promise<Vega> | undefined;

/**
 * Vega and Vega-Lite, loaded on first use (they took 0.6 s to import, which every command paid):
 * from the build's bundle, one module, where it is there; else (the sources, under test) from
 * the packages, some 300 modules. Both are the packages' own code and render the same SVG.
 */
function loadVega(): Promise<Vega> {
  vegaModules ??= existsSync(BUNDLE)
    ? (import(BUNDLE.href) as Promise<Vega>)
    : Promise.all([import('vega'), import('vega-lite')]).then(([vega, vl]) => ({
        parse: vega.parse,
        View: vega.View,
        compile: vl.compile,
      }));
  return vegaModules;
}

/** Render a Vega-Lite spec to SVG text (Vega loaded on first use). */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const vega = await loadVega();
  const view = new vega.View(vega.parse(vega.compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

const FONT = { config: { font: 'DejaVu Sans, Helvetica, Arial, sans-serif', view: { stroke: null } } };

/** Overall accuracy per subject: a dot with its 95% interval. */
export function overallAccuracySpec(table: AccuracyTable): TopLevelSpec {
  const names = displayNames(table.subjects);
  const values = table.cells
    .filter((c) => c.group === 'all')
    .map((c) => ({ subject: names.get(c.subject)!, accuracy: c.accuracy, lower: c.lower, upper: c.upper, n: c.items }));
  const order = [...values].sort((a, b) => b.accuracy - a.accuracy).map((v) => v.subject);
  const y = { field: 'subject', type: 'nominal' as const, sort: order, title: null, axis: { labelLimit: 400 } };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    ...FONT,
    title: 'Accuracy per subject (95% interval)',
    width: 420,
    height: { step: 20 },
    data: { values },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2, color: '#6b8fc7' },
        encoding: {
          y,
          x: { field: 'lower', type: 'quantitative', scale: { domain: [0, 1] }, title: 'accuracy', axis: { format: '.0%' } },
          x2: { field: 'upper' },
        },
      },
      {
        mark: { type: 'point', filled: true, size: 60, color: '#1f3b73' },
        encoding: {
          y,
          x: { field: 'accuracy', type: 'quantitative' },
          tooltip: [
            { field: 'subject' },
            { field: 'accuracy', format: '.3f' },
            { field: 'lower', format: '.3f' },
            { field: 'upper', format: '.3f' },
            { field: 'n' },
          ],
        },
      },
    ],
  } as TopLevelSpec;
}

/** Accuracy per subject and group (category or suite) as a heatmap with the value printed. */
export function heatmapSpec(table: AccuracyTable, groupTitle: string): TopLevelSpec {
  const names = displayNames(table.subjects);
  const values = table.cells
    .filter((c) => c.group !== 'all')
    .map((c) => ({
      subject: names.get(c.subject)!,
      group: c.group,
      accuracy: c.accuracy,
      label: `${Math.round(c.accuracy * 100)}`,
      n: c.items,
    }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    ...FONT,
    title: `Accuracy (%) by ${groupTitle}`,
    width: { step: 64 },
    height: { step: 20 },
    data: { values },
    encoding: {
      y: { field: 'subject', type: 'nominal', title: null, axis: { labelLimit: 400 } },
      x: { field: 'group', type: 'nominal', title: null, axis: { labelAngle: -30, orient: 'top' } },
    },
    layer: [
      {
        mark: 'rect',
        encoding: {
          color: {
            field: 'accuracy',
            type: 'quantitative',
            scale: { domain: [0, 1], scheme: 'blues' },
            legend: { format: '.0%', title: 'accuracy' },
          },
          tooltip: [{ field: 'subject' }, { field: 'group' }, { field: 'accuracy', format: '.3f' }, { field: 'n' }],
        },
      },
      {
        mark: { type: 'text', fontSize: 11 },
        encoding: {
          text: { field: 'label' },
          color: { condition: { test: 'datum.accuracy > 0.55', value: 'white' }, value: 'black' },
        },
      },
    ],
  } as TopLevelSpec;
}
