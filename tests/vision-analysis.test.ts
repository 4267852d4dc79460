// Vision ToM re-analysis from published numbers and from cells computed by hand: the VLM
// paper's Table 2 counts give its panel means; the nearest human group per model under the
// two-adult set and under the wide set with Dumontheil's age cohorts (Appendix H); the
// panel-mean triangles profile gives the distances to the human groups; the adult-adult
// distance of the joint plot (1.844); per-condition profiles, strict ranks, panel medians,
// similarity to native video and judge cost per cell against independent computations; the
// joint analysis and its figures through the CLI.

import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  armSummaries,
  clipScores,
  compareScorers,
  conditionProfiles,
  directorFromCounts,
  frameSimilarity,
  jointAnalysis,
  judgeCost,
  nearestDirectorGroup,
  parseReferenceGroups,
  profileOf,
  trianglesConditionsFromProfiles,
  trianglesFromProfiles,
  type TriangleCell,
} from '../src/studies/vision/index.js';
import { jointScatterSpec } from '../src/studies/vision/index.js';
import { runCli } from './helpers/run-cli.js';

const TABLE2 = `model,a,b,c_q1,c_q2,egocentric_b,scenes
opus-4.7,11,1,8,2,9,12
sonnet-4.6,8,0,7,10,9,12
gemini-3.0-pro,12,12,12,12,0,12
gemini-3.5-flash,10,0,11,12,12,12
gpt-5.4,10,0,3,0,12,12
gpt-5.5,8,0,10,10,10,12
grok-4.3,7,0,6,6,12,12
kimi-k2.6,5,0,4,4,9,12
qwen-3.5-plus,6,0,8,8,11,12
`;
const refs = parseReferenceGroups(JSON.parse(readFileSync(join(__dirname, '..', 'data', 'human-references.json'), 'utf8')));

