// The vision suites: the Director Task's scenes and the animated triangles' arms.

import { dirname, isAbsolute, join } from 'node:path';
import { readJson } from '../../core/index.js';
import { defineSuite, type Suite } from '../../suites/index.js';
import { describeProtocol } from './protocols/describe-protocol.js';
import { directorProtocol } from './protocols/director-protocol.js';
import { directorItems, FRAME_FORMAT_ARMS, parseClipList, triangleItems, videoTriangleItems } from './suites/index.js';

/** Clips to draw for a --limit of `count` items with `arms` items per clip (all twelve without a limit). */
const clipsFor = (count: number | undefined, arms: number) => (count === undefined ? undefined : Math.ceil(count / arms));

/** The study's suites, in the order `mindscope suites` lists them. */
export const VISION_SUITES: readonly Suite[] = [
  defineSuite({
    id: 'director',
    protocol: directorProtocol,
    describe:
      'Director Task scenes with pictures, counterbalanced (palettes, letter-colour mapping, target slot, polarity): canonical, no-occluder, same-side director and four-block arms, interleaved (seeded; --limit N scenes in all, default 48)',
    needsData: false,
    load: (o) => ({ items: directorItems({ perArm: Math.ceil((o.count ?? 48) / 4), seed: o.seed }), warnings: [] }),
  }),
  defineSuite({
    id: 'triangles',
    protocol: describeProtocol,
    describe:
      'animated triangles: twelve procedural clips (ToM, goal-directed, random) as numbered 4x4 frame grids, forward, time-reversed, and a single still (seeded); describe, then judge with mindscope score',
    needsData: false,
    load: (o) => ({ items: triangleItems({ seed: o.seed, clips: clipsFor(o.count, 3) }), warnings: [] }),
  }),
  defineSuite({
    id: 'triangles-plain',
    protocol: describeProtocol,
    describe:
      'animated triangles, the plain-grid arm: the twelve clips as 4x4 grids without order badges (same prompt text as the numbered grid)',
    needsData: false,
    load: (o) => ({
      items: triangleItems({ seed: o.seed, arms: ['plain-grid'], suite: 'triangles-plain', clips: clipsFor(o.count, 1) }),
      warnings: [],
    }),
  }),
  defineSuite({
    id: 'triangles-frames',
    protocol: describeProtocol,
    describe: 'animated triangles, the frame-sequence arm: the 16 frames of each clip as separate pictures, in order',
    needsData: false,
    load: (o) => ({
      items: triangleItems({ seed: o.seed, arms: ['frames'], suite: 'triangles-frames', clips: clipsFor(o.count, 1) }),
      warnings: [],
    }),
  }),
  defineSuite({
    id: 'triangles-native-video',
    protocol: describeProtocol,
    describe:
      'animated triangles, the native-video arm: each clip as an MP4 (encoded with ffmpeg); only providers that take video (google:) answer',
    needsData: false,
    load: (o) => ({
      items: triangleItems({ seed: o.seed, arms: ['video'], suite: 'triangles-native-video', clips: clipsFor(o.count, 1) }),
      warnings: [],
    }),
  }),
  defineSuite({
    id: 'triangles-formats',
    protocol: describeProtocol,
    describe:
      'animated triangles, the frame-representation comparison (Appendix L): nine arms per clip: native video, 16, 32 and 64 frames as separate pictures, numbered grids 4x4, 4x8 and 8x8 at 320 x 240 a cell, and 4x4 and 8x8 at the source resolution (640 x 480); only providers that take video (google:) answer the video arm',
    needsData: false,
    load: (o) => ({
      items: triangleItems({
        seed: o.seed,
        arms: Object.values(FRAME_FORMAT_ARMS),
        suite: 'triangles-formats',
        armIds: true,
        clips: clipsFor(o.count, Object.keys(FRAME_FORMAT_ARMS).length),
      }),
      warnings: [],
    }),
  }),
  defineSuite({
    id: 'triangles-video',
    protocol: describeProtocol,
    describe:
      'animated triangles from your own video files: --data clips.json listing { file, condition, script } (or { clips, arms }); frames sampled with ffmpeg; arms grid, reversed, still by default (also plain-grid, frames, video and the frame-representation arms frames-32, frames-64, grid-4x4, grid-4x8, grid-8x8, grid-4x4-fullres, grid-8x8-fullres)',
    needsData: true,
    load: (o) => ({
      items: videoTriangleItems(parseClipList(readJson(o.data), o.data), (p) => (isAbsolute(p) ? p : join(dirname(o.data), p))),
      warnings: [],
    }),
  }),
];
