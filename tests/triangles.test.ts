// Animated triangles: procedural clips in three conditions, frame grids with order badges, the
// reversed and static controls, descriptions over a real local server (the grid as an image
// part), judged with the project's Castelli rubric, and profiles with distances to the human
// groups; the rubric's anchors validate judges.

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, scoreRun, validateJudgeModels } from '../src/index.js';
import { createRng } from '../src/core/index.js';
import { triangleItems } from '../src/suites/index.js';
import { parseReferenceGroups, trianglesFromRun } from '../src/analysis/index.js';
import { makeTriangleClip, TRIANGLE_BEHAVIOURS } from '../src/worlds/index.js';
import { evaluate } from './helpers/evaluate.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';

const root = join(__dirname, '..');

describe('procedural clips', () => {
  it('twelve behaviours in three conditions, seeded, sampled at (i + 0.5) D / N, with controls', () => {
    const all = Object.values(TRIANGLE_BEHAVIOURS).flat();
    expect(all).toHaveLength(12);
    for (const b of all) {
      const clip = makeTriangleClip(b, createRng(1));
      expect(clip.frames).toHaveLength(16);
      expect(clip).toEqual(makeTriangleClip(b, createRng(1)));
      // The triangles move.
      expect(clip.frames[0]).not.toEqual(clip.frames[15]);
    }
    const items = triangleItems({ seed: 1 });
    expect(items).toHaveLength(36);
    expect(new Set(items.map((i) => i.payload.variant))).toEqual(new Set(['forward', 'reversed', 'static']));
    expect(Buffer.from(items[0]!.payload.grid.split(',')[1]!, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('descriptions judged with the Castelli rubric', () => {
  let server: ModelServer;
  beforeAll(async () => {
    server = await startModelServer();
  });
  afterAll(async () => server.stop());

  it('runs over HTTP with the grid as an image part, is judged blind, and gives profiles', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-triangles-'));
    const store = openStore(join(dir, 'm.db'));
    try {
      const model = `openai-compatible:${server.url}/v1#ok`;
      await evaluate({ store, suites: ['triangles'], models: [model], runId: 't' });
      const bodies = (await server.stats()).bodies.map((b) => JSON.stringify(b.body));
      expect(bodies.filter((b) => b.includes('"image_url"') && b.includes('numbered frames'))).toHaveLength(36);
      // No condition label or mental-state word reaches the subject.
      expect(bodies.some((b) => /"(tom|goal-directed|coaxing|chasing)"|intention|mind/i.test(b))).toBe(false);
      const r = await scoreRun({
        store,
        runId: 't',
        rubricPath: join(root, 'rubrics', 'castelli-triangles.yaml'),
        judges: ['agent:keyword-judge'],
      });
      expect(r.scored).toBe(36);
      const refs = parseReferenceGroups(JSON.parse(readFileSync(join(root, 'data', 'human-references.json'), 'utf8')));
      const { byCondition, profiles } = trianglesFromRun(store, 't', refs);
      expect(byCondition).toHaveLength(9);
      expect(profiles).toHaveLength(1);
      expect(profiles[0]!.distances.map((d) => d.group)).toEqual(['TD adults', 'HF-ASD adults']);
    } finally {
      store.close();
    }
  }, 60_000);

  it('the anchors tell a judge that fails its gates', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-triangles-anchors-'));
    const store = openStore(join(dir, 'm.db'));
    try {
      const out = await validateJudgeModels({
        store,
        rubricPath: join(root, 'rubrics', 'castelli-triangles.yaml'),
        anchorsPath: join(root, 'rubrics', 'castelli-anchors.json'),
        judges: ['agent:keyword-judge'],
        k: 2,
      });
      expect(out.results[0]!.anchors.map((a) => a.id)).toEqual(['random-move', 'chase', 'coax', 'wrong']);
      // Keyword counting is no Castelli judge: it misses the appropriateness intervals.
      expect(out.results[0]!.pass).toBe(false);
      expect(out.results[0]!.reasons[0]).toMatch(/recovery/);
    } finally {
      store.close();
    }
  });
});

describe('clips from video files', () => {
  it('samples 16 frames with ffmpeg (one seek each) into a numbered grid, and runs them', async () => {
    const { spawnSync } = await import('node:child_process');
    const { writeFileSync } = await import('node:fs');
    const { videoGrid, sampleVideoFrames } = await import('../src/suites/index.js');
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-video-'));
    // A 4-second test video made by ffmpeg itself (moving test pattern).
    const made = spawnSync('ffmpeg', [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=duration=4:size=320x240:rate=10',
      '-pix_fmt',
      'yuv420p',
      join(dir, 'clip.mp4'),
    ]);
    expect(made.status).toBe(0);
    const frames = sampleVideoFrames(join(dir, 'clip.mp4'));
    expect(frames).toHaveLength(16);
    expect(frames[0]!.length).toBe(150 * 112 * 3);
    // The pattern moves: the first and last sampled frames differ.
    expect(Buffer.compare(Buffer.from(frames[0]!), Buffer.from(frames[15]!))).not.toBe(0);
    expect(videoGrid(join(dir, 'clip.mp4'))).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(() => sampleVideoFrames(join(dir, 'missing.mp4'))).toThrow(/missing\.mp4: ffprobe could not read the video/);
    writeFileSync(join(dir, 'clips.json'), JSON.stringify([{ file: 'clip.mp4', condition: 'random', script: 'A test pattern moves.' }]));
    const store = openStore(join(dir, 'm.db'));
    try {
      const r = await evaluate({ store, suites: ['triangles-video'], data: join(dir, 'clips.json'), models: ['agent:random'], runId: 'v' });
      expect(r.done).toBe(1);
    } finally {
      store.close();
    }
  });
});

describe('the joint analysis from runs', () => {
  it('pairs a director run and a judged triangles run by subject', async () => {
    const { spawnSync } = await import('node:child_process');
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-vision-runs-'));
    const store = openStore(join(dir, 'm.db'));
    try {
      await evaluate({
        store,
        suites: ['director'],
        limit: 8,
        models: ['agent:egocentric', 'agent:allocentric', 'agent:random'],
        runId: 'dir',
      });
      await evaluate({ store, suites: ['triangles'], models: ['agent:egocentric', 'agent:allocentric', 'agent:random'], runId: 'tri' });
      await scoreRun({
        store,
        runId: 'tri',
        rubricPath: join(root, 'rubrics', 'castelli-triangles.yaml'),
        judges: ['agent:keyword-judge'],
      });
    } finally {
      store.close();
    }
    const bin = join(root, 'bin', 'mindscope.js');
    const r = spawnSync(
      process.execPath,
      [bin, 'analyze', 'vision', '--director-run', 'dir', '--triangles-run', 'tri', '--db', join(dir, 'm.db'), '--json'],
      { encoding: 'utf8' },
    );
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as { rows: Array<{ subject: string; directorGap: number }>; spearman: number | null };
    expect(out.rows.map((x) => x.subject).sort()).toEqual(['agent:allocentric', 'agent:egocentric', 'agent:random']);
    expect(out.rows.find((x) => x.subject === 'agent:egocentric')!.directorGap).toBe(1);
  }, 60_000);
});