describe('Director Task and triangles from published numbers', () => {
  it('Table 2: panel means a 71.3%, b 12.0%, c.Q1 63.9%, c.Q2 59.3%, egocentric 77.8%, gap 59.3 points', () => {
    const { panel, models } = directorFromCounts(TABLE2, 'table2.csv');
    expect(models).toHaveLength(9);
    expect([panel.a, panel.b, panel.cQ1, panel.cQ2, panel.egocentric, panel.gap].map((x) => (x * 100).toFixed(1))).toEqual([
      '71.3',
      '12.0',
      '63.9',
      '59.3',
      '77.8',
      '59.3',
    ]);
    expect(() => directorFromCounts('model,a,b,c_q1,c_q2,egocentric_b,scenes\nx,13,0,0,0,0,12\n', 'bad.csv')).toThrow(
      /bad\.csv:2: a \(13\) exceeds scenes \(12\)/,
    );
    // An optional c.Q2 egocentric column is read and checked like the others.
    const withQ2 = directorFromCounts('model,a,b,c_q1,c_q2,egocentric_b,egocentric_c_q2,scenes\nx,12,0,12,6,12,3,12\n');
    expect(withQ2.models[0]!.egocentricCQ2).toBe(0.25);
    expect(withQ2.panel.egocentricCQ2).toBe(0.25);
  });

  it('nearest reference (Appendix H): the adult set gives TD for eight models and HF-ASD for gemini-3.0-pro; the wide set moves six to the age cohorts', () => {
    const { models } = directorFromCounts(TABLE2);
    const near = (set: 'adult' | 'wide') => Object.fromEntries(models.map((m) => [m.model, nearestDirectorGroup(m.gap, refs, set)]));
    const adult = near('adult');
    expect(Object.values(adult).filter((g) => g === 'TD adults')).toHaveLength(8);
    expect(adult['gemini-3.0-pro']).toBe('HF-ASD adults');
    const wide = near('wide');
    // As printed: grok-4.3 (0.583) to the 0.59 cohort; sonnet-4.6 and gpt-5.5 (0.667) to the
    // 0.67-0.68 cohorts; opus-4.7, gemini-3.5-flash, gpt-5.4 (0.833) to the 0.72 cohort; kimi and
    // qwen stay TD, gemini-3.0-pro stays HF-ASD.
    expect(wide).toEqual({
      'opus-4.7': 'Child I (7.3-9.7 years)',
      'sonnet-4.6': 'Adolescent I (11.5-13.9 years)',
      'gemini-3.0-pro': 'HF-ASD adults',
      'gemini-3.5-flash': 'Child I (7.3-9.7 years)',
      'gpt-5.4': 'Child I (7.3-9.7 years)',
      'gpt-5.5': 'Adolescent I (11.5-13.9 years)',
      'grok-4.3': 'Adolescent II (14.0-17.7 years)',
      'kimi-k2.6': 'TD adults',
      'qwen-3.5-plus': 'TD adults',
    });
    expect(models.filter((m) => wide[m.model] !== adult[m.model])).toHaveLength(6);
    // The references carry the full table: four Dumontheil cohorts (0.59, 0.67, 0.68, 0.72), the
    // pooled TD value from its two sources, and Epley's reach rates as brackets, all cited.
    expect(
      refs.director
        .filter((g) => g.ref === 'dumontheil2010')
        .map((g) => g.gap)
        .sort(),
    ).toEqual([0.59, 0.67, 0.68, 0.72]);
    const tdPooled = refs.director.find((g) => g.group === 'TD adults')!;
    expect(tdPooled.gap).toBeCloseTo((tdPooled.components![0]!.gap + tdPooled.components![1]!.gap) / 2, 12);
    expect(refs.egocentricReach.map((g) => g.rate)).toEqual([0.52, 0.24]);
    expect(Object.keys(refs.sources).sort()).toEqual(['begeer2010', 'castelli2002', 'dumontheil2010', 'epley2004', 'vlm-paper']);
  });

  it('the panel-mean ToM profile (2.31, 0.94) is 2.13 from TD adults and 0.73-0.74 from HF-ASD adults', () => {
    const p = profileOf('panel', 2.31, 0.94, refs);
    expect(p.distances.find((d) => d.group === 'TD adults')!.distance.toFixed(2)).toBe('2.13');
    // The paper's 0.73 comes from unrounded means; from the rounded (2.31, 0.94) it is 0.736.
    expect(p.distances.find((d) => d.group === 'HF-ASD adults')!.distance).toBeCloseTo(0.73, 1);
    expect(p.nearest).toBe('HF-ASD adults');
    // The paper prints only ToM profiles of the human groups: other conditions have no distances here.
    expect(profileOf('panel', 1.97, 1.98, refs, 'goal-directed')).toMatchObject({ distances: [], nearest: null });
  });

  it('the joint plot places TD adults at (0.435, 0) and HF-ASD adults at (0.340, 1.844), the adult-adult distance of Appendix H', () => {
    const spec = jointScatterSpec([], refs) as unknown as { data: { values: Array<{ label: string; x: number; y: number }> } };
    const humans = Object.fromEntries(spec.data.values.map((v) => [v.label, [v.x, Number(v.y.toFixed(3))]]));
    expect(humans).toEqual({ 'TD adults': [0.435, 0], 'HF-ASD adults': [0.34, 1.844] });
  });
});

// Cells built by hand: two subjects, three judges, two trials, two clips per condition.
const REFS = parseReferenceGroups({
  triangles: [
    { group: 'A', condition: 'tom', intent: 4, approp: 2 },
    { group: 'B', condition: 'tom', intent: 2, approp: 1 },
    { group: 'A', condition: 'goal-directed', intent: 2, approp: 2 },
    { group: 'B', condition: 'goal-directed', intent: 3, approp: 1 },
    { group: 'A', condition: 'random', intent: 0, approp: 3 },
  ],
  director: [{ group: 'A', gap: 0.4 }],
});

function cell(
  subject: string,
  condition: string,
  clip: string,
  replicate: number,
  values: Array<[number, number]>,
  arm = 'grid',
): TriangleCell {
  return {
    subject,
    suite: 'triangles',
    clipSet: 'procedural',
    clip,
    condition,
    arm,
    replicate,
    judges: values.map(([intent, approp], j) => ({
      judge: `j${j}`,
      intent,
      approp,
      usage: { inputTokens: 1000 + 10 * j, outputTokens: 20 },
    })),
    promptTokens: arm === 'frames' ? 4000 : 1400,
  };
}

