// The frame-representation comparison of the VLM paper (Appendix L): nine arms per clip (native
// video; 16, 32 and 64 frames as separate pictures; numbered 4x4, 4x8 and 8x8 grids at 320 x 240
// a cell; 4x4 and 8x8 grids at the source resolution), built from the generated clips and from
// the user's own videos, run from the command line against a Gemini-like local server whose
// descriptions depend on how the clip was sent, judged, and compared with the native video:
// similarity, prompt tokens per cell and the Pareto front.

import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRng } from '../src/core/index.js';
import {
  describePrompt,
  FRAME_FORMAT_ARMS,
  makeTriangleClip,
  parseClipList,
  sampleFrames,
  triangleFrameImage,
  triangleGrid,
  triangleItems,
  videoTriangleItems,
} from '../src/studies/vision/index.js';
import { runCli } from './helpers/run-cli.js';
import { startScriptServer, type ScriptServer } from './helpers/script-server.js';

const pngSize = (url: string) => {
  const b = Buffer.from(url.split(',')[1]!, 'base64');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
};
const words = (s: string) => (s.match(/\S+/g) ?? []).length;

describe('the nine frame representations of Appendix L', () => {
  it('maps the paper names to arms and builds each with its frame count, layout and cell size', () => {
    expect(Object.keys(FRAME_FORMAT_ARMS)).toEqual([
      'native_video',
      'frames_16',
      'frames_32',
      'frames_64',
      'grid_4x4',
      'grid_4x8',
      'grid_8x8',
      'grid_4x4_fullres',
      'grid_8x8_fullres',
    ]);
    const items = triangleItems({ seed: 0, arms: Object.values(FRAME_FORMAT_ARMS), armIds: true, clips: 1 });
    expect(items.map((i) => i.id)).toEqual([
      'coaxing-1-video',
      'coaxing-1-frames',
      'coaxing-1-frames-32',
      'coaxing-1-frames-64',
      'coaxing-1-grid-4x4',
      'coaxing-1-grid-4x8',
      'coaxing-1-grid-8x8',
      'coaxing-1-grid-4x4-fullres',
      'coaxing-1-grid-8x8-fullres',
    ]);
    const of = (arm: string) => items.find((i) => i.meta.arm === arm)!.payload;
    expect(of('video').video).toMatch(/^data:video\/mp4;base64,/);
    expect(['frames', 'frames-32', 'frames-64'].map((a) => of(a).images.length)).toEqual([16, 32, 64]);
    expect(['frames', 'frames-32', 'frames-64'].map((a) => pngSize(of(a).images[0]!))).toEqual([
      [320, 240],
      [320, 240],
      [320, 240],
    ]);
    // Grids: columns x 320 by rows x 240; at the source resolution 640 x 480 a cell.
    expect(['grid-4x4', 'grid-4x8', 'grid-8x8', 'grid-4x4-fullres', 'grid-8x8-fullres'].map((a) => pngSize(of(a).images[0]!))).toEqual([
      [1280, 960],
      [2560, 960],
      [2560, 1920],
      [2560, 1920],
      [5120, 3840],
    ]);
    // The 64 frames are the trajectory sampled at (i + 0.5) D / 64, in order.
    const clip = makeTriangleClip('coaxing', createRng('triangles:0:coaxing:0'));
    expect(of('frames-64').images).toEqual(sampleFrames(clip.trajectory, 64).map((f) => triangleFrameImage(f)));
    expect(of('grid-8x8').images).toEqual([
      triangleGrid(sampleFrames(clip.trajectory, 64), { columns: 8, cellWidth: 320, cellHeight: 240 }),
    ]);
    // A grid's request names its frame count; 16-frame grids keep the canonical text.
    expect(describePrompt(of('grid-8x8'))).toMatch(/^The picture shows 64 frames of a short silent animation/);
    expect(describePrompt(of('grid-4x8'))).toMatch(/shows 32 frames/);
    expect(describePrompt(of('grid-4x4'))).toBe(describePrompt({ representation: 'grid' }));
    // The canonical suite's items are as they were: ids end in the variant, no frame count.
    const canonical = triangleItems({ seed: 0, clips: 1 });
    expect(canonical.map((i) => i.id)).toEqual(['coaxing-1-forward', 'coaxing-1-reversed', 'coaxing-1-static']);
    expect(canonical.every((i) => i.payload.frameCount === undefined)).toBe(true);
  });

  it("samples the user's videos for the new arms: 32 frames, 8 columns, cells at the file's own size", () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-formats-video-'));
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
    const list = parseClipList(
      { clips: [{ file: 'clip.mp4', condition: 'tom', script: 'A test pattern.' }], arms: ['frames-32', 'grid-4x8', 'grid-4x4-fullres'] },
      'clips.json',
    );
    const items = videoTriangleItems(list, (p) => join(dir, p));
    expect(items.map((i) => i.id)).toEqual(['clip-1-1-frames-32', 'clip-1-1-grid-4x8', 'clip-1-1-grid-4x4-fullres']);
    expect(items[0]!.payload.images).toHaveLength(32);
    expect(pngSize(items[1]!.payload.images[0]!)).toEqual([2560, 960]);
    // The source is 320 x 240: a full-resolution 4x4 grid is 1280 x 960.
    expect(pngSize(items[2]!.payload.images[0]!)).toEqual([1280, 960]);
    expect(items.map((i) => i.payload.frameCount)).toEqual([32, 32, 16]);
    expect(() => parseClipList({ clips: [], arms: ['grid-16x16'] }, 'clips.json')).toThrow(/clips\.json: unknown arm "grid-16x16"/);
  }, 60_000);
});

