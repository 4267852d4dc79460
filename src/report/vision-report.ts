// The joint Director-Task / animated-triangles scatter: x the Director explicit-implicit gap,
// y the triangles profile's distance to typically developing adults; subjects and the human
// reference groups that have both coordinates are marked.

import type { TopLevelSpec } from 'vega-lite';
import type { JointRow, ReferenceGroups } from '../analysis/index.js';
import { renderSvg } from './charts.js';

export async function renderJointScatter(rows: JointRow[], refs: ReferenceGroups, tdGroup = 'TD adults'): Promise<string> {
  const td = refs.triangles.find((g) => g.group === tdGroup);
  const groups = refs.triangles.flatMap((g) => {
    const d = refs.director.find((x) => x.group === g.group);
    return d && td
      ? [{ label: g.group, x: d.gap, y: Math.hypot(g.intent - td.intent, g.approp - td.approp), kind: 'human reference' }]
      : [];
  });
  const values = [
    ...rows.map((r) => ({
      label: r.subject,
      x: r.directorGap,
      y: r.trianglesDistanceToTd,
      kind: r.disagree ? 'model (tasks disagree)' : 'model',
    })),
    ...groups,
  ];
  const spec = {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: 420,
    height: 320,
    title: 'Director gap vs triangles distance to TD adults',
    data: { values },
    layer: [
      {
        mark: { type: 'point', filled: true, size: 80 },
        encoding: {
          x: { field: 'x', type: 'quantitative', title: 'Director explicit-implicit gap P(a) - P(b)' },
          y: { field: 'y', type: 'quantitative', title: 'triangles: distance to TD adults' },
          color: { field: 'kind', type: 'nominal', title: null, legend: { labelLimit: 260 } },
          shape: { field: 'kind', type: 'nominal', title: null },
        },
      },
      {
        mark: { type: 'text', dx: 6, align: 'left', fontSize: 10 },
        encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' }, text: { field: 'label' } },
      },
    ],
    config: { font: 'DejaVu Sans, Helvetica, Arial, sans-serif' },
  } as TopLevelSpec;
  return renderSvg(spec);
}
