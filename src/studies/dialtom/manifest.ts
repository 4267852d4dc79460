// The dialtom study's manifest: what the command line, the report and the viewer know of it
// without loading its suites and protocols.

import { fileURLToPath } from 'node:url';
import type { PluginManifest } from '../../app/index.js';

/** A data file shipped with the package (templates/, rubrics/ at its root). */
const packageData = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));

/**
 * DialToM's item-writing prompts (the paper's Appendices K.1 and K.2), by name: the prompts of
 * `dialtom write` and `dialtom summarize` (each replaceable with --prompt NAME=FILE). They write
 * items rather than ask them, so they are not multiple-choice templates for `run --template`.
 */
export const writingPrompts = {
  formats: packageData('templates/dialtom-write-formats.yaml'),
  states: packageData('templates/dialtom-write-states.yaml'),
  trajectory: packageData('templates/dialtom-write-trajectory.yaml'),
  counterfactual: packageData('templates/dialtom-write-counterfactual.yaml'),
  summary: packageData('templates/dialtom-write-summary.yaml'),
} as const;

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
  suiteSummaries: {
    'dialtom-retrospective': {
      describe: 'DialToM retrospective (literal), 999 items',
      needsData: true,
    },
    'dialtom-prospective': {
      describe: 'DialToM prospective (functional), 523 items',
      needsData: true,
    },
    'dialtom-prospective-easy': {
      describe: 'DialToM prospective with out-of-dialogue distractors, 523 items',
      needsData: true,
    },
    'dialtom-counterfactual': {
      describe: 'DialToM counterfactual profiles with "None of the above"',
      needsData: true,
    },
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
    {
      group: 'dialtom',
      commands: [
        {
          term: 'write [options]',
          description:
            "write item options with the paper's prompts (Appendices K.1-K.2): per window the true and three wrong states per attribute, three distractor trajectories, a contrary state per attribute (the counterfactual profile) and a summary under 50 words; a file for dialtom build --options",
        },
        {
          term: 'summarize [options]',
          description:
            "add a conversation summary under 50 words (the paper's K.1 prompt; a longer one is asked again, then refused) to released prospective items, written as the summary+states variant the dialtom-prospective suite reads",
        },
      ],
      load: async () => {
        const [write, summarize] = await Promise.all([import('./commands/dialtom-write.js'), import('./commands/dialtom-summarize.js')]);
        return (dialtom) => {
          write.registerWrite(dialtom);
          summarize.registerSummarize(dialtom);
        };
      },
    },
    {
      group: 'analyze',
      commands: [
        {
          term: 'dialtom-cross-task [options]',
          description:
            "DialToM cross-task agreement (section 5.3): each model's correctness per task pooled over domains (Wilson intervals), and Pearson and Spearman correlations between tasks across models (intervals, p), pooled and per domain",
        },
        {
          term: 'dialtom-retention [options]',
          description:
            "DialToM retention after verification (section 3.5): verified items over candidates per task and domain; from verifiers' labels, Dawid-Skene per batch with each annotator's confusion matrix and error rate, weak annotators flagged",
        },
        {
          term: 'dialtom-scale [options]',
          description:
            "DialToM performance against model scale (section 5.1): each model's parameter count (given, or published for open-weights models) and correctness with intervals, the rank correlation with scale per task, within-family inversions, and a plot",
        },
      ],
      load: async () => {
        const [crossTask, retention, scale] = await Promise.all([
          import('./commands/analyze-cross-task.js'),
          import('./commands/analyze-retention.js'),
          import('./commands/analyze-scale.js'),
        ]);
        return (analyze) => {
          crossTask.registerCrossTask(analyze);
          retention.registerRetention(analyze);
          scale.registerScale(analyze);
        };
      },
    },
  ],
} satisfies PluginManifest;
