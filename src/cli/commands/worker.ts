import type { Command } from 'commander';
import { ConfigError, openStore, PgStore, runWorker, type WorkerEvent } from '../../index.js';
import { DEFAULT_CONCURRENCY, loadPriceTable } from '../../runner/index.js';
import { MAX_CALL_TIMEOUT_MS } from '../../models/index.js';
import { configContext } from '../config-context.js';
import { catchInterrupts } from '../interrupts.js';
import { addCallLimitOptions, callLimits, DEFAULT_DB, intOption, numberOption, type CallLimitFlags } from '../options.js';

interface WorkerFlags extends CallLimitFlags {
  db: string;
  config?: string;
  concurrency: number;
  lease: number;
  timeout: number;
  apiKeyEnv?: string;
  prices?: string;
  cache: boolean;
  untilIdle?: boolean;
  batchPoll: number;
  json?: boolean;
  quiet?: boolean;
}

/** `mindscope worker --json` prints `{ done, failed, skipped, held, errors, scheduled, nextDue, elapsedMs }` when it stops. */
export function registerWorker(program: Command): void {
  addCallLimitOptions(
    program
      .command('worker')
      .description(
        'take trials queued by `run --enqueue` from a PostgreSQL store, call the models and record the results (stop with Ctrl-C); scheduled repetitions (run --repeat-at) are taken when due',
      )
      .option('--db <url>', 'the PostgreSQL store (postgres://...)', DEFAULT_DB)
      .option('--config <file>', 'config file whose plugins (protocols, suites, providers) the queued runs use')
      .option(
        '--concurrency <n>',
        'trials in flight in this worker, and concurrent calls per endpoint',
        intOption('--concurrency', 1),
        DEFAULT_CONCURRENCY,
      )
      .option('--lease <seconds>', 'lease on a trial without heartbeat (as the runs were enqueued with)', numberOption('--lease', 0.1), 60)
      .option('--timeout <seconds>', 'time limit per model call', numberOption('--timeout', 0.001, MAX_CALL_TIMEOUT_MS / 1000), 60)
      .option('--api-key-env <name>', 'environment variable with the key for openai-compatible servers')
      .option('--prices <file>', 'price table (JSON or YAML) merged over the built-in one')
      .option('--no-cache', 'do not read or write the model-call cache')
      .option(
        '--batch-poll <seconds>',
        'batch runs (run --enqueue --batch): how often their batches are polled',
        numberOption('--batch-poll', 0.01),
        30,
      )
      .option('--until-idle', 'stop once the queue has nothing due waiting, queued or taken (repetitions scheduled for later stay queued)')
      .option('--json', 'print the summary as JSON')
      .option('--quiet', 'no progress lines')
      .action(async (flags: WorkerFlags) => {
        const { registry } = await configContext(flags.config);
        const store = await openStore(flags.db);
        if (!(store instanceof PgStore)) {
          await store.close();
          throw new ConfigError(
            `--db ${flags.db}: workers need a PostgreSQL store (postgres://...); a SQLite file serves one machine: use run`,
          );
        }
        // The first Ctrl-C or SIGTERM: the jobs in hand finish and are acknowledged; a second quits.
        const interrupts = catchInterrupts();
        const counts: Record<string, number> = {};
        let last = Date.now();
        const onEvent = (e: WorkerEvent) => {
          counts[e.type] = (counts[e.type] ?? 0) + 1;
          if (e.type === 'subject-aborted') process.stderr.write(`worker: stopped ${e.spec}: ${e.error}\n`);
          else if (e.type === 'batch-step' && !flags.quiet)
            process.stderr.write(
              `worker: batch run ${e.runId}: ${e.pending ? 'batches in flight, polled again later' : 'trials recorded'}\n`,
            );
          else if (e.type === 'error' && !flags.quiet) process.stderr.write(`worker: ${e.error}\n`);
          if (!flags.quiet && Date.now() - last > 10_000) {
            last = Date.now();
            process.stderr.write(
              `worker: ${Object.entries(counts)
                .map(([k, n]) => `${k} ${n}`)
                .join(', ')}\n`,
            );
          }
        };
        try {
          const summary = await runWorker({
            store,
            registry,
            concurrency: flags.concurrency,
            leaseMs: flags.lease * 1000,
            timeoutMs: flags.timeout * 1000,
            ...callLimits(flags),
            apiKeyEnv: flags.apiKeyEnv,
            prices: flags.prices ? loadPriceTable(flags.prices) : undefined,
            useCache: flags.cache,
            untilIdle: flags.untilIdle,
            batchPollMs: flags.batchPoll * 1000,
            signal: interrupts.signal,
            onEvent,
          });
          if (flags.json) process.stdout.write(`${JSON.stringify(summary)}\n`);
          else
            process.stdout.write(
              `worker: ${summary.done} done, ${summary.failed} failed, ${summary.skipped} done already, ${summary.held} held elsewhere, ${summary.errors} given back (${(summary.elapsedMs / 1000).toFixed(1)} s)${summary.scheduled ? `; ${summary.scheduled} trial(s) scheduled for later, the next due ${summary.nextDue}` : ''}\n`,
            );
          if (summary.failed || summary.errors) process.exitCode = 2;
        } finally {
          interrupts.release();
          await store.close();
        }
      }),
  );
}