const CELLS: TriangleCell[] = [
  // s1: ToM clips t1, t2; GD clips g1, g2; random r1, r2; two trials each.
  cell('s1', 'tom', 't1', 0, [
    [4, 2],
    [3, 1],
    [5, 2],
  ]),
  cell('s1', 'tom', 't1', 1, [
    [3, 2],
    [3, 2],
    [4, 1],
  ]),
  cell('s1', 'tom', 't2', 0, [
    [2, 1],
    [2, 0],
    [3, 1],
  ]),
  cell('s1', 'tom', 't2', 1, [
    [2, 1],
    [1, 1],
    [3, 2],
  ]),
  cell('s1', 'goal-directed', 'g1', 0, [
    [2, 3],
    [2, 2],
    [1, 2],
  ]),
  cell('s1', 'goal-directed', 'g2', 0, [
    [3, 2],
    [2, 2],
    [2, 3],
  ]),
  cell('s1', 'random', 'r1', 0, [
    [0, 3],
    [1, 3],
    [0, 2],
  ]),
  cell('s1', 'random', 'r2', 0, [
    [1, 2],
    [1, 3],
    [1, 3],
  ]),
  // s2: ToM not above GD.
  cell('s2', 'tom', 't1', 0, [
    [2, 1],
    [2, 1],
    [2, 1],
  ]),
  cell('s2', 'goal-directed', 'g1', 0, [
    [2, 2],
    [3, 2],
    [2, 2],
  ]),
  cell('s2', 'random', 'r1', 0, [
    [0, 3],
    [0, 3],
    [0, 3],
  ]),
];

