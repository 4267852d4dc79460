// Animated triangles: procedural clips in three conditions and six arms (numbered grid, its
// reversed and still controls, plain grid, 16-frame sequence, native video), descriptions over
// real local servers (OpenAI-compatible: the pictures as image parts in order; Gemini: the video
// as inline video/mp4 data, refused by APIs that take no video), judged with the Castelli
// rubric, profiles per condition and arm; the user's own clips in every arm; the informed and
// anchor-blinded rubrics compared in one command with the judges' cost per cell; the run report
// with the paper's figures.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compareTriangleScorers,
  evaluate as evaluateSpec,
  openStore,
  scoreRun,
  validateJudgeModels,
  writeRunReport,
} from '../src/index.js';
import { createRng } from '../src/core/index.js';
import {
  DESCRIBE_PROMPTS,
  makeTriangleClip,
  parseClipList,
  parseReferenceGroups,
  tileFrames,
  TRIANGLE_BEHAVIOURS,
  triangleFrameImage,
  triangleGrid,
  triangleItems,
  trianglesFromRun,
  videoTriangleItems,
} from '../src/studies/vision/index.js';
import { evaluate } from './helpers/evaluate.js';
import { startModelServer, type ModelServer } from './helpers/servers.js';
import { runCli } from './helpers/run-cli.js';

const root = join(__dirname, '..');
const refs = parseReferenceGroups(JSON.parse(readFileSync(join(root, 'data', 'human-references.json'), 'utf8')));
const pngSize = (url: string) => {
  const b = Buffer.from(url.split(',')[1]!, 'base64');
  return [b.readUInt32BE(16), b.readUInt32BE(20)];
};

describe('procedural clips and their arms', () => {
  it('twelve behaviours in three conditions, seeded, sampled at (i + 0.5) D / N', () => {
    const all = Object.values(TRIANGLE_BEHAVIOURS).flat();
    expect(all).toHaveLength(12);
    for (const b of all) {
      const clip = makeTriangleClip(b, createRng(1));
      expect(clip.frames).toHaveLength(16);
      expect(clip.trajectory).toHaveLength(160);
      // Frame i is tick floor((i + 0.5) 160 / 16) = 10 i + 5.
      clip.frames.forEach((f, i) => expect(f).toEqual(clip.trajectory[10 * i + 5]));
      expect(clip).toEqual(makeTriangleClip(b, createRng(1)));
      expect(clip.frames[0]).not.toEqual(clip.frames[15]);
    }
  });

  it('the canonical suite holds the numbered grid, its reversed and still controls; the other arms show the same clip otherwise', () => {
    const items = triangleItems({ seed: 1 });
    expect(items).toHaveLength(36);
    expect(new Set(items.map((i) => i.meta.arm))).toEqual(new Set(['grid', 'reversed', 'still']));
    const clip = makeTriangleClip('coaxing', createRng('triangles:1:coaxing:0'));
    const of = (arm: string) =>
      triangleItems({ seed: 1, arms: [arm as 'grid'], clips: 1 }).find((i) => i.payload.behaviour === 'coaxing')!.payload;
    expect(of('grid').images).toEqual([triangleGrid(clip.frames)]);
    // Reversed: the same badges 1..16 over the frames in reverse order.
    expect(of('reversed').images).toEqual([triangleGrid([...clip.frames].reverse())]);
    expect(of('reversed').images[0]).not.toBe(of('grid').images[0]);
    // Plain grid: no badges, same size.
    expect(of('plain-grid').images).toEqual([triangleGrid(clip.frames, { badges: false })]);
    expect(of('plain-grid').images[0]).not.toBe(of('grid').images[0]);
    expect(pngSize(of('plain-grid').images[0]!)).toEqual(pngSize(of('grid').images[0]!));
    // Frame sequence: 16 pictures of 320 x 240, in order.
    expect(of('frames').images).toEqual(clip.frames.map((f) => triangleFrameImage(f)));
    expect(pngSize(of('frames').images[0]!)).toEqual([320, 240]);
    // Still: the mid-clip frame alone, larger.
    expect(of('still').images).toEqual([triangleFrameImage(clip.frames[8]!, { width: 640, height: 480 })]);
    // Judges get the informed range with the label; the subject never sees it.
    expect(
      items
        .map((i) => `${i.payload.condition}:${i.payload.expectedIntent}`)
        .filter((x, k, a) => a.indexOf(x) === k)
        .sort(),
    ).toEqual(['goal-directed:2-3', 'random:0-1', 'tom:4-5']);
    // The two grids get byte-identical text.
    expect(DESCRIBE_PROMPTS.grid).toBe(DESCRIBE_PROMPTS['plain-grid']);
  });

  it('native video: every tick as an H.264 MP4 of 20 s, the same bytes twice', () => {
    const v = triangleItems({ seed: 1, arms: ['video'], clips: 1 });
    const again = triangleItems({ seed: 1, arms: ['video'], clips: 1 });
    expect(v[0]!.payload.video).toMatch(/^data:video\/mp4;base64,/);
    expect(v[0]!.payload.video).toBe(again[0]!.payload.video);
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-clipvideo-'));
    writeFileSync(join(dir, 'c.mp4'), Buffer.from(v[0]!.payload.video!.split(',')[1]!, 'base64'));
    const probe = spawnSync(
      'ffprobe',
      ['-v', 'error', '-show_entries', 'format=duration:stream=codec_name,nb_frames', '-of', 'csv=p=0', join(dir, 'c.mp4')],
      {
        encoding: 'utf8',
      },
    );
    expect(probe.stdout.trim().split('\n')).toEqual(['h264,160', '20.000000']);
  });
});

