// The top-level commands as `mindscope --help` lists them, and the file that registers each, so
// that the CLI starts without loading every layer: only the file of the command being run is
// imported (tests/cli-lazy.test.ts checks this list against the full program's help).

import { Command, Option } from 'commander';
import type { CommandContext } from '../app/index.js';
import { commandContext } from './command-context.js';

/** The program without its commands: name, description, version, errors thrown rather than exiting. */
export function programShell(): Command {
  const program = new Command();
  program.name('mindscope').description('Run, generate and audit Theory-of-Mind evaluations of language models').version('0.1.0');
  program.exitOverride();
  return program;
}

/** A command file: the top-level commands it registers (help term and description) and how to load it. */
export interface CommandFile {
  load: () => Promise<(program: Command, ctx?: CommandContext) => void>;
  commands: ReadonlyArray<{ term: string; description: string }>;
}

/** Every command file, in the order `mindscope --help` lists their commands. */
export const COMMAND_FILES: readonly CommandFile[] = [
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
    commands: [{ term: 'data', description: 'the public ToM datasets: fetch them into the cache, list what is cached' }],
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
    load: async () => (await import('./commands/audit.js')).registerAudit,
    commands: [
      {
        term: 'audit [options]',
        description:
          'psychometric audit of ToM benchmarks: response matrices (--matrix), a stored run (--run-id) or a score table (--scores)',
      },
    ],
  },
  {
    load: async () => (await import('./commands/simulate.js')).registerSimulate,
    commands: [{ term: 'simulate', description: 'simulated data with known structure' }],
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
    load: async () => (await import('./commands/embodied.js')).registerEmbodied,
    commands: [{ term: 'embodied', description: 'embodied multi-agent ToM tasks (EnactToM): verify, generate, results' }],
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
  {
    load: async () => (await import('./commands/storyturn.js')).registerStoryTurn,
    commands: [{ term: 'storyturn', description: 'StoryTurn conversations (CoMMET)' }],
  },
  {
    load: async () => (await import('./commands/dialtom.js')).registerDialtom,
    commands: [
      {
        term: 'dialtom',
        description: 'DialToM: item building, written inferences from models, pairwise trace judging, dataset statistics',
      },
    ],
  },
  {
    load: async () => (await import('./commands/worker.js')).registerWorker,
    commands: [
      {
        term: 'worker [options]',
        description:
          'take trials queued by `run --enqueue` from a PostgreSQL store, call the models and record the results (stop with Ctrl-C)',
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

/** The command file that registers `name`, if any. */
function fileOf(name: string | undefined): CommandFile | undefined {
  return COMMAND_FILES.find((f) => f.commands.some((c) => c.term.split(' ')[0] === name));
}

/**
 * A stand-in for a command that is not being run: what the top-level help lists for it (name,
 * "[options]" through a hidden option, arguments, description) and nothing else.
 */
function addStub(program: Command, term: string, description: string): void {
  const [name, ...rest] = term.split(' ');
  const cmd = program.command(name!).description(description);
  for (const word of rest) {
    if (word === '[options]') cmd.addOption(new Option('--stub').hideHelp());
    else cmd.argument(word);
  }
}

/**
 * The program for `args` (the words after `mindscope`): the command they name (`report ...`,
 * `help report`) registered in full, every other one as a stand-in for the help listing.
 */
export async function buildProgramFor(args: readonly string[]): Promise<Command> {
  const program = programShell();
  const invoked = fileOf(args[0] === 'help' ? args[1] : args[0]);
  const register = invoked ? await invoked.load() : undefined;
  for (const file of COMMAND_FILES) {
    if (file === invoked) register!(program, await commandContext(args));
    else for (const c of file.commands) addStub(program, c.term, c.description);
  }
  return program;
}