describe('the comparison run from the command line', () => {
  let server: ScriptServer;
  beforeAll(async () => {
    server = await startScriptServer('frames-server.mjs');
  });
  afterAll(() => server.stop());

  it('sends every arm, judges the descriptions, and ranks the arms by similarity to native video against prompt tokens', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-formats-'));
    const db = join(dir, 'm.db');
    const env = { GOOGLE_BASE_URL: server.url, GOOGLE_API_KEY: 'gk-test' };
    const run = await runCli(
      ['run', 'triangles-formats', '--model', 'google:gemini-2.5-pro', '--limit', '9', '--db', db, '--run-id', 'f', '--json'],
      {
        env,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ done: 9, failed: 0 });
    expect((await server.stats<{ seen: string[] }>()).seen.sort()).toEqual(
      [
        'video',
        'frames_16',
        'frames_32',
        'frames_64',
        'grid_16_1280x960',
        'grid_32_2560x960',
        'grid_64_2560x1920',
        'grid_16_2560x1920',
        'grid_64_5120x3840',
      ].sort(),
    );
    const score = await runCli(['score', '--rubric', 'castelli-triangles', '--judge', 'agent:keyword-judge', '--run-id', 'f', '--db', db]);
    expect(score.code, score.stderr).toBe(0);
    const out = await runCli(['analyze', 'triangles', '--run-id', 'f', '--db', db, '--json']);
    expect(out.code, out.stderr).toBe(0);
    const t = JSON.parse(out.stdout) as {
      arms: Array<{ arm: string }>;
      similarity: Array<{ arm: string; similarity: number; promptTokens: number; pareto: boolean }>;
    };
    expect(t.arms.map((a) => a.arm)).toEqual([
      'frames',
      'video',
      'frames-32',
      'frames-64',
      'grid-4x4',
      'grid-4x8',
      'grid-8x8',
      'grid-4x4-fullres',
      'grid-8x8-fullres',
    ]);
    // Native video is judged (5, 3); each arm's (Intent, Approp) as the server describes it gives
    // 100 (1 - |dI| / 5) and 100 (1 - |dA| / 3), averaged.
    const expected: Record<string, number> = {
      frames: (60 + 200 / 3) / 2,
      'frames-32': (80 + 200 / 3) / 2,
      'frames-64': (80 + 100) / 2,
      'grid-4x4': (80 + 200 / 3) / 2,
      'grid-4x8': (60 + 100) / 2,
      'grid-8x8': (40 + 200 / 3) / 2,
      'grid-4x4-fullres': (80 + 200 / 3) / 2,
      'grid-8x8-fullres': (60 + 200 / 3) / 2,
    };
    const sim = Object.fromEntries(t.similarity.map((r) => [r.arm, r]));
    expect(Object.keys(sim).sort()).toEqual(Object.keys(expected).sort());
    for (const [arm, s] of Object.entries(expected)) expect(sim[arm]!.similarity, arm).toBeCloseTo(s, 10);
    // Prompt tokens: 258 a picture up to 384 x 384, 258 a 768 x 768 tile otherwise, one a word of text.
    const grid = (n: number) => words(describePrompt({ representation: 'grid', frameCount: n })!);
    const frames = words(describePrompt({ representation: 'frames' })!);
    expect(grid(16)).toBe(27);
    expect(Object.fromEntries(t.similarity.map((r) => [r.arm, r.promptTokens]))).toEqual({
      frames: 16 * 258 + frames,
      'frames-32': 32 * 258 + frames,
      'frames-64': 64 * 258 + frames,
      'grid-4x4': 4 * 258 + grid(16),
      'grid-4x8': 8 * 258 + grid(32),
      'grid-8x8': 12 * 258 + grid(64),
      'grid-4x4-fullres': 12 * 258 + grid(16),
      'grid-8x8-fullres': 35 * 258 + grid(64),
    });
    // The Pareto front: grid-4x4 (cheapest at 73.3%), grid-4x8 (80% at 2,064 + text) and frames-64 (the most similar).
    expect(
      t.similarity
        .filter((r) => r.pareto)
        .map((r) => r.arm)
        .sort(),
    ).toEqual(['frames-64', 'grid-4x4', 'grid-4x8']);
    const text = await runCli(['analyze', 'triangles', '--run-id', 'f', '--db', db]);
    expect(text.stdout).toMatch(/numbered 8x8 grid at source resolution \(grid_8x8_fullres\)\s+63\.3\s+63\.3\s+-\s+-\s+9057\s+no/);
    expect(text.stdout).toMatch(/64 frames as separate pictures \(frames_64\)\s+90\.0\s+90\.0\s+-\s+-\s+16533\s+yes/);
  }, 180_000);
});
