// The per-condition profile figure (the VLM paper's Figures 3 and 5): one panel per condition,
// each model a circle coloured by its lab, the human groups as stars, and every point labelled
// with labels that overlap neither each other nor a point. Checked on the SVG that Vega renders:
// its text elements and their positions, its points and their fills; written by `analyze
// triangles --report` with a lab map.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderSvg } from '../src/report/index.js';
import {
  labelBox,
  loadHumanReferences,
  modelLab,
  overlapArea,
  PROFILE_PANEL,
  profileScatterSpec,
  trianglesConditionsFromProfiles,
  type LabelBox,
} from '../src/studies/vision/index.js';
import { runCli } from './helpers/run-cli.js';

const refs = loadHumanReferences();
// The paper's nine testers, named as a gateway and the hosted APIs would name them.
const PANEL = [
  'anthropic:claude-opus-4.7',
  'anthropic:claude-sonnet-4.6',
  'openai:gpt-5.4',
  'openai:gpt-5.5',
  'google:gemini-3.0-pro',
  'google:gemini-3.5-flash',
  'openai-compatible:https://gateway.example/v1#x-ai/grok-4.3',
  'openai-compatible:https://gateway.example/v1#moonshotai/kimi-k2.6',
  'openai-compatible:https://gateway.example/v1#qwen/qwen-3.5-plus',
];
const LABS = ['Anthropic', 'Anthropic', 'OpenAI', 'OpenAI', 'Google', 'Google', 'xAI', 'Moonshot', 'Alibaba (Qwen)'];

/** Profiles bunched as the paper's are (ToM near (2.3, 0.94)): neighbours 0.125 Intent and 0.0625 Approp apart, some on one spot. */
function bunchedCsv(): string {
  const base: Record<string, [number, number]> = { tom: [2.25, 0.9375], 'goal-directed': [2, 2], random: [1, 2.5] };
  const rows = ['subject,condition,intent,approp'];
  PANEL.forEach((m, i) => {
    for (const [c, [a, b]] of Object.entries(base)) rows.push(`${m},${c},${a + (i % 3) * 0.125},${b + (i % 2) * 0.0625}`);
  });
  return rows.join('\n');
}

interface Panel {
  labels: Array<{ text: string; box: LabelBox }>;
  points: Array<{ x: number; y: number; fill: string; label: string; lab: string }>;
}

/** The facet cells of a rendered figure: each one's label texts (as boxes) and points (pixel centres, fill). */
function panels(svg: string): Panel[] {
  const f = PROFILE_PANEL.fontSize;
  // Each facet cell starts with its background, the size of a panel.
  const { width, height } = PROFILE_PANEL;
  return svg
    .split(`<path class="background" aria-hidden="true" d="M0,0h${width}v${height}h-${width}Z"/>`)
    .slice(1)
    .map((cell) => {
      const labels = [
        ...cell.matchAll(
          /<text aria-label="lx: [^"]*" [^>]*text-anchor="(start|end)" transform="translate\(([-\d.]+),([-\d.]+)\)"[^>]*>([^<]*)<\/text>/g,
        ),
      ].map((m) => ({
        text: m[4]!,
        // Vega sets a middle baseline 0.3 em below the anchor.
        box: labelBox(m[4]!, Number(m[2]), Number(m[3]) - 0.3 * f, m[1] === 'start' ? 'left' : 'right', f),
      }));
      const points = [
        ...cell.matchAll(
          /<path aria-label="([^"]*)" [^>]*aria-roledescription="point" transform="translate\(([-\d.]+),([-\d.]+)\)"[^>]*fill="(#[0-9a-f]{6})"/g,
        ),
      ].map((m) => ({
        x: Number(m[2]),
        y: Number(m[3]),
        fill: m[4]!,
        label: /label: ([^;]*)/.exec(m[1]!)![1]!,
        lab: /lab: ([^;]*)/.exec(m[1]!)![1]!,
      }));
      return { labels, points };
    });
}

