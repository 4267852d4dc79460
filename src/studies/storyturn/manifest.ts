// The storyturn study's manifest: what the command line, the report and the viewer know of it
// without loading its suites and protocols.

import type { PluginManifest } from '../../app/index.js';

export const manifest = {
  name: 'storyturn',
  suiteProtocols: {
    storyturn: 'conversation',
    'generated-storyturn': 'conversation',
  },
  commands: [
    {
      commands: [{ term: 'storyturn', description: 'StoryTurn conversations (CoMMET)' }],
      load: async () => (await import('./commands/storyturn.js')).registerStoryTurn,
    },
  ],
  viewerPanels: [{ protocol: 'conversation', record: async (t, ctx) => (await import('./view/record.js')).conversationView(t, ctx) }],
} satisfies PluginManifest;