describe('descriptions over local servers, judged with the Castelli rubric', () => {
  let server: ModelServer;
  const KEY = 'AIza-test-KEY';
  const saved = { ...process.env };
  beforeAll(async () => {
    server = await startModelServer();
    process.env.GOOGLE_BASE_URL = server.url;
    process.env.GOOGLE_API_KEY = KEY;
  });
  afterAll(async () => {
    process.env = saved;
    await server.stop();
  });

  it('sends each arm as it should (pictures in order as image parts), is judged blind, and gives profiles per condition and arm', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-triangles-'));
    const store = await openStore(join(dir, 'm.db'));
    try {
      const model = `openai-compatible:${server.url}/v1#ok`;
      await evaluate({ store, suites: ['triangles', 'triangles-plain', 'triangles-frames'], models: [model], runId: 't' });
      const bodies = (await server.stats()).bodies
        .slice(-50)
        .map((b) => b.body as { messages: Array<{ content: Array<{ type: string; text?: string; image_url?: { url: string } }> }> });
      const parts = bodies.map((b) => b.messages[0]!.content);
      // Frame sequences: 16 image parts, in the clip's order, then the request.
      const seq = parts.filter((p) => p.length === 17);
      expect(seq).toHaveLength(12);
      const coaxing = triangleItems({ seed: 0, arms: ['frames'], clips: 1 })[0]!;
      expect(seq.some((p) => JSON.stringify(p.slice(0, 16).map((x) => x.image_url!.url)) === JSON.stringify(coaxing.payload.images))).toBe(
        true,
      );
      expect(seq.every((p) => p[16]!.text === DESCRIBE_PROMPTS.frames)).toBe(true);
      const all = JSON.stringify(bodies);
      // No condition label, script or mental-state word reaches the subject.
      expect(/"(tom|goal-directed|coaxing|chasing)"|intention|mind|4-5/i.test(all)).toBe(false);
      const r = await scoreRun({
        store,
        runId: 't',
        rubricPath: join(root, 'rubrics', 'castelli-triangles.yaml'),
        judges: ['agent:keyword-judge'],
      });
      expect(r.scored).toBe(60);
      const t = await trianglesFromRun(store, 't', refs);
      expect(t.arms.map((a) => a.arm)).toEqual(['grid', 'reversed', 'still', 'plain-grid', 'frames']);
      // Every arm: three conditions for the one subject, ToM with distances to both adult groups.
      expect(t.byCondition).toHaveLength(15);
      expect(t.profiles).toHaveLength(1);
      expect(t.profiles[0]!.distances.map((d) => d.group)).toEqual(['TD adults', 'HF-ASD adults']);
      expect(t.cells.every((c) => (c.promptTokens ?? 0) > 0)).toBe(true);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('native video goes to Gemini as inline video/mp4 data, frames as inline PNGs in order; an API without video fails those trials only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-triangles-video-'));
    const store = await openStore(join(dir, 'm.db'));
    try {
      const r = await evaluate({ store, suites: ['triangles-native-video'], models: ['google:gemini-2.0-flash'], limit: 2, runId: 'g' });
      expect(r).toMatchObject({ done: 2, failed: 0 });
      const items = triangleItems({ seed: 0, arms: ['video'], clips: 2 });
      const sent = (await server.stats()).bodies
        .filter((b) => b.protocol === 'google')
        .slice(-2)
        .map(
          (b) =>
            (b.body as { contents: Array<{ parts: Array<{ inlineData?: { mimeType: string; data: string }; text?: string }> }> })
              .contents[0]!.parts,
        );
      expect(sent.map((p) => p[0]!.inlineData!.mimeType)).toEqual(['video/mp4', 'video/mp4']);
      expect(sent.map((p) => p[0]!.inlineData!.data).sort()).toEqual(items.map((i) => i.payload.video!.split(',')[1]!).sort());
      expect(sent[0]![1]!.text).toBe(DESCRIBE_PROMPTS.video);
      const f = await evaluate({ store, suites: ['triangles-frames'], models: ['google:gemini-2.0-flash'], limit: 1, runId: 'gf' });
      expect(f.done).toBe(1);
      const framesBody = (await server.stats()).bodies.filter((b) => b.protocol === 'google').at(-1)!.body as {
        contents: Array<{ parts: Array<{ inlineData?: { mimeType: string; data: string } }> }>;
      };
      const expected = triangleItems({ seed: 0, arms: ['frames'], clips: 1 })[0]!.payload.images.map((u) => u.split(',')[1]);
      expect(framesBody.contents[0]!.parts.slice(0, 16).map((p) => p.inlineData!.data)).toEqual(expected);
      // The OpenAI-compatible API takes no video: those trials fail with a clear message, the subject is not stopped.
      const o = await evaluate({
        store,
        suites: ['triangles-native-video', 'triangles-plain'],
        models: [`openai-compatible:${server.url}/v1#ok`],
        limit: 1,
        runId: 'o',
      });
      expect(o).toMatchObject({ done: 1, failed: 1, aborted: [] });
      expect((await store.failures('o'))[0]!.error).toMatch(/takes no video parts.*google: model for native video/);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('compares the informed and anchor-blinded rubrics in one command, with judge cost per cell', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-triangles-judges-'));
    const db = join(dir, 'm.db');
    const store = await openStore(db);
    const judge = `openai-compatible:${server.url}/v1#judge-anchored`;
    try {
      await evaluate({ store, suites: ['triangles'], models: ['agent:random', 'agent:oracle'], runId: 'j' });
      for (const rubric of ['castelli-triangles.yaml', 'castelli-triangles-informed.yaml'])
        await scoreRun({ store, runId: 'j', rubricPath: join(root, 'rubrics', rubric), judges: [judge] });
      const prices = { 'judge-anchored': { inputPerMTok: 1, outputPerMTok: 2 } };
      const cmp = await compareTriangleScorers(store, 'j', ['judge:castelli-triangles', 'judge:castelli-triangles-informed'], {
        refs,
        prices,
      });
      const grid = (s: number) => cmp.scorers[s]!.arms.find((a) => a.arm === 'grid')!;
      // The anchored judge gives Intent 1 blind, and the top of the shown range informed (ToM 5, GD 3, random 1).
      expect(grid(0).panelMedianIntent).toEqual({ tom: 1, 'goal-directed': 1, random: 1 });
      expect(grid(1).panelMedianIntent).toEqual({ tom: 5, 'goal-directed': 3, random: 1 });
      expect([grid(0).strictRankCount, grid(1).strictRankCount]).toEqual([0, 2]);
      expect(cmp.rows.find((r) => r.arm === 'grid')).toMatchObject({ sameMedians: false });
      // The local server bills every short judge prompt as 40 input and 3 output tokens: $1 and $2 per million.
      for (const s of cmp.scorers) {
        expect(s.cost).toMatchObject({ cells: 72, cellsMeasured: 72, unpriced: [] });
        expect(s.cost.measuredPerCell).toBeCloseTo((40 * 1 + 3 * 2) / 1e6, 15);
        expect(s.cost.estimatedPerCell).toBeCloseTo((3000 * 1 + 1000 * 2) / 1e6, 15);
      }
    } finally {
      await store.close();
    }
    writeFileSync(join(dir, 'prices.json'), JSON.stringify({ 'judge-anchored': { inputPerMTok: 1, outputPerMTok: 2 } }));
    const r = await runCli([
      'analyze',
      'triangles',
      '--run-id',
      'j',
      '--db',
      db,
      '--scorers',
      'judge:castelli-triangles,judge:castelli-triangles-informed',
      '--prices',
      join(dir, 'prices.json'),
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/judge:castelli-triangles-informed\s+2\s+5\.0 \/ 3\.0 \/ 1\.0\s+2\/2/);
    expect(r.stdout).toMatch(/\$0\.000046/);
  }, 120_000);

  it('the anchors tell a judge that fails its gates', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-triangles-anchors-'));
    const store = await openStore(join(dir, 'm.db'));
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
      await store.close();
    }
  });
});