describe('labs', () => {
  it("names the lab of the paper's nine testers from provider, gateway organisation or model name", () => {
    expect(PANEL.map((m) => modelLab(m))).toEqual(LABS);
    expect(modelLab('openai-compatible:http://127.0.0.1:8000/v1#qwen2.5-72b-instruct')).toBe('Alibaba (Qwen)');
    expect(modelLab('agent:random')).toBe('reference agents');
    expect(modelLab('llamacpp:/models/foo.gguf')).toBe('llamacpp');
    expect(modelLab('openai-compatible:http://127.0.0.1:8000/v1#my-vlm', { 'openai-compatible': 'Our lab' })).toBe('Our lab');
  });
});

describe('the per-condition profile figure', () => {
  it('colours points by lab and sets every label clear of every other label and point, inside its panel', async () => {
    const ps = trianglesConditionsFromProfiles(bunchedCsv(), refs, 'profiles.csv');
    const svg = await renderSvg(profileScatterSpec(ps, refs));
    const cells = panels(svg);
    expect(cells).toHaveLength(3);
    for (const [k, cell] of cells.entries()) {
      // Nine models, and in the ToM panel the two adult groups (the reference file's groups), each labelled once.
      expect(cell.points).toHaveLength(k === 0 ? 11 : 9);
      expect(cell.labels.map((l) => l.text).sort()).toEqual(cell.points.map((p) => p.label).sort());
      for (const [i, a] of cell.labels.entries()) {
        for (const b of cell.labels.slice(i + 1)) expect(overlapArea(a.box, b.box), `panel ${k}: ${a.text} / ${b.text}`).toBe(0);
        for (const p of cell.points)
          expect(
            overlapArea(a.box, { x0: p.x - 4.75, y0: p.y - 4.75, x1: p.x + 4.75, y1: p.y + 4.75 }),
            `panel ${k}: ${a.text} on ${p.label}`,
          ).toBe(0);
        expect(a.box.x0 >= 0 && a.box.x1 <= PROFILE_PANEL.width && a.box.y0 >= 0 && a.box.y1 <= PROFILE_PANEL.height, a.text).toBe(true);
      }
      // One fill per lab, different labs apart; the human groups black.
      const fills = new Map<string, Set<string>>();
      for (const p of cell.points) fills.set(p.lab, (fills.get(p.lab) ?? new Set()).add(p.fill));
      expect([...fills.values()].every((s) => s.size === 1)).toBe(true);
      expect(new Set([...fills.values()].map((s) => [...s][0])).size).toBe(fills.size);
      if (k === 0) expect([...fills.get('human group (Castelli 2002)')!]).toEqual(['#000000']);
    }
    // Short model names as labels; the legend lists the labs in the panel's order.
    expect(cells[0]!.labels.map((l) => l.text)).toContain('grok-4.3');
    expect(svg).toContain(
      "Symbol legend titled 'lab' for fill color with 7 values: Anthropic, OpenAI, Google, xAI, Moonshot, Alibaba (Qwen), human group (Castelli 2002)",
    );
  });

  it('is written by analyze triangles --report, coloured by the lab map given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-profile-figure-'));
    writeFileSync(join(dir, 'profiles.csv'), bunchedCsv());
    writeFileSync(join(dir, 'labs.json'), JSON.stringify({ openai: 'OpenAI (via Azure)' }));
    const r = await runCli([
      'analyze',
      'triangles',
      '--profiles',
      join(dir, 'profiles.csv'),
      '--report',
      join(dir, 'fig'),
      '--labs',
      join(dir, 'labs.json'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const svg = readFileSync(join(dir, 'fig', 'vision-profiles.svg'), 'utf8');
    const gpt = panels(svg)[0]!.points.filter((p) => p.label.startsWith('gpt-'));
    expect(gpt.map((p) => p.lab)).toEqual(['OpenAI (via Azure)', 'OpenAI (via Azure)']);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ openai: 3 }));
    const bad = await runCli([
      'analyze',
      'triangles',
      '--profiles',
      join(dir, 'profiles.csv'),
      '--report',
      join(dir, 'fig'),
      '--labs',
      join(dir, 'bad.json'),
    ]);
    expect(bad.stderr).toMatch(/bad\.json: "openai": the lab must be a non-empty string/);
  });
});
