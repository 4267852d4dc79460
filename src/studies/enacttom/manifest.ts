// The enacttom study's manifest: what the command line, the report and the viewer know of it
// without loading its suites and protocols.

import type { PluginManifest } from '../../app/index.js';

export const manifest = {
  name: 'enacttom',
  suiteProtocols: {
    enacttom: 'episode',
    'generated-enacttom': 'episode',
  },
  commands: [
    {
      commands: [{ term: 'embodied', description: 'embodied multi-agent ToM tasks (EnactToM): verify, generate, results' }],
      load: async () => (await import('./commands/embodied.js')).registerEmbodied,
    },
  ],
} satisfies PluginManifest;
