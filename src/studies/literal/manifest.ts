// The literal study's manifest: what the command line, the report and the viewer know of it
// without loading its suites and protocols.

import { fileURLToPath } from 'node:url';
import type { PluginManifest } from '../../app/index.js';

/** A data file shipped with the package (templates/, rubrics/ at its root). */
const packageData = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

export const manifest = {
  name: 'literal',
  templates: { tombench: packageData('templates/tombench.yaml'), tomato: packageData('templates/tomato.yaml') },
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
