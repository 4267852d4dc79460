// The vision part of a run report and of `analyze vision --report`: the paper's figures as SVG
// (Director bars, the (Intent, Approp) scatter per condition with the human groups, the joint
// plot) and the tables beside them: Director shares per arm at letter and colour level with
// both egocentric rates, triangles panel figures per arm, per-condition profiles, the human
// reference table with its sources.

import type {
  DirectorArmSummary,
  DirectorFactorRow,
  FloorRow,
  FrameSimilarityRow,
  JointRow,
  ReferenceGroups,
  TrianglesRunResult,
} from '../analysis/index.js';
import { citationOf, FLOOR_CRITERION, floorTableCells } from '../analysis/index.js';
import { escapeHtml, renderSvg } from '../../../report/index.js';
import { directorBarsSpec, jointScatterSpec } from './vision-charts.js';
import { profileScatterSpec } from './profile-figure.js';

/** The joint scatter (Figure 4) as SVG. */
export async function renderJointScatter(rows: JointRow[], refs: ReferenceGroups, tdGroup = 'TD adults'): Promise<string> {
  return renderSvg(jointScatterSpec(rows, refs, tdGroup));
}

const pct = (x: number | undefined | null) => (x === undefined || x === null || Number.isNaN(x) ? '—' : `${(x * 100).toFixed(1)}%`);
const num = (x: number | undefined | null, d = 2) => (x === undefined || x === null || Number.isNaN(x) ? '—' : x.toFixed(d));
const td = (s: string) => `<td>${escapeHtml(s)}</td>`;
const th = (s: string) => `<th>${escapeHtml(s)}</th>`;
const table = (caption: string, head: string[], rows: string[][]) =>
  `<table><caption>${escapeHtml(caption)}</caption><tr>${head.map(th).join('')}</tr>${rows.map((r) => `<tr>${r.map(td).join('')}</tr>`).join('')}</table>`;

/** Human names of the triangles arms. */
export const ARM_TITLES: Record<string, string> = {
  grid: 'numbered 4x4 grid, forward (canonical)',
  reversed: 'numbered grid, time-reversed',
  still: 'single still (static key frame)',
  'static-grid': 'static (one frame repeated in a grid)',
  'plain-grid': 'plain 4x4 grid (no order badges)',
  frames: '16 frames as separate pictures (frames_16)',
  video: 'native video (native_video)',
  'frames-32': '32 frames as separate pictures (frames_32)',
  'frames-64': '64 frames as separate pictures (frames_64)',
  'grid-4x4': 'numbered 4x4 grid, 320 x 240 a cell (grid_4x4)',
  'grid-4x8': 'numbered 4x8 grid, 320 x 240 a cell (grid_4x8)',
  'grid-8x8': 'numbered 8x8 grid, 320 x 240 a cell (grid_8x8)',
  'grid-4x4-fullres': 'numbered 4x4 grid at source resolution (grid_4x4_fullres)',
  'grid-8x8-fullres': 'numbered 8x8 grid at source resolution (grid_8x8_fullres)',
};

export interface VisionSectionInput {
  refs: ReferenceGroups;
  director?: { arms: DirectorArmSummary[]; byFactor: DirectorFactorRow[]; floor?: FloorRow[] };
  triangles?: TrianglesRunResult;
  joint?: { rows: JointRow[]; spearman: number | null; disagreements: number };
}

/** The floor control (Appendix C) per subject; empty when the run has no control arm. */
function floorHtml(rows: FloorRow[]): string {
  if (!rows.some((r) => r.pass !== null)) return '';
  const { header, cells } = floorTableCells(rows, '—');
  return table(
    `Floor control (Appendix C): (b) right at letter level on the control arms, pass at >= ${FLOOR_CRITERION.right}/${FLOOR_CRITERION.of} on each; canonical (b) beside it`,
    header,
    cells,
  );
}

