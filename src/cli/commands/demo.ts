import type { Command } from 'commander';
import { join } from 'node:path';
import { evaluate, openStore, writeRunReport } from '../../index.js';
import { intOption } from '../options.js';
import { createProgress } from '../progress.js';
import { printRunSummary } from './run-summary.js';

/** The reference agents the demo contrasts: each fails in its own, known way. */
const DEMO_AGENTS = ['agent:oracle', 'agent:first-order', 'agent:reality', 'agent:first-option', 'agent:random'];

export function registerDemo(program: Command): void {
  program
    .command('demo')
    .description(
      'offline demo: generate ToM stories, run the reference agents (and a local GGUF model), write the store and an HTML report',
    )
    .option('--out <dir>', 'output folder', 'mindscope-demo')
    .option('--gguf <path>', 'also run this local GGUF model (llama.cpp, in process)')
    .option('--items <n>', 'stories to generate', intOption('--items', 1), 300)
    .option('--seed <s>', 'generator seed', intOption('--seed', 0), 7)
    .option('--json', 'print the run summary, store and report paths as JSON')
    .action(async (flags: { out: string; gguf?: string; items: number; seed: number; json?: boolean }) => {
      const store = await openStore(join(flags.out, 'mindscope.db'));
      const progress = createProgress();
      try {
        const result = await evaluate(
          {
            suites: ['generated-tom'],
            models: [...DEMO_AGENTS, ...(flags.gguf ? [`llamacpp:${flags.gguf}`] : [])],
            limit: flags.items,
            seed: flags.seed,
            shuffle: true,
            settings: { maxTokens: 32 },
          },
          { store, concurrency: 4, onEvent: (e) => progress.onEvent(e) },
        );
        progress.stop();
        // The demo owns its output folder: running it again replaces its report.
        const report = await writeRunReport(store, result.runId, join(flags.out, 'report'), { force: true });
        if (result.aborted.length || result.failed) process.exitCode = 2;
        if (flags.json) {
          process.stdout.write(
            `${JSON.stringify({ ...result, warnings: result.warnings.length, store: store.location, report }, null, 2)}\n`,
          );
          return;
        }
        await printRunSummary(store, result, (s) => process.stdout.write(`${s}\n`), { byAbility: true });
        process.stdout.write(`\nstore:  ${store.location}\nreport: ${report}\n`);
        process.stdout.write(
          '\nReading the demo: agent:oracle tracks every belief; agent:first-order fails questions about what one\n' +
            'character thinks another thinks; agent:reality answers with where things really are (the false-belief\n' +
            'error); agent:first-option and agent:random are positional and chance baselines.\n',
        );
      } finally {
        progress.stop();
        await store.close();
      }
    });
}
