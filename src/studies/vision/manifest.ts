// The vision study's manifest: what the command line, the report and the viewer know of it
// without loading its suites and protocols.

import type { PluginManifest } from '../../app/index.js';

export const manifest = {
  name: 'vision',
  suiteProtocols: {
    director: 'director',
    triangles: 'describe',
    'triangles-plain': 'describe',
    'triangles-frames': 'describe',
    'triangles-native-video': 'describe',
    'triangles-video': 'describe',
  },
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
