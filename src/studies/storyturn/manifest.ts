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
  suiteSummaries: {
    storyturn: {
      describe: 'StoryTurn conversations (CoMMET format; JSON/JSONL stories or a CSV/Parquet table of turns; --data FILE); approved items',
      needsData: true,
    },
    'generated-storyturn': {
      describe:
        'procedural booklet-style StoryTurns with feedback branches (belief, perspective with a picture, second-order why, sarcasm, desires; seeded; --limit N, default 60)',
      needsData: false,
    },
  },
  commands: [
    {
      commands: [{ term: 'storyturn', description: 'StoryTurn conversations (CoMMET)' }],
      load: async () => (await import('./commands/storyturn.js')).registerStoryTurn,
    },
  ],
  viewerPanels: [{ protocol: 'conversation', record: async (t, ctx) => (await import('./view/record.js')).conversationView(t, ctx) }],
} satisfies PluginManifest;
