// The enacttom study's manifest: what the command line, the report and the viewer know of it
// without loading its suites and protocols.

import type { PluginManifest } from '../../app/index.js';

export const manifest = {
  name: 'enacttom',
  suiteProtocols: {
    enacttom: 'episode',
    'generated-enacttom': 'episode',
  },
  suiteSummaries: {
    enacttom: {
      describe: 'EnactToM embodied tasks (task JSON; --data FILE or the shared data root), run as multi-agent episodes',
      needsData: true,
    },
    'generated-enacttom': {
      describe:
        'procedural EnactToM-style embodied tasks, verified (depths 1-4, both categories, 2-6 agents; seeded; --limit N, default 30)',
      needsData: false,
    },
  },
  commands: [
    {
      commands: [{ term: 'embodied', description: 'embodied multi-agent ToM tasks (EnactToM): verify, generate, results' }],
      load: async () => (await import('./commands/embodied.js')).registerEmbodied,
    },
  ],
  viewerPanels: [{ protocol: 'episode', record: async (t, ctx) => (await import('./view/episode-replay.js')).episodeView(t, ctx) }],
  reportSections: [
    {
      title: 'Embodied episodes',
      protocols: ['episode'],
      render: async (ctx) => (await import('./report/section.js')).episodeReportSection(ctx),
    },
  ],
} satisfies PluginManifest;
