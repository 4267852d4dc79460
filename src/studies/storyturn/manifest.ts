// The storyturn study's manifest: what the command line, the report and the viewer know of it
// without loading its suites and protocols.

import { fileURLToPath } from 'node:url';
import type { PluginManifest } from '../../app/index.js';

/** A data file shipped with the package (templates/, rubrics/ at its root). */
const packageData = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

export const manifest = {
  name: 'storyturn',
  rubrics: { 'commet-open-answer': packageData('rubrics/commet-open-answer.yaml') },
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
