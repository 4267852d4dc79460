// The VLM paper's Figure 1 for the Director Task, drawn from a scene as SVG by `mindscope analyze
// director --figure1 SCENE`: the table's cells with their blocks, the partition on the director's
// side of the occluded cell, the director's and the participant's sides, the director's sight
// lines, the request, the target and the egocentric choice, and the picture the model is shown.

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BLOCK_PAINT, directorFigure1, directorItems, directorView, targetBlock, trapBlock } from '../src/studies/vision/index.js';
import { runCli } from './helpers/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'mindscope-figure1-'));
const sceneItem = (id: string) => directorItems({ perArm: 12, seed: 0 }).find((i) => i.id === id)!;

/** Every tag opened is closed in order (the SVG is well formed as far as its elements go). */
function balanced(svg: string): boolean {
  const stack: string[] = [];
  for (const m of svg.matchAll(/<(\/?)([a-zA-Z][\w-]*)[^>]*?(\/?)>/g)) {
    if (m[3]) continue;
    if (!m[1]) stack.push(m[2]!);
    else if (stack.pop() !== m[2]) return false;
  }
  return stack.length === 0;
}

const attrs = (tag: string) => Object.fromEntries([...tag.matchAll(/([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
const elements = (svg: string, name: string, cls: RegExp) =>
  [...svg.matchAll(new RegExp(`<${name}\\b[^>]*>`, 'g'))].map((m) => attrs(m[0])).filter((a) => cls.test(a.class ?? ''));
const unescapeXml = (s: string) =>
  s
    .replace(/&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => unescapeXml(m[1]!));
const hex = (rgb: readonly number[]) => `#${rgb.map((v) => v.toString(16).padStart(2, '0')).join('')}`;

describe('Figure 1 of a scene', () => {
  it('canonical: three cells with their blocks, the partition on the director side of the occluded cell, sight lines to the blocks the director sees', () => {
    const item = sceneItem('canonical-01');
    const s = item.payload.scene;
    const svg = directorFigure1(s, { picture: item.payload.picture });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(balanced(svg)).toBe(true);
    const cells = elements(svg, 'g', /^cell\b/);
    expect(cells.map((c) => [c['data-slot'], c['data-letter']])).toEqual([
      ['0', 'A'],
      ['1', 'B'],
      ['2', 'C'],
    ]);
    const blocks = elements(svg, 'rect', /^block$/);
    expect(blocks.map((b) => [b['data-letter'], b['data-color'], b.fill])).toEqual(
      s.blocks.map((b) => [b.letter, b.color, hex(BLOCK_PAINT[b.color]!)]),
    );
    // Larger blocks are drawn larger.
    const side = (letter: string) => Number(blocks.find((b) => b['data-letter'] === letter)!.width);
    const bySize = [...s.blocks].sort((a, b) => a.size - b.size).map((b) => side(b.letter));
    expect(bySize).toEqual([...bySize].sort((a, b) => a - b));
    // One occluder, before the hidden block's cell on the director's side; that cell is occluded.
    const occluders = elements(svg, 'rect', /^occluder/);
    expect(occluders).toHaveLength(1);
    expect(occluders[0]!['data-letter']).toBe(s.hidden);
    const frames = elements(svg, 'rect', /^cell-frame$/);
    const tableTop = Number(frames[0]!.y);
    expect(Number(occluders[0]!.y) + Number(occluders[0]!.height)).toBeLessThanOrEqual(tableTop);
    expect(cells.filter((c) => c.class === 'cell occluded').map((c) => c['data-letter'])).toEqual([s.hidden]);
    // The occluder sits over its cell.
    const hiddenFrame = frames[s.blocks.findIndex((b) => b.letter === s.hidden)]!;
    expect(Number(occluders[0]!.x)).toBeGreaterThan(Number(hiddenFrame.x));
    expect(Number(occluders[0]!.x) + Number(occluders[0]!.width)).toBeLessThan(Number(hiddenFrame.x) + Number(hiddenFrame.width));
    // Target and egocentric choice.
    expect(cells.find((c) => c['data-role']?.includes('target'))!['data-letter']).toBe(targetBlock(s, 'director').letter);
    expect(cells.find((c) => c['data-role']?.includes('trap'))!['data-letter']).toBe(trapBlock(s)!.letter);
    // The director sees the other two: sight lines to those only, from above the table.
    const sight = elements(svg, 'line', /^sight$/);
    expect(sight.map((l) => l['data-letter']).sort()).toEqual(directorView(s).sort());
    expect(sight.every((l) => Number(l.y1) < tableTop)).toBe(true);
    // Sides and labels.
    expect(elements(svg, 'g', /^side far$/)[0]!['data-side']).toBe('director');
    expect(elements(svg, 'g', /^side near$/)[0]!['data-side']).toBe('participant');
    const t = texts(svg);
    for (const label of [
      "director's side",
      "participant's side (the tested model)",
      'director',
      'participant',
      'partition: hidden from the director',
    ])
      expect(t).toContain(label);
    expect(t).toContain(`“Move the ${s.extremum} block.”`);
    const named = (l: string) => `${s.blocks.find((b) => b.letter === l)!.color} ${l}`;
    expect(t).toContain(`(a) the director sees: ${directorView(s).map(named).join(', ')}`);
    expect(t).toContain(
      `(b) the director means: ${named(targetBlock(s, 'director').letter)} (green frame); the egocentric choice: ${named(trapBlock(s)!.letter)} (red dashes)`,
    );
    // Beside it, the picture the tested model is shown.
    expect(svg).toContain(`href="${item.payload.picture}"`);
    expect(t).toContain('what the tested model sees');
  });

  it('controls and the four-block variant: an inert partition, none at all, four cells', () => {
    const same = sceneItem('same-side-02').payload.scene;
    const svg = directorFigure1(same);
    expect(balanced(svg)).toBe(true);
    expect(elements(svg, 'rect', /^occluder/).map((o) => o.class)).toEqual(['occluder inert']);
    expect(elements(svg, 'g', /^cell occluded$/)).toHaveLength(0);
    expect(elements(svg, 'g', /^side far$/)[0]!['data-side']).toBe('none');
    // The director stands on the participant's side: its sight lines start below the table, to all three blocks.
    const sight = elements(svg, 'line', /^sight$/);
    expect(sight).toHaveLength(3);
    const tableBottom = Number(elements(svg, 'rect', /^cell-frame$/)[0]!.y) + Number(elements(svg, 'rect', /^cell-frame$/)[0]!.height);
    expect(sight.every((l) => Number(l.y1) > tableBottom)).toBe(true);
    expect(texts(svg)).toContain('partition: hides nothing here');
    expect(svg).not.toContain('<image');
    const none = directorFigure1(sceneItem('no-occluder-03').payload.scene);
    expect(elements(none, 'rect', /^occluder/)).toHaveLength(0);
    expect(elements(none, 'g', /^cell\b/).some((c) => c['data-role']?.includes('trap'))).toBe(false);
    const four = directorFigure1(sceneItem('four-blocks-04').payload.scene);
    expect(elements(four, 'g', /^cell\b/)).toHaveLength(4);
    expect(elements(four, 'rect', /^occluder$/)).toHaveLength(1);
  });
});

describe('analyze director --figure1', () => {
  it('writes the figure of a scene id of the suite, or of a scene file, and refuses what is not a scene', async () => {
    const out = join(dir, 'f.svg');
    const r = await runCli(['analyze', 'director', '--figure1', 'canonical-01', '--out', out]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`wrote ${out}\n`);
    const item = sceneItem('canonical-01');
    expect(readFileSync(out, 'utf8')).toBe(directorFigure1(item.payload.scene, { picture: item.payload.picture }));
    // Another seed changes the letter-colour mapping of the same scene.
    const other = await runCli(['analyze', 'director', '--figure1', 'canonical-01', '--seed', '5', '--out', join(dir, 'g.svg'), '--json']);
    const shown = (JSON.parse(other.stdout) as { scene: { blocks: Array<{ color: string }> } }).scene;
    expect(shown.blocks.map((b) => b.color)).toEqual(directorItems({ perArm: 1, seed: 5 })[0]!.payload.scene.blocks.map((b) => b.color));
    // A scene file (as a run stores it, without its picture): the picture is drawn.
    const scene = { ...item.payload.scene, id: 'mine' };
    writeFileSync(join(dir, 'scene.json'), JSON.stringify(scene));
    const f = await runCli(['analyze', 'director', '--figure1', join(dir, 'scene.json'), '--out', join(dir, 'h.svg')]);
    expect(f.code, f.stderr).toBe(0);
    const h = readFileSync(join(dir, 'h.svg'), 'utf8');
    expect(h).toContain('Director Task, scene mine (canonical arm)');
    expect(h).toContain(`href="${item.payload.picture}"`);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify({ ...scene, blocks: [{ ...scene.blocks[0], color: 'mauve' }, scene.blocks[1]] }));
    const bad = await runCli(['analyze', 'director', '--figure1', join(dir, 'bad.json'), '--out', join(dir, 'x.svg')]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/bad\.json: not a Director-Task scene: blocks\.0\.color/);
    const unknown = await runCli(['analyze', 'director', '--figure1', 'canonical-1', '--out', join(dir, 'y.svg')]);
    expect(unknown.stderr).toMatch(/--figure1 canonical-1: no such scene \(ids have two digits: canonical-01\)/);
    const nonsense = await runCli(['analyze', 'director', '--figure1', 'sideways', '--out', join(dir, 'z.svg')]);
    expect(nonsense.stderr).toMatch(/--figure1 sideways: give a scene id of the director suite/);
  });
});
