// Vision ToM re-analysis from published numbers: the VLM paper's Table 2 counts give its panel
// means; its panel-mean triangles profile gives the distances to the human groups; the joint
// analysis flags models whose nearest group differs between the tasks and draws the scatter.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { directorFromCounts, jointAnalysis, parseReferenceGroups, profileOf, trianglesFromProfiles } from '../src/analysis/index.js';

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
  });

  it('the panel-mean ToM profile (2.31, 0.94) is 2.13 from TD adults and 0.73-0.74 from HF-ASD adults', () => {
    const p = profileOf('panel', 2.31, 0.94, refs);
    expect(p.distances.find((d) => d.group === 'TD adults')!.distance.toFixed(2)).toBe('2.13');
    // The paper's 0.73 comes from unrounded means; from the rounded (2.31, 0.94) it is 0.736.
    expect(p.distances.find((d) => d.group === 'HF-ASD adults')!.distance).toBeCloseTo(0.73, 1);
    expect(p.nearest).toBe('HF-ASD adults');
  });

  it('joint analysis: nearest group per task, disagreement, Spearman, and the scatter plot', () => {
    const { models } = directorFromCounts(TABLE2);
    const profiles = [
      'subject,condition,intent,approp',
      ...models.map((m, i) => `${m.model},ToM,${(1.5 + i * 0.3).toFixed(2)},${(0.4 + i * 0.12).toFixed(2)}`),
      'opus-4.7,random,0.5,0.2',
    ].join('\n');
    const tri = trianglesFromProfiles(profiles, refs);
    const joint = jointAnalysis(models, tri, refs);
    expect(joint.rows).toHaveLength(9);
    expect(joint.spearman).not.toBeNull();
    expect(joint.rows.some((r) => r.disagree)).toBe(true);
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-vision-'));
    writeFileSync(join(dir, 'counts.csv'), TABLE2);
    writeFileSync(join(dir, 'profiles.csv'), profiles);
    const bin = join(__dirname, '..', 'bin', 'mindscope.js');
    const r = spawnSync(
      process.execPath,
      [bin, 'analyze', 'vision', '--counts', join(dir, 'counts.csv'), '--profiles', join(dir, 'profiles.csv'), '--report', dir],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Spearman \(gap, distance to TD\): -?\d\.\d{3}/);
    expect(readFileSync(join(dir, 'vision-joint.svg'), 'utf8')).toMatch(/<svg[\s\S]*HF-ASD adults/);
    expect(readFileSync(join(dir, 'vision-joint.png')).subarray(1, 4).toString()).toBe('PNG');
  });
});
