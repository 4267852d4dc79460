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
