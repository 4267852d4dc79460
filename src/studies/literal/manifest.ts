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
  suiteSummaries: {
    tombench: {
      describe: 'ToMBench, 2,860 items in 20 tasks',
      needsData: true,
    },
    tomato: {
      describe: 'ToMATO (full format; the shared data has the false-belief subset)',
      needsData: true,
    },
    hitom: {
      describe: 'Hi-ToM, orders 0-4 (VP prompting records)',
      needsData: true,
    },
    tomi: {
      describe: 'ToMi test split',
      needsData: true,
    },
    bigtom: {
      describe: 'BigToM, 6 conditions x 200 stories',
      needsData: true,
    },
    opentom: {
      describe: 'OpenToM, closed-label questions',
      needsData: true,
    },
    'mmtom-qa': {
      describe: 'MMToM-QA, text version',
      needsData: true,
    },
    cogtom: {
      describe: 'CogToM (fields scene, question, options, answer, category, subcategory); --data FILE',
      needsData: true,
    },
  },
} satisfies PluginManifest;
