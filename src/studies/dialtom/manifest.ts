// The dialtom study's manifest: what the command line, the report and the viewer know of it
// without loading its suites and protocols.

import { fileURLToPath } from 'node:url';
import type { PluginManifest } from '../../app/index.js';

/** A data file shipped with the package (templates/, rubrics/ at its root). */
const packageData = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

export const manifest = {
  name: 'dialtom',
  templates: {
    'dialtom-retrospective': packageData('templates/dialtom-retrospective.yaml'),
    'dialtom-prospective': packageData('templates/dialtom-prospective.yaml'),
    'dialtom-counterfactual': packageData('templates/dialtom-counterfactual.yaml'),
    'dialtom-trace-injection': packageData('templates/dialtom-trace-injection.yaml'),
    'dialtom-summary-states': packageData('templates/dialtom-summary-states.yaml'),
    'dialtom-history-states': packageData('templates/dialtom-history-states.yaml'),
  },
  rubrics: {
    'dialtom-inference': packageData('rubrics/dialtom-inference.yaml'),
    'dialtom-trace-pair': packageData('rubrics/dialtom-trace-pair.yaml'),
  },
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
      group: 'dialtom',
      commands: [
        {
          term: 'teacher-traces [options]',
          description:
            "a teacher run's stored reasoning as a --traces file (JSONL of { item_id, trace }) for reasoning-trace injection: its last N sentences dropped, masked by the rules or by a model (DialToM §6.3)",
        },
        {
          term: 'easy-hard [options]',
          description:
            "the easy-hard gap from published rates (Table 22): Mann-Whitney U of the prospective-easy set's per-item correctness against the prospective set's, from the paper's Tables 3 and 6 or a rates file",
        },
      ],
      load: async () => {
        const [traces, easyHard] = await Promise.all([import('./commands/teacher-traces.js'), import('./commands/easy-hard.js')]);
        return (dialtom) => {
          traces.registerTeacherTraces(dialtom);
          easyHard.registerEasyHard(dialtom);
        };
      },
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
