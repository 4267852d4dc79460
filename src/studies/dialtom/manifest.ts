// The dialtom study's manifest: what the command line, the report and the viewer know of it
// without loading its suites and protocols.

import type { PluginManifest } from '../../app/index.js';

export const manifest = {
  name: 'dialtom',
  suiteProtocols: {
    'dialtom-retrospective': 'mcq',
    'dialtom-prospective': 'mcq',
    'dialtom-prospective-easy': 'mcq',
    'dialtom-counterfactual': 'mcq',
  },
} satisfies PluginManifest;
