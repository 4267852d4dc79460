// The literal study's manifest: what the command line, the report and the viewer know of it
// without loading its suites and protocols.

import type { PluginManifest } from '../../app/index.js';

export const manifest = {
  name: 'literal',
  suiteProtocols: {
    tombench: 'mcq',
    tomato: 'mcq',
    hitom: 'mcq',
    tomi: 'mcq',
    bigtom: 'mcq',
    opentom: 'mcq',
    'mmtom-qa': 'mcq',
    cogtom: 'mcq',
  },
} satisfies PluginManifest;