describe('per-condition profiles against a computation by hand', () => {
  const scores = clipScores(CELLS);
  const profiles = conditionProfiles(scores, REFS);
  const get = (s: string, c: string) => profiles.find((p) => p.subject === s && p.condition === c)!;

  it('judge cells are trial means rounded, clips the judge median, profiles the mean over clips', () => {
    // s1 t1: judge means (3.5, 2), (3, 1.5), (4.5, 1.5) -> rounded (4, 2), (3, 2), (5, 2) -> median (4, 2).
    // s1 t2: (2, 1), (1.5, 0.5), (3, 1.5) -> (2, 1), (2, 1), (3, 2) -> median (2, 1). ToM profile (3, 1.5).
    expect(scores.find((x) => x.subject === 's1' && x.clip === 't1')).toMatchObject({ intent: 4, approp: 2, trials: 2 });
    expect(get('s1', 'tom')).toMatchObject({ intent: 3, approp: 1.5, clips: 2 });
    // GD: g1 median (2, 2), g2 median (2, 2) -> (2, 2); random: r1 (0, 3), r2 (1, 3) -> (0.5, 3).
    expect(get('s1', 'goal-directed')).toMatchObject({ intent: 2, approp: 2 });
    expect(get('s1', 'random')).toMatchObject({ intent: 0.5, approp: 3 });
    // Distances to the groups of the same condition only.
    expect(get('s1', 'tom').distances).toEqual([
      { group: 'A', distance: Math.hypot(3 - 4, 1.5 - 2) },
      { group: 'B', distance: Math.hypot(3 - 2, 1.5 - 1) },
    ]);
    expect(get('s1', 'goal-directed').distances.map((d) => d.distance)).toEqual([0, Math.hypot(1, 1)]);
    expect(get('s1', 'goal-directed').nearest).toBe('A');
    expect(get('s1', 'random').distances).toEqual([{ group: 'A', distance: 0.5 }]);
  });

  it('strict rank, panel median Intent over judge cells, panel-mean profile and nearest group per condition', () => {
    const [arm] = armSummaries(scores, profiles, REFS);
    expect(arm!.strictRank).toEqual({ s1: true, s2: false });
    expect(arm!.strictRankCount).toBe(1);
    // ToM judge cells: s1 t1 (4, 3, 5), s1 t2 (2, 2, 3), s2 t1 (2, 2, 2): median of nine = 2.
    expect(arm!.panelMedianIntent).toEqual({ tom: 2, 'goal-directed': 2, random: 0 });
    // Panel ToM mean over subjects: s1 (3, 1.5), s2 (2, 1) -> (2.5, 1.25), nearest B.
    expect(arm!.panelMean.tom).toMatchObject({ intent: 2.5, approp: 1.25, nearest: 'B' });
    expect(arm!.panelMean.tom!.distances[0]!.distance).toBeCloseTo(Math.hypot(1.5, 0.75), 12);
  });

  it('similarity to native video: 100 (1 - MAE / full scale) per field, averaged; prompt tokens per cell', () => {
    const video = CELLS.filter((c) => c.subject === 's1').map((c) => ({
      ...c,
      arm: 'video',
      judges: c.judges.map((j) => ({ ...j, intent: Math.min(5, j.intent + 1) })),
    }));
    const frames = CELLS.filter((c) => c.subject === 's1').map((c) => ({ ...c, arm: 'frames', promptTokens: 4000 }));
    const all = [...video, ...frames];
    const rows = frameSimilarity(clipScores(all), all);
    expect(rows.map((r) => r.arm)).toEqual(['frames']);
    const r = rows[0]!;
    // Video clip scores: Intent one higher per judge (capped at 5), so each clip's median moves by 1
    // except where the cap binds: t1 medians 4 -> 5; t2 2 -> 3; g1 2 -> 3; g2 2 -> 3; r1 0 -> 1; r2 1 -> 2.
    // MAE Intent 1 in every condition, Approp 0: similarity (80 + 100) / 2 = 90.
    expect(r.byCondition.map((c) => [c.condition, c.intentSimilarity, c.appropSimilarity, c.similarity])).toEqual([
      ['tom', 80, 100, 90],
      ['goal-directed', 80, 100, 90],
      ['random', 80, 100, 90],
    ]);
    expect(r.similarity).toBe(90);
    expect(r.promptTokens).toBe(4000);
  });

  it('judge cost per cell: measured from each judge call, estimated at 3,000 + 1,000 tokens a call', () => {
    const price: Record<string, [number, number]> = { j0: [1, 5], j1: [0.3, 2.5], j2: [0.12, 0.39] };
    const cost = judgeCost(CELLS, (j, u) => (price[j] ? (u.inputTokens * price[j]![0] + u.outputTokens * price[j]![1]) / 1e6 : null));
    // Every cell: judge j takes 1000 + 10 j input and 20 output tokens.
    const perCell = [0, 1, 2].reduce((s, j) => s + ((1000 + 10 * j) * price[`j${j}`]![0] + 20 * price[`j${j}`]![1]) / 1e6, 0);
    expect(cost.measuredPerCell).toBeCloseTo(perCell, 15);
    const estimate = [0, 1, 2].reduce((s, j) => s + (3000 * price[`j${j}`]![0] + 1000 * price[`j${j}`]![1]) / 1e6, 0);
    expect(cost.estimatedPerCell).toBeCloseTo(estimate, 15);
    expect(cost).toMatchObject({ cells: CELLS.length, cellsMeasured: CELLS.length, unpriced: [] });
    const unknown = judgeCost(CELLS, (j, u) => (j === 'j2' ? null : u.inputTokens));
    expect(unknown).toMatchObject({ measuredPerCell: null, estimatedPerCell: null, unpriced: ['j2'] });
  });

  it('compares two scorers arm by arm', () => {
    const anchored = CELLS.map((c) => ({ ...c, judges: c.judges.map((j) => ({ ...j, intent: c.condition === 'tom' ? 5 : j.intent })) }));
    const { rows, scorers } = compareScorers(
      [
        { scorer: 'blind', cells: CELLS },
        { scorer: 'informed', cells: anchored },
      ],
      REFS,
      () => 0,
    );
    expect(scorers.map((s) => s.arms[0]!.panelMedianIntent.tom)).toEqual([2, 5]);
    expect(scorers.map((s) => s.arms[0]!.strictRankCount)).toEqual([1, 2]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ arm: 'grid', sameMedians: false });
    // Informed ToM panel mean (5, 1.25) is nearest A (4, 2), blind (2.5, 1.25) nearest B.
    expect(rows[0]!.sameNearest).toBe(false);
  });
});