function directorHtml(arms: DirectorArmSummary[], byFactor: DirectorFactorRow[]): string {
  const head = [
    'subject',
    'scenes',
    'a',
    'b',
    'c.Q1',
    'c.Q2',
    'ego (b)',
    'ego (c.Q2)',
    'gap',
    'recovery',
    'a colour',
    'b colour',
    'c.Q1 colour',
    'c.Q2 colour',
  ];
  const row = (name: string, scenes: string, m: DirectorArmSummary['panel']) => [
    name,
    scenes,
    pct(m.a),
    pct(m.b),
    pct(m.cQ1),
    pct(m.cQ2),
    pct(m.egocentric),
    pct(m.egocentricCQ2),
    num(m.gap, 3),
    num(m.recovery, 3),
    pct(m.color?.a),
    pct(m.color?.b),
    pct(m.color?.cQ1),
    pct(m.color?.cQ2),
  ];
  const tables = arms.map((a) =>
    table(
      `${a.arm} arm${a.arm === 'canonical' ? ' (the headline)' : ' (control, not averaged into the headline)'}: letter level, then colour level`,
      head,
      [...a.models.map((m) => row(m.model, String(m.scenes), m)), row('panel mean', '', a.panel)],
    ),
  );
  const factors = byFactor.filter((r) => r.arm === 'canonical');
  const factorTable = factors.length
    ? table(
        'Canonical arm by counterbalancing factor: (b) right at letter and colour level, egocentric rates',
        ['subject', 'factor', 'level', 'scenes', 'b letter', 'b colour', 'ego (b)', 'ego (c.Q2)'],
        factors.map((r) => [
          r.subject,
          r.factor,
          r.level,
          String(r.scenes),
          pct(r.bLetter),
          pct(r.bColor),
          pct(r.egocentricB),
          pct(r.egocentricCQ2),
        ]),
      )
    : '';
  return `${tables.join('')}${factorTable}`;
}

function trianglesHtml(t: TrianglesRunResult): string {
  const arms = t.arms.map((a) => {
    const conds = Object.keys(a.panelMedianIntent);
    return [
      `${a.clipSet === 'user' ? 'your clips: ' : ''}${ARM_TITLES[a.arm] ?? a.arm}`,
      String(a.subjects.length),
      conds.map((c) => `${c} ${num(a.panelMedianIntent[c], 1)}`).join(' / '),
      `${a.strictRankCount}/${a.subjects.length}`,
      conds.map((c) => `${c} (${num(a.panelMean[c]!.intent)}, ${num(a.panelMean[c]!.approp)})`).join('; '),
      conds.map((c) => `${c}: ${a.panelMean[c]!.distances.map((d) => `${d.group} ${num(d.distance)}`).join(', ') || '—'}`).join('; '),
      conds.map((c) => `${c}: ${a.panelMean[c]!.nearest ?? '—'}`).join('; '),
    ];
  });
  const profiles = t.byCondition.map((p) => [
    p.subject,
    p.clipSet,
    ARM_TITLES[p.arm] ?? p.arm,
    p.condition,
    String(p.clips),
    num(p.intent),
    num(p.approp),
    p.distances.map((d) => `${d.group} ${num(d.distance)}`).join(', ') || '—',
    p.nearest ?? '—',
  ]);
  const sim = (rows: FrameSimilarityRow[]) =>
    rows.length
      ? table(
          'Similarity to native video (Appendix L: 100 (1 - MAE / full scale), Intent and Approp averaged, then over conditions) and prompt tokens per cell',
          ['subject', 'arm', 'similarity %', 'per condition', 'prompt tokens', 'Pareto front'],
          rows.map((r) => [
            r.subject,
            ARM_TITLES[r.arm] ?? r.arm,
            num(r.similarity, 1),
            r.byCondition.map((c) => `${c.condition} ${num(c.similarity, 1)}`).join(', '),
            num(r.promptTokens, 0),
            r.pareto === null ? '—' : r.pareto ? 'yes' : 'no',
          ]),
        )
      : '';
  return [
    table(
      `Panel per arm (scorer ${t.scorer}): median Intent per condition over (subject, clip, judge) cells, strict rank ToM > GD > Random, panel-mean profile, distances and nearest group`,
      ['arm', 'subjects', 'median Intent', 'strict rank', 'panel mean (Intent, Approp)', 'distances', 'nearest'],
      arms,
    ),
    table(
      'Profiles per subject, arm and condition',
      ['subject', 'clips from', 'arm', 'condition', 'clips', 'Intent', 'Approp', 'distances', 'nearest'],
      profiles,
    ),
    sim(t.similarity),
  ].join('');
}