describe("the user's own clips", () => {
  it('samples 16 frames with ffmpeg into every arm, runs them, and reports each arm apart', async () => {
    const { sampleVideoFrames, videoStill } = await import('../src/studies/vision/index.js');
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
    expect(Buffer.compare(Buffer.from(frames[0]!), Buffer.from(frames[15]!))).not.toBe(0);
    expect(tileFrames(frames)).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(pngSize(videoStill(join(dir, 'clip.mp4')))).toEqual([320, 240]);
    expect(() => sampleVideoFrames(join(dir, 'missing.mp4'))).toThrow(/missing\.mp4: ffprobe could not read the video/);
    const clips = [
      { file: 'clip.mp4', condition: 'random', script: 'A test pattern moves.' },
      { file: 'clip.mp4', condition: 'ToM', script: 'The same pattern, labelled ToM.' },
    ];
    const arms = ['grid', 'reversed', 'still', 'plain-grid', 'frames', 'video'];
    writeFileSync(join(dir, 'clips.json'), JSON.stringify({ clips, arms }));
    const list = parseClipList(JSON.parse(readFileSync(join(dir, 'clips.json'), 'utf8')), 'clips.json');
    const items = videoTriangleItems(list, (p) => join(dir, p));
    expect(items).toHaveLength(12);
    const of = (arm: string) => items.find((i) => i.meta.arm === arm)!.payload;
    // The grid arms share one sampling: reversed is the same frames tiled backwards.
    expect(of('reversed').images).toEqual([tileFrames(frames, { reversed: true })]);
    expect(of('grid').images).toEqual([tileFrames(frames)]);
    expect(of('frames').images).toHaveLength(16);
    expect(of('video').video).toBe(`data:video/mp4;base64,${readFileSync(join(dir, 'clip.mp4')).toString('base64')}`);
    expect(items.map((i) => i.payload.condition)).toContain('tom');
    expect(() => parseClipList({ clips, arms: ['sideways'] }, 'clips.json')).toThrow(/clips\.json: unknown arm "sideways"/);
    // The plain list form still reads, with the default arms.
    expect(parseClipList(clips, 'l.json').arms).toEqual(['grid', 'reversed', 'still']);
    const store = await openStore(join(dir, 'm.db'));
    try {
      const r = await evaluateSpec(
        { suites: ['triangles-video'], data: join(dir, 'clips.json'), models: ['agent:random', 'agent:oracle'] },
        { store, runId: 'v' },
      );
      expect(r.done).toBe(24);
      await scoreRun({ store, runId: 'v', rubricPath: join(root, 'rubrics', 'castelli-triangles.yaml'), judges: ['agent:keyword-judge'] });
      const t = await trianglesFromRun(store, 'v', refs);
      expect(t.arms.map((a) => `${a.clipSet}:${a.arm}`)).toEqual(arms.map((a) => `user:${a}`));
      // With no generated clips the headline comes from the user's canonical arm.
      expect(t.headlineClipSet).toBe('user');
      expect(t.profiles.map((p) => p.subject).sort()).toEqual(['agent:oracle', 'agent:random']);
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe('the run report and the joint analysis from runs', () => {
  it('embeds the Director bars, the (Intent, Approp) scatter and the joint plot in the run report; analyze vision pairs the runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mindscope-vision-runs-'));
    const store = await openStore(join(dir, 'm.db'));
    const subjects = ['agent:egocentric', 'agent:allocentric', 'agent:random'];
    try {
      await evaluate({ store, suites: ['director', 'triangles'], limit: 48, models: subjects, runId: 'both' });
      await scoreRun({
        store,
        runId: 'both',
        rubricPath: join(root, 'rubrics', 'castelli-triangles.yaml'),
        judges: ['agent:keyword-judge'],
      });
      const path = await writeRunReport(store, 'both', join(dir, 'report'));
      const html = readFileSync(path, 'utf8');
      expect(html).toContain('Vision ToM: Director Task and animated triangles');
      // Three figures: the Director bars, the scatter per condition, the joint plot.
      expect(html.match(/<svg/g)!.length).toBeGreaterThanOrEqual(5);
      expect(html).toContain('Director Task, canonical arm: share right per sub-prompt');
      expect(html).toContain('Animated triangles, canonical arm');
      expect(html).toContain('Director gap vs triangles ToM distance to TD adults');
      expect(html).toContain('Dumontheil');
      expect(html).toContain('Canonical arm by counterbalancing factor');
    } finally {
      await store.close();
    }
    const r = await runCli(['analyze', 'vision', '--director-run', 'both', '--triangles-run', 'both', '--db', join(dir, 'm.db'), '--json']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { rows: Array<{ subject: string; directorGap: number }>; spearman: number | null };
    expect(out.rows.map((x) => x.subject).sort()).toEqual([...subjects].sort());
    expect(out.rows.find((x) => x.subject === 'agent:egocentric')!.directorGap).toBe(1);
    const d = await runCli(['analyze', 'director', '--run-id', 'both', '--db', join(dir, 'm.db'), '--by-factor']);
    expect(d.code).toBe(0);
    expect(d.stdout).toMatch(/canonical arm \(the headline\), colour level/);
    expect(d.stdout).toMatch(/by counterbalancing factor/);
  }, 120_000);
});
