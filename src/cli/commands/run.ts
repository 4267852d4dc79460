// `mindscope run`: its options, then the run itself (in process, or queued with --enqueue); the
// flags become a run specification in run-flags.ts and the summary is printed by run-summary.ts.

import type { Command } from 'commander';
import { ConfigError, enqueueRun, evaluate, PgStore, parseRunSpec } from '../../index.js';
import { unusableSubjects } from '../../app/index.js';
import { MAX_REPLICATES } from '../../core/index.js';
import { DEFAULT_CONCURRENCY, loadPriceTable } from '../../runner/index.js';
import { MAX_CALL_TIMEOUT_MS } from '../../models/index.js';
import { configContext } from '../config-context.js';
import { addCallLimitOptions, callLimits, choiceOption, intOption, runIdOption, numberOption, DEFAULT_DB } from '../options.js';
import { createProgress } from '../progress.js';
import { withStore } from '../fresh-store.js';
import { catchInterrupts } from '../interrupts.js';

import { printRunSummary } from './run-summary.js';
import { contextWindowOption, given, reasoningEffortOption, runNameOption, runSpecFrom, scheduleFrom, type RunFlags } from './run-flags.js';

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('run suites against models, continuing the run when it already exists')
    .argument('[suite...]', 'suite ids (mindscope suites lists them); may come from --config instead')
    .option('--model <spec...>', 'model specs: openai:M, openai-compatible:URL#M, anthropic:M, google:M, llamacpp:FILE.gguf, agent:NAME')
    .option('--config <file>', 'config file (YAML, JSON, JS or TS): suites, models, settings and plugins of a whole study')
    .option('--data <path>', 'data folder (or file for mcq/cogtom)')
    .option('--trials <k>', 'replicates per item', intOption('--trials', 1, MAX_REPLICATES), 1)
    .option('--concurrency <n>', 'concurrent calls per provider endpoint', intOption('--concurrency', 1), DEFAULT_CONCURRENCY)
    .option('--limit <n>', 'first N items per suite (generated suites: N items)', intOption('--limit', 1))
    .option('--seed <s>', 'seed for generation, shuffling and replicates', intOption('--seed', 0), 0)
    .option('--timeout <seconds>', 'time limit per model call', numberOption('--timeout', 0.001, MAX_CALL_TIMEOUT_MS / 1000), 60)
    .option('--run-id <id>', 'run id (default: derived from the configuration, so the same command continues the same run)', runIdOption)
    .option(
      '--name <text>',
      'a name for the run, shown beside its id by mindscope runs and the viewer (given again, it replaces the name)',
      runNameOption,
    )
    .option('--db <path>', 'store: a SQLite file or postgres:// URL', DEFAULT_DB)
    .option('--api-key-env <name>', 'environment variable with the key for openai-compatible servers')
    .option(
      '--context-window <tokens|server>',
      'openai-compatible servers: their context window in tokens, or "server" to ask the server; the oldest context is cut from the left to fit',
      contextWindowOption,
    )
    .option('--shuffle', 'shuffle options per replicate (seeded)')
    .option(
      '--mcq-scoring <mode>',
      'generate | loglik | loglik-norm (loglik: local GGUF models only)',
      choiceOption('--mcq-scoring', ['generate', 'loglik', 'loglik-norm'] as const),
      'generate',
    )
    .option(
      '--template <file>',
      'prompt template: a file (YAML/JSON with system and user, or plain text) or a published one by name (tombench, tomato, dialtom-retrospective, dialtom-prospective, ...); SUITE=FILE|NAME for one suite (repeatable)',
      (v: string, prev: string[]) => [...prev, v],
      [] as string[],
    )
    .option('--temperature <t>', 'sampling temperature (default 0)', numberOption('--temperature'))
    .option(
      '--max-tokens <n>',
      'maximum output tokens (default 256; reasoning models 16384, or the thinking budget + 1024)',
      intOption('--max-tokens', 1),
    )
    .option('--reasoning-effort <level>', 'OpenAI reasoning models: minimal | low | medium | high', reasoningEffortOption)
    .option(
      '--thinking-budget <tokens>',
      'Anthropic extended thinking / Gemini thinking: tokens the model may think (Gemini flash: 0 = off)',
      intOption('--thinking-budget', 0),
    )
    .option(
      '--max-cost <usd>',
      'stop starting trials before the run would cost more than this many US dollars (resumable)',
      numberOption('--max-cost', 0),
    )
    .option('--prices <file>', 'price table (JSON or YAML) merged over the built-in one')
    .option('--fields <map>', 'field mapping for the mcq suite, e.g. question=q,options=a|b|c|d,answer=label')
    .option('--no-cache', 'do not read or write the model-call cache')
    .option('--images', "StoryTurn suites: send each turn's image as an image part (the text+image setting)")
    .option('--traces <file>', 'reasoning-trace injection: JSONL of { item_id, trace } teacher explanations, masked before they are shown')
    .option('--allow-empty', 'run suites that load no item (an error otherwise)')
    .option('--frozen', 'refuse to continue a run whose items changed since their trials were made (by default they run again)')
    .option(
      '--traces-drop-last [n]',
      "reasoning-trace injection: also drop each trace's last sentence, or last N sentences (where teachers state their pick; the DialToM paper drops 5)",
      intOption('--traces-drop-last', 0),
    )
    .option('--json', 'print the summary as JSON')
    .option('--quiet', 'no progress display')
    .option('--enqueue', 'PostgreSQL store: plan the run and queue its trials for `mindscope worker` processes instead of running them')
    .option(
      '--batch',
      "send the calls through the providers' batch APIs (OpenAI Batch, Anthropic Message Batches, Gemini batch mode) at batch prices; a killed run resumes polling",
    )
    .option('--batch-poll <seconds>', '--batch: how often batches in flight are polled', numberOption('--batch-poll', 0.01), 30)
    .option(
      '--repeat-at <times>',
      '--enqueue: run each replicate as a repetition at a time of day, HH:MM in UTC, comma-separated (e.g. 09:00,15:00,21:00); workers take each when it is due',
    )
    .option('--repeat-days <n>', '--repeat-at: repeat the times over N days (replicates: times x days)', intOption('--repeat-days', 1, 366))
    .option('--repeat-from <date>', '--repeat-at: the first day, YYYY-MM-DD (default: from now on, the next of the times first)')
    .option(
      '--lease <seconds>',
      'lease on a trial without heartbeat: trials of a killed process are taken over after it',
      numberOption('--lease', 0.1),
      60,
    )
    .option('--bank <file>', 'item bank (mindscope irt calibrate) for --tiny and --adaptive')
    .option(
      '--tiny <k>',
      'run only k items per suite chosen from --bank, and estimate full-suite and per-category accuracy',
      intOption('--tiny', 1),
    )
    .option(
      '--tiny-strategy <s>',
      'how --tiny chooses: stratified | clustering (of the panel answers; needs --tiny-matrix) | anchor (IRT anchor points) | information | random (default by panel size)',
    )
    .option('--tiny-matrix <file...>', "the bank's panel response matrices, for --tiny-strategy clustering")
    .option(
      '--adaptive',
      "adaptive test per subject and suite on --bank: each next item by information at the current ability (m2pl banks: by the expected shrinkage of the accuracy's variance)",
    )
    .option('--se <s>', '--adaptive: stop at this standard error of ability (default 0.25)', numberOption('--se', 0.001))
    .option(
      '--accuracy-se <s>',
      '--adaptive on a multidimensional (m2pl) bank: stop at this standard error of the accuracy estimate (default 0.02 = 2 points)',
      numberOption('--accuracy-se', 0.0001, 1),
    )
    .option('--max-items <n>', '--adaptive: item budget per subject and suite', intOption('--max-items', 1))
    .option('--min-items <n>', '--adaptive: never stop before this many answers (default 5)', intOption('--min-items', 1))
    .option(
      '--adaptive-wave <n>',
      '--adaptive: items asked at once, chosen at the same ability estimate (default 1)',
      intOption('--adaptive-wave', 1),
    )
    .action(async (suites: string[], flags: RunFlags, cmd: Command) => {
      const { config, registry } = await configContext(flags.config);
      const schedule = scheduleFrom(flags);
      const input = runSpecFrom(suites, flags, cmd, config);
      // Each replicate is one repetition: the trials follow the schedule unless given.
      if (schedule && !given(cmd, 'trials')) input.trials = schedule.at.length * schedule.days;
      const spec = parseRunSpec(input, config ? `${config.file} and the command line` : 'the command line');
      // A store this command creates and then fails in before any run (a bad model spec) is removed again.
      await withStore(given(cmd, 'db') || !config?.db ? flags.db : config.db, async (store) => {
        if (flags.enqueue) {
          if (!(store instanceof PgStore))
            throw new ConfigError(`--enqueue needs a PostgreSQL store (--db postgres://...), not ${store.location}`);
          const r = await enqueueRun(spec, {
            store,
            registry,
            runId: flags.runId,
            name: flags.name,
            apiKeyEnv: flags.apiKeyEnv ?? config?.apiKeyEnv,
            leaseSeconds: flags.lease,
            allowEmpty: flags.allowEmpty,
            batch: flags.batch,
            schedule,
            onWarning: (w) => process.stderr.write(`warning: ${w}\n`),
          });
          if (flags.json) process.stdout.write(`${JSON.stringify({ ...r, warnings: r.warnings.length }, null, 2)}\n`);
          else
            process.stdout.write(
              `${
                flags.batch
                  ? `run ${r.runId}: ${r.queued} trial(s) queued as a batch run (provider batch APIs), ${r.skipped} done already; start workers with: mindscope worker --db URL`
                  : `run ${r.runId}: ${r.queued} trial(s) queued, ${r.skipped} done already; start workers with: mindscope worker --db URL`
              }\n${(r.schedule ?? []).map((x) => `  replicate ${x.replicate + 1}: due ${x.due} (${x.timeOfDay} UTC)\n`).join('')}`,
            );
          return;
        }
        const progress = createProgress(process.stderr, flags.quiet);
        const prices = flags.prices ?? config?.prices;
        // Ctrl-C (or SIGTERM) stops starting trials and lets those in flight finish and be stored:
        // killed at once, their calls would be lost and paid for again when the run continues. A
        // second one quits at once. Batch runs keep the default: their batches live at the provider.
        const interrupts = flags.batch
          ? undefined
          : catchInterrupts({
              stopping:
                '\nmindscope: stopping: no new trial starts; the trials in flight finish and are stored (Ctrl-C again to quit at once)\n',
              quitting: '\nmindscope: quit; the calls in flight are lost (run the same command to continue)\n',
            });
        try {
          const result = await evaluate(spec, {
            store,
            registry,
            runId: flags.runId,
            name: flags.name,
            concurrency: given(cmd, 'concurrency') || !config?.concurrency ? flags.concurrency : config.concurrency,
            timeoutMs: given(cmd, 'timeout') || !config?.timeoutMs ? flags.timeout * 1000 : config.timeoutMs,
            apiKeyEnv: flags.apiKeyEnv ?? config?.apiKeyEnv,
            prices: prices ? loadPriceTable(prices) : undefined,
            useCache: flags.cache,
            leaseMs: flags.lease * 1000,
            ...callLimits(flags, cmd, config?.callLimits),
            allowEmpty: flags.allowEmpty,
            frozen: flags.frozen,
            maxCostUsd: flags.maxCost,
            ...(flags.batch ? { batch: { pollMs: flags.batchPoll * 1000 } } : {}),
            onEvent: (e) => progress.onEvent(e),
            onWarning: (w) => process.stderr.write(`warning: ${w}\n`),
            signal: interrupts?.signal,
          });
          progress.stop();
          if (flags.json) {
            const { warnings, ...rest } = result;
            process.stdout.write(`${JSON.stringify({ ...rest, warnings: warnings.length }, null, 2)}\n`);
          } else await printRunSummary(store, result, (s) => process.stdout.write(`${s}\n`));
          if (result.aborted.length || result.failed || result.costLimit) process.exitCode = 2;
          // A subject that gave no usable answer at all (every trial failed or was cut off) is an error, whatever else went well.
          const unusable = unusableSubjects(await store.status(result.runId));
          if (unusable.length) {
            process.stderr.write(
              `mindscope: no usable answer from ${unusable.join(', ')}: every trial failed or had its reply cut off (mindscope status --run-id ${result.runId} shows why)\n`,
            );
            process.exitCode = 2;
          }
          if (result.interrupted) process.exitCode = 130;
        } finally {
          interrupts?.release();
          progress.stop();
        }
      });
    });
  // --max-wait, --max-consecutive-timeouts, --max-reply-bytes (shared with worker).
  addCallLimitOptions(program.commands.find((c) => c.name() === 'run')!);
}
