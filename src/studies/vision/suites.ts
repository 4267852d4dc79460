// The vision suites: the Director Task's scenes and the animated triangles' arms.

import { manifest } from './manifest.js';
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
    ...manifest.suiteSummaries.director,
    load: (o) => ({ items: directorItems({ perArm: Math.ceil((o.count ?? 48) / 4), seed: o.seed }), warnings: [] }),
  }),
  defineSuite({
    id: 'triangles',
    protocol: describeProtocol,
    ...manifest.suiteSummaries.triangles,
    load: (o) => ({ items: triangleItems({ seed: o.seed, clips: clipsFor(o.count, 3) }), warnings: [] }),
  }),
  defineSuite({
    id: 'triangles-plain',
    protocol: describeProtocol,
    ...manifest.suiteSummaries['triangles-plain'],
    load: (o) => ({
      items: triangleItems({ seed: o.seed, arms: ['plain-grid'], suite: 'triangles-plain', clips: clipsFor(o.count, 1) }),
      warnings: [],
    }),
  }),
  defineSuite({
    id: 'triangles-frames',
    protocol: describeProtocol,
    ...manifest.suiteSummaries['triangles-frames'],
    load: (o) => ({
      items: triangleItems({ seed: o.seed, arms: ['frames'], suite: 'triangles-frames', clips: clipsFor(o.count, 1) }),
      warnings: [],
    }),
  }),
  defineSuite({
    id: 'triangles-native-video',
    protocol: describeProtocol,
    ...manifest.suiteSummaries['triangles-native-video'],
    load: (o) => ({
      items: triangleItems({ seed: o.seed, arms: ['video'], suite: 'triangles-native-video', clips: clipsFor(o.count, 1) }),
      warnings: [],
    }),
  }),
  defineSuite({
    id: 'triangles-formats',
    protocol: describeProtocol,
    ...manifest.suiteSummaries['triangles-formats'],
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
    ...manifest.suiteSummaries['triangles-video'],
    load: (o) => ({
      items: videoTriangleItems(parseClipList(readJson(o.data), o.data), (p) => (isAbsolute(p) ? p : join(dirname(o.data), p))),
      warnings: [],
    }),
  }),
];
