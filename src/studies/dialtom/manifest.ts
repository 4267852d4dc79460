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
  commands: [
    {
      commands: [
        {
          term: 'dialtom',
          description: 'DialToM: item building, written inferences from models, pairwise trace judging, dataset statistics',
        },
      ],
      load: async () => (await import('./commands/dialtom.js')).registerDialtom,
    },
    {
      group: 'analyze',
      commands: [
        {
          term: 'dialtom [options]',
          description:
            'DialToM: correctness per subject, domain and attribute (Wilson and exact intervals); the retrospective-prospective gap (Table 19); the easy-hard gap; positional bias; distractor clustering (Table 21); written inferences against the human references (BLEU, ROUGE-L, BERTScore, judge)',
        },
      ],
      load: async () => (await import('./commands/analyze-dialtom.js')).registerAnalyzeDialtom,
    },
  ],
} satisfies PluginManifest;
