// The per-condition profile figure of the VLM paper (Figures 3 and 5) as a Vega-Lite spec: one
// panel per condition (ToM, goal-directed, random) with each subject's (Intent, Approp) as a
// circle coloured by its lab and the human groups as black stars. Every point is labelled with
// the model's short name; the labels of a panel are laid out before rendering (label-layout.ts)
// so that none overlaps another label or a point, and a label set away from its point gets a
// thin leader. The axes keep the rubric's full scales (Intent 0-5, Approp 0-3).

import type { TopLevelSpec } from 'vega-lite';
import type { ReferenceGroups, TriangleProfile } from '../analysis/index.js';
import { BASE } from './chart-base.js';
import { placeLabels } from './label-layout.js';
import { figureLabels, labColours, modelLab } from './model-labs.js';

/** The plot area of one panel (pixels) and the labels' font size. */
export const PROFILE_PANEL = { width: 300, height: 220, fontSize: 10 } as const;

const CONDITION_TITLES: Record<string, string> = { tom: 'ToM', 'goal-directed': 'goal-directed', random: 'random' };
const HUMAN = 'human group (Castelli 2002)';
const STAR = 'M0,-1L0.29,-0.4L0.95,-0.31L0.48,0.15L0.59,0.81L0,0.5L-0.59,0.81L-0.48,0.15L-0.95,-0.31L-0.29,-0.4Z';

interface Point {
  condition: string;
  label: string;
  lab: string;
  kind: 'model' | 'human group';
  intent: number;
  approp: number;
  nearest: string;
}

/** Figures 3 and 5: subjects' (Intent, Approp) per condition coloured by lab, human groups as stars, labels that do not overlap. */
export function profileScatterSpec(
  profiles: TriangleProfile[],
  refs: ReferenceGroups,
  title = 'Animated triangles: (Intent, Approp) per condition',
  opts: { labs?: Readonly<Record<string, string>> } = {},
): TopLevelSpec {
  const { width, height, fontSize } = PROFILE_PANEL;
  const names = figureLabels([...new Set(profiles.map((p) => p.subject))]);
  const order = ['tom', 'goal-directed', 'random'];
  const conditions = [...new Set(profiles.map((p) => p.condition))].sort(
    (a, b) => (order.indexOf(a) + 1 || 9) - (order.indexOf(b) + 1 || 9),
  );
  const points: Point[] = [
    ...profiles.map((p) => ({
      condition: p.condition,
      label: names.get(p.subject)!,
      lab: modelLab(p.subject, opts.labs),
      kind: 'model' as const,
      intent: p.intent,
      approp: p.approp,
      nearest: p.nearest ?? '',
    })),
    ...refs.triangles
      .filter((g) => conditions.includes(g.condition))
      .map((g) => ({
        condition: g.condition,
        label: g.group,
        lab: HUMAN,
        kind: 'human group' as const,
        intent: g.intent,
        approp: g.approp,
        nearest: '',
      })),
  ];
  // Pixels of a panel: Intent 0..5 left to right, Approp 0..3 bottom to top.
  const px = (p: Point) => ({ x: (p.intent / 5) * width, y: height - (p.approp / 3) * height });
  const values = conditions.flatMap((c) => {
    const here = points.filter((p) => p.condition === c);
    const labels = placeLabels(
      here.map((p) => ({ ...px(p), text: p.label })),
      { width, height, fontSize, pointRadius: 6 },
    );
    return here.map((p, i) => {
      const l = labels[i]!;
      return {
        ...p,
        condition: CONDITION_TITLES[c] ?? c,
        lx: (l.x / width) * 5,
        ly: ((height - l.y) / height) * 3,
        align: l.align,
        leader: l.leader,
      };
    });
  });
  const labs = [...new Set(points.filter((p) => p.kind === 'model').map((p) => p.lab))];
  const x = { field: 'intent', type: 'quantitative', scale: { domain: [0, 5], nice: false, zero: false }, title: 'Intentionality (0-5)' };
  const y = { field: 'approp', type: 'quantitative', scale: { domain: [0, 3], nice: false, zero: false }, title: 'Appropriateness (0-3)' };
  const lx = { field: 'lx', type: 'quantitative' };
  const ly = { field: 'ly', type: 'quantitative' };
  const text = (align: 'left' | 'right') => ({
    transform: [{ filter: `datum.align === '${align}'` }],
    mark: { type: 'text', align, baseline: 'middle', fontSize },
    encoding: { x: lx, y: ly, text: { field: 'label' }, color: { value: '#222222' } },
  });
  return {
    ...BASE,
    title,
    data: { values },
    facet: { column: { field: 'condition', type: 'nominal', title: null, sort: conditions.map((c) => CONDITION_TITLES[c] ?? c) } },
    spec: {
      width,
      height,
      layer: [
        {
          transform: [{ filter: 'datum.leader' }],
          mark: { type: 'rule', strokeWidth: 0.6, color: '#888888' },
          encoding: { x, y, x2: { field: 'lx' }, y2: { field: 'ly' } },
        },
        {
          mark: { type: 'point', filled: true, opacity: 0.9 },
          encoding: {
            x,
            y,
            shape: { field: 'kind', type: 'nominal', scale: { domain: ['model', 'human group'], range: ['circle', STAR] }, title: null },
            color: {
              field: 'lab',
              type: 'nominal',
              scale: { domain: [...labs, HUMAN], range: [...labColours(labs), '#000000'] },
              title: 'lab',
              legend: { labelLimit: 260 },
            },
            size: { condition: { test: "datum.kind === 'human group'", value: 220 }, value: 90 },
            tooltip: [
              { field: 'label' },
              { field: 'lab' },
              { field: 'intent', format: '.2f' },
              { field: 'approp', format: '.2f' },
              { field: 'nearest' },
            ],
          },
        },
        text('left'),
        text('right'),
      ],
    },
  } as TopLevelSpec;
}
