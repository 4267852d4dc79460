// The suites mindscope ships: the released ToM benchmarks (multiple choice), the embodied,
// StoryTurn and vision suites, and the procedural ones. Users add suites with defineSuite.

import { dirname, isAbsolute, join } from 'node:path';
import { ConfigError } from '../core/index.js';
import { conversationProtocol, describeProtocol, directorProtocol, episodeProtocol, mcqProtocol } from '../protocols/index.js';
import { defineSuite, type Suite } from './suite.js';
import { loadBigtom } from './literal/bigtom.js';
import { loadDialtom } from './literal/dialtom.js';
import { COGTOM_FIELDS, loadGenericMcq } from './literal/generic-mcq.js';
import { loadHitom } from './literal/hitom.js';
import { loadMmtomQa } from './literal/mmtom-qa.js';
import { loadOpentom } from './literal/opentom.js';
import { loadTomato } from './literal/tomato.js';
import { loadTomBench } from './literal/tombench.js';
import { loadTomi } from './literal/tomi.js';
import { generateTomItems } from './generated/story-generator.js';
import { loadEnactTom, loadGeneratedEnactTom } from './embodied/embodied-suites.js';
import { generateStoryTurns } from './storyturn/storyturn-generator.js';
import { directorItems } from './vision/director-suite.js';
import { parseClipList, triangleItems, videoTriangleItems } from './vision/triangles-suite.js';
import { readJson } from '../core/index.js';
import { loadStoryTurnSuite, storyTurnItem } from './storyturn/storyturn-loader.js';

/** Clips to draw for a --limit of `count` items with `arms` items per clip (all twelve without a limit). */
const clipsFor = (count: number | undefined, arms: number) => (count === undefined ? undefined : Math.ceil(count / arms));

/** The built-in suites, in the order `mindscope suites` lists them. */
export const BUILTIN_SUITES: readonly Suite[] = [
  defineSuite({
    id: 'tombench',
    protocol: mcqProtocol,
    describe: 'ToMBench, 2,860 items in 20 tasks',
    needsData: true,
    load: (o) => loadTomBench(o.data),
  }),
  defineSuite({
    id: 'tomato',
    protocol: mcqProtocol,
    describe: 'ToMATO (full format; the shared data has the false-belief subset)',
    needsData: true,
    load: (o) => loadTomato(o.data),
  }),
  defineSuite({
    id: 'dialtom-retrospective',
    protocol: mcqProtocol,
    describe: 'DialToM retrospective (literal), 999 items',
    needsData: true,
    load: (o) => loadDialtom(o.data, 'retrospective'),
  }),
  defineSuite({
    id: 'dialtom-prospective',
    protocol: mcqProtocol,
    describe: 'DialToM prospective (functional), 523 items',
    needsData: true,
    load: (o) => loadDialtom(o.data, 'prospective'),
  }),
  defineSuite({
    id: 'dialtom-prospective-easy',
    protocol: mcqProtocol,
    describe: 'DialToM prospective with out-of-dialogue distractors, 523 items',
    needsData: true,
    load: (o) => loadDialtom(o.data, 'prospective-easy'),
  }),
  defineSuite({
    id: 'dialtom-counterfactual',
    protocol: mcqProtocol,
    describe: 'DialToM counterfactual profiles with "None of the above"',
    needsData: true,
    load: (o) => loadDialtom(o.data, 'counterfactual'),
  }),
  defineSuite({
    id: 'hitom',
    protocol: mcqProtocol,
    describe: 'Hi-ToM, orders 0-4 (VP prompting records)',
    needsData: true,
    load: (o) => loadHitom(o.data),
  }),
  defineSuite({
    id: 'tomi',
    protocol: mcqProtocol,
    describe: 'ToMi test split',
    needsData: true,
    load: (o) => loadTomi(o.data),
  }),
  defineSuite({
    id: 'bigtom',
    protocol: mcqProtocol,
    describe: 'BigToM, 6 conditions x 200 stories',
    needsData: true,
    load: (o) => loadBigtom(o.data),
  }),
  defineSuite({
    id: 'opentom',
    protocol: mcqProtocol,
    describe: 'OpenToM, closed-label questions',
    needsData: true,
    load: (o) => loadOpentom(o.data),
  }),
  defineSuite({
    id: 'mmtom-qa',
    protocol: mcqProtocol,
    describe: 'MMToM-QA, text version',
    needsData: true,
    load: (o) => loadMmtomQa(o.data),
  }),
  defineSuite({
    id: 'cogtom',
    protocol: mcqProtocol,
    describe: 'CogToM (fields scene, question, options, answer, category, subcategory); --data FILE',
    needsData: true,
    load: (o) => loadGenericMcq(o.data, COGTOM_FIELDS, 'cogtom'),
  }),
  defineSuite({
    id: 'mcq',
    protocol: mcqProtocol,
    describe: 'generic MCQ file (JSONL, JSON, CSV, Parquet) with a field mapping; --data FILE',
    needsData: true,
    load: (o) => {
      if (!o.fields) throw new ConfigError('suite mcq needs a field mapping (--fields question=...,options=...,answer=...)');
      return loadGenericMcq(o.data, o.fields, 'mcq');
    },
  }),
  defineSuite({
    id: 'enacttom',
    protocol: episodeProtocol,
    describe: 'EnactToM embodied tasks (task JSON; --data FILE or the shared data root), run as multi-agent episodes',
    needsData: true,
    load: (o) => loadEnactTom(o.data),
  }),
  defineSuite({
    id: 'generated-enacttom',
    protocol: episodeProtocol,
    describe: 'procedural EnactToM-style embodied tasks, verified (depths 1-4, both categories, 2-6 agents; seeded; --limit N, default 30)',
    needsData: false,
    load: (o) => loadGeneratedEnactTom(o.count ?? 30, o.seed),
  }),
  defineSuite({
    id: 'storyturn',
    protocol: conversationProtocol,
    describe: 'StoryTurn conversations (CoMMET format; JSON/JSONL stories or a CSV/Parquet table of turns; --data FILE); approved items',
    needsData: true,
    load: (o) => loadStoryTurnSuite(o.data),
  }),
  defineSuite({
    id: 'generated-storyturn',
    protocol: conversationProtocol,
    describe:
      'procedural booklet-style StoryTurns with feedback branches (belief, perspective with a picture, second-order why, sarcasm, desires; seeded; --limit N, default 60)',
    needsData: false,
    load: (o) => ({
      items: generateStoryTurns({ count: o.count ?? 60, seed: o.seed }).map((s) => storyTurnItem('generated-storyturn', s)),
      warnings: [],
    }),
  }),
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
    id: 'triangles-video',
    protocol: describeProtocol,
    describe:
      'animated triangles from your own video files: --data clips.json listing { file, condition, script } (or { clips, arms }); 16 frames sampled with ffmpeg; arms grid, reversed, still by default (also plain-grid, frames, video)',
    needsData: true,
    load: (o) => ({
      items: videoTriangleItems(parseClipList(readJson(o.data), o.data), (p) => (isAbsolute(p) ? p : join(dirname(o.data), p))),
      warnings: [],
    }),
  }),
  defineSuite({
    id: 'generated-tom',
    protocol: mcqProtocol,
    describe: 'procedural false-belief, knowledge, perception and 2nd-4th order stories (seeded)',
    needsData: false,
    load: (o) => ({ items: generateTomItems({ count: o.count ?? 300, seed: o.seed }), warnings: [] }),
  }),
];