function referencesHtml(refs: ReferenceGroups): string {
  const rows = [
    ...refs.director.map((g) => [
      'Director gap',
      g.group,
      num(g.gap, 3),
      g.sets.join(', '),
      [g.source, ...(g.components ?? []).map((c) => `${c.source ?? ''} ${c.gap}`), g.note].filter(Boolean).join('; '),
      citationOf(refs, g),
    ]),
    ...refs.triangles.map((g) => [
      `triangles ${g.condition}`,
      g.group,
      `(${g.intent}, ${g.approp})`,
      '',
      [g.source, g.note].filter(Boolean).join('; '),
      citationOf(refs, g),
    ]),
    ...refs.egocentricReach.map((g) => [
      'egocentric reach (bracket)',
      g.group,
      pct(g.rate),
      '',
      [g.source, g.note].filter(Boolean).join('; '),
      citationOf(refs, g),
    ]),
  ];
  return table('Human reference groups', ['task', 'group', 'value', 'sets', 'source', 'citation'], rows);
}

/** The vision section of a report: figures and tables for whatever the run has. */
export async function renderVisionSection(v: VisionSectionInput): Promise<string> {
  const parts: string[] = [];
  if (v.director?.arms.length) {
    const canonical = v.director.arms.find((a) => a.arm === 'canonical') ?? v.director.arms[0]!;
    parts.push(
      `<h3>Director Task</h3><div class="chart">${await renderSvg(directorBarsSpec(canonical.models, `Director Task, ${canonical.arm} arm: share right per sub-prompt`))}</div>`,
    );
    parts.push(directorHtml(v.director.arms, v.director.byFactor), floorHtml(v.director.floor ?? []));
  }
  if (v.triangles?.byCondition.length) {
    const headline = v.triangles.byCondition.filter(
      (p) => p.arm === 'grid' && p.clipSet === (v.triangles!.headlineClipSet ?? 'procedural'),
    );
    parts.push('<h3>Animated triangles</h3>');
    if (headline.length)
      parts.push(
        `<div class="chart">${await renderSvg(profileScatterSpec(headline, v.refs, 'Animated triangles, canonical arm: (Intent, Approp) per condition'))}</div>`,
      );
    parts.push(trianglesHtml(v.triangles));
  }
  if (v.joint?.rows.length) {
    parts.push(
      `<h3>Both tasks</h3><div class="chart">${await renderJointScatter(v.joint.rows, v.refs)}</div>`,
      table(
        `Nearest group per task (two adult groups, Table 8; wide set with the age cohorts beside it). Disagreements: ${v.joint.disagreements}/${v.joint.rows.length}. Spearman (gap, distance to TD): ${num(v.joint.spearman, 3)}`,
        [
          'subject',
          'Director gap',
          'Director nearest (adult)',
          'Director nearest (wide)',
          'triangles ToM distance to TD',
          'triangles nearest',
          'disagree',
        ],
        v.joint.rows.map((r) => [
          r.subject,
          num(r.directorGap, 3),
          r.directorNearest,
          r.directorNearestWide,
          num(r.trianglesDistanceToTd),
          r.trianglesNearest ?? '—',
          r.disagree ? 'yes' : 'no',
        ]),
      ),
    );
  }
  if (parts.length) parts.push(referencesHtml(v.refs));
  return parts.join('\n');
}