describe('joint analysis', () => {
  it('nearest group per task (adult and wide sets), disagreement, Spearman, and the figures from the CLI', async () => {
    const { models } = directorFromCounts(TABLE2);
    const profiles = [
      'subject,condition,intent,approp',
      ...models.map((m, i) => `${m.model},ToM,${(1.5 + i * 0.3).toFixed(2)},${(0.4 + i * 0.12).toFixed(2)}`),
      ...models.map((m, i) => `${m.model},goal-directed,${(1.5 + i * 0.1).toFixed(2)},2`),
      'opus-4.7,random,0.5,0.2',
    ].join('\n');
    const tri = trianglesFromProfiles(profiles, refs);
    expect(tri.every((p) => p.condition === 'tom')).toBe(true);
    // A condition the paper has not (it was kept, with no human group to compare) is refused.
    expect(() => trianglesFromProfiles(`${profiles}\nopus-4.7,theory,3,2`, refs, 'p.csv')).toThrow(
      /p\.csv:21: condition "theory" is not one of tom, goal-directed, random/,
    );
    // The paper's short name GD is goal-directed.
    expect(trianglesConditionsFromProfiles('subject,condition,intent,approp\nm,GD,2,1', refs).map((p) => p.condition)).toEqual([
      'goal-directed',
    ]);
    // A CSV error names the file.
    expect(() => trianglesFromProfiles('subject,condition,intent,approp\n"m,tom,2,1', refs, 'cut.csv')).toThrow(
      /cut\.csv:2: a quoted field/,
    );
    const joint = jointAnalysis(models, tri, refs);
    expect(joint.rows).toHaveLength(9);
    expect(joint.spearman).not.toBeNull();
    // Disagreement compares adult groups only: every model's two nearest groups are adult groups.
    for (const r of joint.rows) {
      expect(['TD adults', 'HF-ASD adults']).toContain(r.directorNearest);
      expect(r.disagree).toBe(r.directorNearest !== r.trianglesNearest);
    }
    expect(joint.disagreements).toBe(joint.rows.filter((r) => r.disagree).length);
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-vision-'));
    writeFileSync(join(dir, 'counts.csv'), TABLE2);
    writeFileSync(join(dir, 'profiles.csv'), profiles);
    const r = await runCli([
      'analyze',
      'vision',
      '--counts',
      join(dir, 'counts.csv'),
      '--profiles',
      join(dir, 'profiles.csv'),
      '--report',
      dir,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Spearman \(gap, distance to TD\): -?\d\.\d{3}/);
    expect(r.stdout).toMatch(/disagreements \(adult groups\): \d\/9/);
    expect(readFileSync(join(dir, 'vision-joint.svg'), 'utf8')).toMatch(/<svg[\s\S]*HF-ASD adults/);
    for (const f of ['vision-joint', 'vision-director', 'vision-profiles'])
      expect(
        readFileSync(join(dir, `${f}.png`))
          .subarray(1, 4)
          .toString(),
      ).toBe('PNG');
    // Without ffmpeg (an empty PATH): the SVGs are written and a warning says the PNGs are not.
    const bare = mkdtempSync(join(tmpdir(), 'mindscope-vision-bare-'));
    const noFfmpeg = await runCli(
      ['analyze', 'vision', '--counts', join(dir, 'counts.csv'), '--profiles', join(dir, 'profiles.csv'), '--report', bare],
      { env: { PATH: mkdtempSync(join(tmpdir(), 'mindscope-empty-path-')) } },
    );
    expect(noFfmpeg.code).toBe(0);
    expect(noFfmpeg.stderr).toBe(
      'warning: the charts are written as SVG only: PNG charts need ffmpeg with librsvg (Debian: apt install ffmpeg)\n',
    );
    expect(readdirSync(bare).sort()).toEqual(['vision-director.svg', 'vision-joint.svg', 'vision-profiles.svg']);
    // The Director command prints letter level and the egocentric rates, and both reference sets.
    const d = await runCli(['analyze', 'director', '--counts', join(dir, 'counts.csv')]);
    expect(d.code).toBe(0);
    expect(d.stdout).toMatch(/nearest \(adult\)\s+nearest \(wide\)/);
    expect(d.stdout).toMatch(/gpt-5\.4 .* TD adults\s+Child I \(7\.3-9\.7 years\)/);
    const t = await runCli(['analyze', 'triangles', '--profiles', join(dir, 'profiles.csv')]);
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/strict Intent rank ToM > GD > Random: opus-4\.7 no/);
  }, 60_000);
});
