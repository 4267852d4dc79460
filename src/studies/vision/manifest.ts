// The vision study's manifest: what the command line, the report and the viewer know of it
// without loading its suites and protocols.

import { fileURLToPath } from 'node:url';
import type { PluginManifest } from '../../app/index.js';

/** A data file shipped with the package (templates/, rubrics/ at its root). */
const packageData = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

export const manifest = {
  name: 'vision',
  rubrics: { 'castelli-triangles': packageData('rubrics/castelli-triangles.yaml') },
  suiteProtocols: {
    director: 'director',
    triangles: 'describe',
    'triangles-plain': 'describe',
    'triangles-frames': 'describe',
    'triangles-native-video': 'describe',
    'triangles-formats': 'describe',
    'triangles-video': 'describe',
  },
  suiteSummaries: {
    director: {
      describe:
        'Director Task scenes with pictures, counterbalanced (palettes, letter-colour mapping, target slot, polarity): canonical, no-occluder, same-side director and four-block arms, interleaved (seeded; --limit N scenes in all, default 48)',
      needsData: false,
    },
    triangles: {
      describe:
        'animated triangles: twelve procedural clips (ToM, goal-directed, random) as numbered 4x4 frame grids, forward, time-reversed, and a single still (seeded); describe, then judge with mindscope score',
      needsData: false,
    },
    'triangles-plain': {
      describe:
        'animated triangles, the plain-grid arm: the twelve clips as 4x4 grids without order badges (same prompt text as the numbered grid)',
      needsData: false,
    },
    'triangles-frames': {
      describe: 'animated triangles, the frame-sequence arm: the 16 frames of each clip as separate pictures, in order',
      needsData: false,
    },
    'triangles-native-video': {
      describe:
        'animated triangles, the native-video arm: each clip as an MP4 (encoded with ffmpeg); only providers that take video (google:) answer',
      needsData: false,
    },
    'triangles-formats': {
      describe:
        'animated triangles, the frame-representation comparison (Appendix L): nine arms per clip: native video, 16, 32 and 64 frames as separate pictures, numbered grids 4x4, 4x8 and 8x8 at 320 x 240 a cell, and 4x4 and 8x8 at the source resolution (640 x 480); only providers that take video (google:) answer the video arm',
      needsData: false,
    },
    'triangles-video': {
      describe:
        'animated triangles from your own video files: --data clips.json listing { file, condition, script } (or { clips, arms }); frames sampled with ffmpeg; arms grid, reversed, still by default (also plain-grid, frames, video and the frame-representation arms frames-32, frames-64, grid-4x4, grid-4x8, grid-8x8, grid-4x4-fullres, grid-8x8-fullres)',
      needsData: true,
    },
  },
  commands: [
    {
      group: 'analyze',
      commands: [
        {
          term: 'director [options]',
          description:
            'Director Task: shares on a, b, c.Q1, c.Q2 at letter and colour level, egocentric rates on (b) and c.Q2, explicit-implicit gap, recovery, panel means, nearest human group (adult set and wide set), the floor control on the control arms; --figure1 SCENE draws the Figure 1 schematic',
        },
        {
          term: 'triangles [options]',
          description:
            'animated triangles: (Intent, Approp) per subject, condition and arm with distances to the human groups, strict Intent rank ToM > GD > Random, controls per arm, similarity to native video; --scorers compares rubrics (informed vs anchor-blinded) with judge cost per cell',
        },
        {
          term: 'vision [options]',
          description:
            "joint Director / triangles analysis: nearest group per task (adult and wide sets), disagreement, Spearman, and the paper's figures",
        },
      ],
      load: async () => (await import('./commands/analyze-vision.js')).registerAnalyzeVision,
    },
  ],
  viewerPanels: [
    { protocol: 'director', record: async (t, ctx) => (await import('./view/record.js')).directorView(t, ctx) },
    { protocol: 'describe', record: async (t, ctx) => (await import('./view/record.js')).describeView(t, ctx) },
  ],
  reportSections: [
    {
      title: 'Vision ToM: Director Task and animated triangles',
      protocols: ['director', 'describe'],
      render: async (ctx) => (await import('./report/vision.js')).visionReportSection(ctx.store, ctx.runId),
    },
  ],
} satisfies PluginManifest;
