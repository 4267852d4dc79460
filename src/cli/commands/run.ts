import type { Command } from 'commander';
import {
  accuracyTextTable,
  evaluate,
  formatTextTable,
  loadPriceTable,
  openStore,
  runAccuracy,
  type EvaluateResult,
  type McqScoring,
  type Store,
} from '../../index.js';
import { intOption, numberOption, parseFieldMap } from '../options.js';
import { createProgress } from '../progress.js';

export interface RunFlags {
  model: string[];
  data?: string;
  trials: number;
  concurrency: number;
  limit?: number;
  seed: number;
  timeout: number;
  runId?: string;
  db: string;
  apiKeyEnv?: string;
  shuffle?: boolean;
  mcqScoring: McqScoring;
  template?: string;
  temperature?: number;
  maxTokens?: number;
  prices?: string;
  fields?: string;
  cache: boolean;
  images?: boolean;
  traces?: string;
  json?: boolean;
  quiet?: boolean;
}

/** The end-of-run summary: accuracy per subject and category, then tokens and cost. */
export function printRunSummary(store: Store, result: EvaluateResult, out: (s: string) => void, opts: { byAbility?: boolean } = {}): void {
  out(
    `\nrun ${result.runId}: ${result.done} done, ${result.failed} failed, ${result.skipped} already done (${(result.elapsedMs / 1000).toFixed(1)} s)`,
  );
  const table = runAccuracy(store, result.runId);
  if (table.subjects.length) out(`\naccuracy (%) by category\n${accuracyTextTable(table)}`);
  if (opts.byAbility && table.subjects.length)
    out(`\naccuracy (%) by question type\n${accuracyTextTable(runAccuracy(store, result.runId, 'ability'))}`);
  if (result.usage.length) {
    out(
      `\nusage\n${formatTextTable(
        ['subject', 'trials', 'input tok', 'output tok', 'cached calls', 'cost $'],
        result.usage.map((u) => [
          u.spec,
          String(u.trials),
          String(u.inputTokens),
          String(u.outputTokens),
          `${u.cachedCalls}/${u.totalCalls}`,
          u.costUsd.toFixed(4),
        ]),
      )}`,
    );
  }
  for (const a of result.aborted) out(`\nstopped ${a.spec}: ${a.error}`);
  if (result.failed)
    out(`\n${result.failed} trial(s) failed after retries; run the same command again to retry them (mindscope status shows where).`);
}

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('run suites against models, continuing the run when it already exists')
    .argument('<suite...>', 'suite ids (mindscope suites lists them)')
    .requiredOption(
      '--model <spec...>',
      'model specs: openai:M, openai-compatible:URL#M, anthropic:M, google:M, llamacpp:FILE.gguf, agent:NAME',
    )
    .option('--data <path>', 'data folder (or file for mcq/cogtom)')
    .option('--trials <k>', 'replicates per item', intOption('--trials', 1), 1)
    .option('--concurrency <n>', 'concurrent calls per provider endpoint', intOption('--concurrency', 1), 8)
    .option('--limit <n>', 'first N items per suite (generated suites: N items)', intOption('--limit', 1))
    .option('--seed <s>', 'seed for generation, shuffling and replicates', intOption('--seed', 0), 0)
    .option('--timeout <seconds>', 'time limit per model call', numberOption('--timeout', 0.001), 60)
    .option('--run-id <id>', 'run id (default: derived from the configuration, so the same command continues the same run)')
    .option('--db <path>', 'store file', 'mindscope.db')
    .option('--api-key-env <name>', 'environment variable with the key for openai-compatible servers')
    .option('--shuffle', 'shuffle options per replicate (seeded)')
    .option('--mcq-scoring <mode>', 'generate | loglik | loglik-norm (loglik: local GGUF models only)', 'generate')
    .option('--template <file>', 'prompt template (YAML/JSON with system and user, or plain text)')
    .option('--temperature <t>', 'sampling temperature (default 0)', numberOption('--temperature'))
    .option('--max-tokens <n>', 'maximum output tokens (default 256)', intOption('--max-tokens', 1))
    .option('--prices <file>', 'price table (JSON or YAML) merged over the built-in one')
    .option('--fields <map>', 'field mapping for the mcq suite, e.g. question=q,options=a|b|c|d,answer=label')
    .option('--no-cache', 'do not read or write the model-call cache')
    .option('--images', "StoryTurn suites: send each turn's image as an image part (the text+image setting)")
    .option('--traces <file>', 'reasoning-trace injection: JSONL of { item_id, trace } teacher explanations, masked before they are shown')
    .option('--json', 'print the summary as JSON')
    .option('--quiet', 'no progress display')
    .action(async (suites: string[], flags: RunFlags) => {
      if (!['generate', 'loglik', 'loglik-norm'].includes(flags.mcqScoring))
        throw new Error(`--mcq-scoring must be generate, loglik or loglik-norm, not "${flags.mcqScoring}"`);
      const store = openStore(flags.db);
      const progress = createProgress(process.stderr, flags.quiet || flags.json);
      try {
        const result = await evaluate({
          store,
          suites,
          models: flags.model,
          data: flags.data,
          runId: flags.runId,
          trials: flags.trials,
          seed: flags.seed,
          limit: flags.limit,
          concurrency: flags.concurrency,
          timeoutSeconds: flags.timeout,
          shuffle: flags.shuffle,
          scoring: flags.mcqScoring,
          templatePath: flags.template,
          temperature: flags.temperature,
          maxTokens: flags.maxTokens,
          apiKeyEnv: flags.apiKeyEnv,
          fields: flags.fields ? parseFieldMap(flags.fields) : undefined,
          prices: flags.prices ? loadPriceTable(flags.prices) : undefined,
          useCache: flags.cache,
          images: flags.images,
          tracesPath: flags.traces,
          onEvent: (e) => progress.onEvent(e),
          onWarning: (w) => process.stderr.write(`warning: ${w}\n`),
        });
        progress.stop();
        if (flags.json) {
          const { warnings, ...rest } = result;
          process.stdout.write(`${JSON.stringify({ ...rest, warnings: warnings.length }, null, 2)}\n`);
        } else printRunSummary(store, result, (s) => process.stdout.write(`${s}\n`));
        if (result.aborted.length || result.failed) process.exitCode = 2;
      } finally {
        progress.stop();
        store.close();
      }
    });
}
