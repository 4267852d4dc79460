// The VLM paper's figures as Vega-Lite specs: per-model bars on the Director sub-prompts
// (Figure 2) and the joint plot of the Director gap against the triangles distance to TD adults
// (Figure 4); the per-condition (Intent, Approp) figure (Figures 3 and 5) is profile-figure.ts.

import type { TopLevelSpec } from 'vega-lite';
import type { DirectorModel, JointRow, ReferenceGroups } from '../analysis/index.js';
import { directorGroups } from '../analysis/index.js';
import { displayNames } from '../../../report/index.js';
import { BASE } from './chart-base.js';

/** Figure 2: each model's share right on a, b, c.Q1 and c.Q2, at letter level, and at colour level where known. */
export function directorBarsSpec(models: DirectorModel[], title = 'Director Task: share right per sub-prompt'): TopLevelSpec {
  const names = displayNames(models.map((m) => m.model));
  const prompts = [
    ['a', 'a: what the director sees'],
    ['b', 'b: which block to move'],
    ['cQ1', 'c.Q1: what the director sees'],
    ['cQ2', 'c.Q2: which block, after c.Q1'],
  ] as const;
  const values = models.flatMap((m) => [
    ...prompts.map(([k, label]) => ({ model: names.get(m.model)!, prompt: label, level: 'letter', share: m[k], scenes: m.scenes })),
    ...(m.color
      ? prompts.map(([k, label]) => ({
          model: names.get(m.model)!,
          prompt: label,
          level: 'colour',
          share: m.color![k],
          scenes: m.color!.scenes,
        }))
      : []),
  ]);
  const levels = [...new Set(values.map((v) => v.level))];
  return {
    ...BASE,
    title,
    data: { values },
    facet: { row: { field: 'level', type: 'nominal', title: null, header: { labelExpr: "datum.value + ' level'" }, sort: levels } },
    spec: {
      width: { step: 14 },
      height: 180,
      mark: 'bar',
      encoding: {
        x: { field: 'model', type: 'nominal', title: null, axis: { labelAngle: -30, labelLimit: 200 } },
        xOffset: { field: 'prompt', sort: prompts.map(([, l]) => l) },
        y: { field: 'share', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '.0%' }, title: 'share right' },
        color: { field: 'prompt', type: 'nominal', sort: prompts.map(([, l]) => l), title: 'sub-prompt', legend: { labelLimit: 260 } },
        tooltip: [{ field: 'model' }, { field: 'prompt' }, { field: 'level' }, { field: 'share', format: '.3f' }, { field: 'scenes' }],
      },
    },
    resolve: { scale: { x: 'independent' } },
  } as TopLevelSpec;
}

/** Figure 4: x the Director gap, y the ToM-profile distance to TD adults; subjects as circles, adult groups with both coordinates as stars. */
export function jointScatterSpec(rows: JointRow[], refs: ReferenceGroups, tdGroup = 'TD adults'): TopLevelSpec {
  const td = refs.triangles.find((g) => g.group === tdGroup && g.condition === 'tom');
  const humans = directorGroups(refs, 'adult').flatMap((d) => {
    const t = refs.triangles.find((g) => g.group === d.group && g.condition === 'tom');
    return t && td ? [{ label: d.group, x: d.gap, y: Math.hypot(t.intent - td.intent, t.approp - td.approp), kind: 'human group' }] : [];
  });
  const names = displayNames(rows.map((r) => r.subject));
  const values = [
    ...rows.map((r) => ({
      label: names.get(r.subject)!,
      x: r.directorGap,
      y: r.trianglesDistanceToTd,
      kind: r.disagree ? 'model (tasks disagree)' : 'model',
    })),
    ...humans,
  ];
  const kinds = ['model', 'model (tasks disagree)', 'human group'];
  return {
    ...BASE,
    width: 420,
    height: 320,
    title: 'Director gap vs triangles ToM distance to TD adults',
    data: { values },
    layer: [
      {
        mark: { type: 'point', filled: true, size: 90 },
        encoding: {
          // Pixel padding keeps labels of points at the ends inside the plot.
          x: { field: 'x', type: 'quantitative', title: 'Director explicit-implicit gap P(a) - P(b)', scale: { padding: 60 } },
          y: { field: 'y', type: 'quantitative', title: 'triangles: ToM distance to TD adults' },
          color: {
            field: 'kind',
            type: 'nominal',
            title: null,
            scale: { domain: kinds, range: ['#3b6fb6', '#e39b2d', '#d1495b'] },
            legend: { labelLimit: 260, orient: 'bottom' },
          },
          shape: {
            field: 'kind',
            type: 'nominal',
            title: null,
            scale: {
              domain: kinds,
              range: [
                'circle',
                'circle',
                'M0,-1L0.29,-0.4L0.95,-0.31L0.48,0.15L0.59,0.81L0,0.5L-0.59,0.81L-0.48,0.15L-0.95,-0.31L-0.29,-0.4Z',
              ],
            },
          },
          size: { condition: { test: "datum.kind === 'human group'", value: 220 }, value: 90 },
        },
      },
      {
        mark: { type: 'text', dx: 7, align: 'left', fontSize: 10 },
        encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' }, text: { field: 'label' } },
      },
    ],
  } as TopLevelSpec;
}
