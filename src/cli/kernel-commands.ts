// The kernel's commands: each command file, the top-level commands it registers (help term and
// description) and how to load it. The plugins' commands (the built-in studies' and a config
// file's) are listed between the two parts; tests/cli-lazy.test.ts checks every declaration
// against what its file registers.

import type { CommandDefinition } from '../app/index.js';

/** Running, reading and analysing evaluations: listed before the plugins' commands. */
export const KERNEL_COMMANDS: readonly CommandDefinition[] = [
  {
    load: async () => (await import('./commands/demo.js')).registerDemo,
    commands: [
      {
        term: 'demo [options]',
        description:
          'offline demo: generate ToM stories, run the reference agents (and a local GGUF model), write the store and an HTML report',
      },
    ],
  },
  {
    load: async () => (await import('./commands/run.js')).registerRun,
    commands: [{ term: 'run [options] [suite...]', description: 'run suites against models, continuing the run when it already exists' }],
  },
  {
    load: async () => (await import('./commands/items.js')).registerItems,
    commands: [
      { term: 'items [options] <suite>', description: 'load and validate a suite; print its counts' },
      { term: 'suites [options]', description: 'list the suite ids' },
    ],
  },
  {
    load: async () => (await import('./commands/data.js')).registerData,
    commands: [
      { term: 'data', description: 'the public ToM datasets: fetch them into the cache, list what is cached, verify the cached files' },
    ],
  },
  {
    load: async () => (await import('./commands/runs.js')).registerRuns,
    commands: [
      {
        term: 'runs [options]',
        description: 'list the runs in a store: id, name, suites, models with their accuracy, status, cost and date (newest first)',
      },
    ],
  },
  {
    load: async () => (await import('./commands/status.js')).registerStatus,
    commands: [{ term: 'status [options]', description: 'trials done, failed and pending per subject and suite' }],
  },
  {
    load: async () => (await import('./commands/export.js')).registerExport,
    commands: [{ term: 'export', description: 'export results' }],
  },
  {
    load: async () => (await import('./commands/report.js')).registerReport,
    commands: [{ term: 'report [options]', description: 'write a self-contained HTML report of a run' }],
  },
  {
    load: async () => (await import('./commands/compare.js')).registerCompare,
    commands: [
      {
        term: 'compare [options]',
        description:
          'paired comparison of subjects on the same items: difference with a paired score interval (Newcombe), McNemar, Holm across categories, minimum detectable difference',
      },
    ],
  },
  {
    load: async () => (await import('./commands/judge.js')).registerJudge,
    commands: [
      {
        term: 'score [options]',
        description:
          "score a stored run's responses with a judge panel, or with a plugin's scorer (no subject is re-run; judge calls are cached)",
      },
      { term: 'judge', description: 'judge panels' },
    ],
  },
  {
    load: async () => (await import('./commands/analyze.js')).registerAnalyze,
    commands: [{ term: 'analyze', description: 'analyses of one paper family over stored runs or published rates' }],
  },
];

/** Stores, workers, item response theory, baselines, imports and the viewer: listed after the plugins' commands. */
export const KERNEL_TOOL_COMMANDS: readonly CommandDefinition[] = [
  {
    load: async () => (await import('./commands/worker.js')).registerWorker,
    commands: [
      {
        term: 'worker [options]',
        description:
          'take trials queued by `run --enqueue` from a PostgreSQL store, call the models and record the results (stop with Ctrl-C); scheduled repetitions (run --repeat-at) are taken when due',
      },
    ],
  },
  {
    load: async () => (await import('./commands/db.js')).registerDb,
    commands: [
      { term: 'db', description: 'move stores between backends' },
      {
        term: 'merge [options] <stores...>',
        description: 'merge stores of a run sharded by hand (same run specification; a trial done in several is taken from the first)',
      },
    ],
  },
  {
    load: async () => (await import('./commands/irt.js')).registerIrt,
    commands: [{ term: 'irt', description: 'item response theory: item banks, tiny benchmarks, adaptive tests' }],
  },
  {
    load: async () => (await import('./commands/humans.js')).registerHumans,
    commands: [{ term: 'humans', description: 'human and expert baselines as subjects' }],
  },
  {
    load: async () => (await import('./commands/import.js')).registerImport,
    commands: [{ term: 'import', description: 'bring results of other tools into the store' }],
  },
  {
    load: async () => (await import('./commands/view.js')).registerView,
    commands: [
      {
        term: 'view [options]',
        description: 'browse runs, trials, transcripts, comparisons and episodes in a local web page (the store is only read)',
      },
    ],
  },
];
