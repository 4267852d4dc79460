import type { Command } from 'commander';
import {
  ConfigError,
  enqueueRun,
  evaluate,
  PgStore,
  parseRunSpec,
  runAccuracy,
  type EvaluateResult,
  type IrtRunSpec,
  type LoadedConfig,
  type RunSpecInput,
  type Store,
} from '../../index.js';
import { unusableSubjects } from '../../app/index.js';
import { MAX_REPLICATES, type ReasoningEffort } from '../../core/index.js';
import {
  checkRepeatSchedule,
  DEFAULT_CONCURRENCY,
  loadPriceTable,
  parseRepeatAt,
  type CallCounts,
  type RepeatSchedule,
} from '../../runner/index.js';
import { MAX_CALL_TIMEOUT_MS } from '../../models/index.js';
import type { McqScoring } from '../../protocols/index.js';
import { accuracyTextTable, formatTextTable, formatUsd, irtRunTextTable } from '../../report/index.js';

type IrtTinyStrategy = NonNullable<Extract<IrtRunSpec, { mode: 'tiny' }>['strategy']>;
import { configContext } from '../config-context.js';
import {
  addCallLimitOptions,
  callLimits,
  choiceOption,
  intOption,
  runIdOption,
  numberOption,
  parseFieldMap,
  DEFAULT_DB,
  type CallLimitFlags,
} from '../options.js';
import { createProgress } from '../progress.js';
import { withStore } from '../fresh-store.js';
import { catchInterrupts } from '../interrupts.js';

interface RunFlags extends CallLimitFlags {
  model?: string[];
  config?: string;
  data?: string;
  trials: number;
  concurrency: number;
  limit?: number;
  seed: number;
  timeout: number;
  runId?: string;
  name?: string;
  db: string;
  apiKeyEnv?: string;
  contextWindow?: number | 'server';
  shuffle?: boolean;
  mcqScoring: McqScoring;
  template: string[];
  temperature?: number;
  maxTokens?: number;
  reasoningEffort?: ReasoningEffort;
  thinkingBudget?: number;
  maxCost?: number;
  prices?: string;
  fields?: string;
  cache: boolean;
  images?: boolean;
  traces?: string;
  tracesDropLast?: boolean | number;
  allowEmpty?: boolean;
  frozen?: boolean;
  json?: boolean;
  quiet?: boolean;
  enqueue?: boolean;
  lease: number;
  batch?: boolean;
  batchPoll: number;
  tiny?: number;
  tinyStrategy?: string;
  tinyMatrix?: string[];
  bank?: string;
  adaptive?: boolean;
  se?: number;
  maxItems?: number;
  minItems?: number;
  adaptiveWave?: number;
  repeatAt?: string;
  repeatDays?: number;
  repeatFrom?: string;
}

/** `--repeat-at/--repeat-days/--repeat-from`: the schedule of the run's repetitions, or undefined. */
function scheduleFrom(flags: RunFlags): RepeatSchedule | undefined {
  if (flags.repeatAt === undefined) {
    const stray = [flags.repeatDays !== undefined ? '--repeat-days' : '', flags.repeatFrom !== undefined ? '--repeat-from' : ''].filter(
      Boolean,
    );
    if (stray.length) throw new ConfigError(`${stray.join(', ')} need --repeat-at TIMES`);
    return undefined;
  }
  if (!flags.enqueue)
    throw new ConfigError(
      '--repeat-at needs --enqueue and a PostgreSQL store: workers (mindscope worker) take each repetition when it is due',
    );
  return checkRepeatSchedule({ at: parseRepeatAt(flags.repeatAt), days: flags.repeatDays ?? 1, from: flags.repeatFrom });
}

/** --tiny-strategy names: the library's, and the tinyBenchmarks names (clustering = correctness, anchor = IRT anchor points). */
const TINY_STRATEGY_NAMES: Record<string, IrtTinyStrategy> = {
  random: 'random',
  stratified: 'stratified',
  clustering: 'correctness',
  correctness: 'correctness',
  anchor: 'irt',
  irt: 'irt',
  information: 'information',
};

/** The IRT part of the spec from --tiny / --adaptive and their companions; undefined for a full run. */
function irtFrom(flags: RunFlags): RunSpecInput['irt'] {
  const adaptiveOnly = (['se', 'maxItems', 'minItems', 'adaptiveWave'] as const).filter((k) => flags[k] !== undefined);
  const tinyOnly = (['tinyStrategy', 'tinyMatrix'] as const).filter((k) => flags[k] !== undefined);
  const flag = (k: string) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  if (flags.tiny !== undefined && flags.adaptive) throw new ConfigError('--tiny and --adaptive exclude each other: choose one');
  if (flags.tiny === undefined && !flags.adaptive) {
    const stray = [...adaptiveOnly, ...tinyOnly, ...(flags.bank !== undefined ? ['bank'] : [])];
    if (stray.length) throw new ConfigError(`${stray.map(flag).join(', ')} need --tiny K or --adaptive`);
    return undefined;
  }
  if (!flags.bank)
    throw new ConfigError(
      `${flags.tiny !== undefined ? '--tiny' : '--adaptive'} needs an item bank: --bank bank.json (mindscope irt calibrate)`,
    );
  if (flags.tiny !== undefined) {
    if (adaptiveOnly.length) throw new ConfigError(`${adaptiveOnly.map(flag).join(', ')} belong to --adaptive, not --tiny`);
    let strategy: IrtTinyStrategy | undefined;
    if (flags.tinyStrategy !== undefined) {
      strategy = TINY_STRATEGY_NAMES[flags.tinyStrategy];
      if (!strategy)
        throw new ConfigError(`--tiny-strategy expects ${Object.keys(TINY_STRATEGY_NAMES).join(', ')}, got "${flags.tinyStrategy}"`);
    }
    return {
      mode: 'tiny',
      bank: flags.bank,
      k: flags.tiny,
      ...(strategy ? { strategy } : {}),
      ...(flags.tinyMatrix ? { matrix: flags.tinyMatrix } : {}),
    };
  }
  if (tinyOnly.length) throw new ConfigError(`${tinyOnly.map(flag).join(', ')} belong to --tiny, not --adaptive`);
  return {
    mode: 'adaptive',
    bank: flags.bank,
    ...(flags.se !== undefined ? { se: flags.se } : {}),
    ...(flags.maxItems !== undefined ? { maxItems: flags.maxItems } : {}),
    ...(flags.minItems !== undefined ? { minItems: flags.minItems } : {}),
    ...(flags.adaptiveWave !== undefined ? { wave: flags.adaptiveWave } : {}),
  };
}

/** The end-of-run summary: accuracy per subject and category, then tokens and cost. */
export async function printRunSummary(
  store: Store,
  result: EvaluateResult,
  out: (s: string) => void,
  opts: { byAbility?: boolean } = {},
): Promise<void> {
  out(
    `\nrun ${result.runId}: ${result.done} done, ${result.failed} failed, ${result.skipped} already done (${(result.elapsedMs / 1000).toFixed(1)} s)`,
  );
  const table = await runAccuracy(store, result.runId);
  if (result.irt?.length)
    out(`\nestimated full-suite accuracy from the items asked (item response theory, 95% intervals)\n${irtRunTextTable(result.irt)}`);
  if (table.subjects.length)
    out(`\n${result.irt?.length ? 'observed accuracy (%) on the items asked' : 'accuracy (%) by category'}\n${accuracyTextTable(table)}`);
  if (opts.byAbility && table.subjects.length)
    out(`\naccuracy (%) by question type\n${accuracyTextTable(await runAccuracy(store, result.runId, 'ability'))}`);
  if (result.usage.length) {
    out(
      `\nusage\n${formatTextTable(
        ['subject', 'trials', 'input tok', 'output tok', 'cached calls', 'cost'],
        result.usage.map((u) => [
          u.spec,
          String(u.trials),
          String(u.inputTokens),
          String(u.outputTokens),
          `${u.cachedCalls}/${u.totalCalls}`,
          formatUsd(u.costUsd),
        ]),
      )}`,
    );
  }
  if (result.standardPrice?.length) {
    const calls = result.standardPrice.reduce((n, s) => n + s.calls, 0);
    const why = (r: string) => (r === 'no batch API' ? 'it has no batch API' : 'its batch returned them as errors, or was refused');
    out(
      `\n--batch: ${calls} call(s) were made one by one at the standard price, not through a batch: ${result.standardPrice
        .map((s) => `${s.spec} ${s.calls} (${why(s.reason)})`)
        .join(', ')}`,
    );
  }
  const cacheLine = cacheHitsLine(result.calls, result.runId);
  if (cacheLine) out(`\n${cacheLine}`);
  for (const u of result.unpriced) out(`\ncost unknown for ${u.spec}${u.note ? ` (${u.note})` : ''}: give its price with --prices FILE`);
  if (result.truncated)
    out(
      `\n${result.truncated} trial(s) had a reply cut off by the output-token limit (their answers may be missing or wrong): raise --max-tokens; mindscope status counts them per subject.`,
    );
  if (result.costLimit)
    out(
      `\nstopped at the cost limit: ${formatUsd(result.costLimit.spentUsd)} spent of ${formatUsd(result.costLimit.maxCostUsd)}; run the same command with a higher --max-cost to continue.`,
    );
  for (const a of result.aborted) out(`\nstopped ${a.spec}: ${a.error}`);
  if (result.interrupted) out('\ninterrupted: the trials in flight were stored, no new one was started; run the same command to continue.');
  if (result.failed)
    out(`\n${result.failed} trial(s) failed after retries; run the same command again to retry them (mindscope status shows where).`);
}

/** Where this invocation's cached replies came from: this run's earlier attempts, other runs (named), or unknown. */
export function cacheHitsLine(calls: CallCounts, runId: string): string | undefined {
  if (!calls.cached) return undefined;
  const from = calls.cachedFrom.map((o) =>
    o.origin === runId
      ? `${o.calls} from this run's earlier attempts`
      : o.origin === null
        ? `${o.calls} cached before origins were kept`
        : `${o.calls} from ${o.origin.startsWith('score ') ? o.origin : `run ${o.origin}`}`,
  );
  return `${calls.cached} of ${calls.made} model call(s) were answered from the call cache (${from.join(', ')}), not made again; --no-cache makes every call.`;
}

/** --name: one line of text, at most 200 characters. */
function runNameOption(value: string): string {
  const name = value.trim();
  if (!name || /[\r\n]/.test(name) || name.length > 200)
    throw new ConfigError(`--name expects one line of text (1 to 200 characters), got ${JSON.stringify(value.slice(0, 60))}`);
  return name;
}

function reasoningEffortOption(value: string): ReasoningEffort {
  if (!['minimal', 'low', 'medium', 'high'].includes(value))
    throw new ConfigError(`--reasoning-effort expects minimal, low, medium or high, got "${value}"`);
  return value as ReasoningEffort;
}

/** Whether the user gave the flag on the command line (a config file's value yields to it, and wins over defaults). */
function given(cmd: Command, name: string): boolean {
  return cmd.getOptionValueSource(name) === 'cli';
}

/**
 * --template values: FILE or NAME for every suite, SUITE=FILE or SUITE=NAME for one suite (a
 * built-in name is a published prompt, e.g. tombench, dialtom-retrospective).
 */
function templatesFrom(values: string[], suites: string[]): { all?: string; bySuite: Map<string, string> } {
  const bySuite = new Map<string, string>();
  let all: string | undefined;
  for (const v of values) {
    const eq = v.indexOf('=');
    if (eq < 0) {
      if (all !== undefined) throw new ConfigError(`--template: two templates for every suite (${all}, ${v}); name the suite: SUITE=FILE`);
      all = v;
      continue;
    }
    const suite = v.slice(0, eq);
    if (!suites.includes(suite)) throw new ConfigError(`--template ${v}: suite "${suite}" is not in this run (${suites.join(', ')})`);
    bySuite.set(suite, v.slice(eq + 1));
  }
  return { all, bySuite };
}

/** The run specification from the flags and the config file: a flag given on the command line wins. */
function runSpecFrom(suites: string[], flags: RunFlags, cmd: Command, config: LoadedConfig | undefined): RunSpecInput {
  const fromConfig = config?.spec ?? {};
  const pick = <T>(name: string, flag: T | undefined, configured: T | undefined): T | undefined =>
    given(cmd, name) || configured === undefined ? flag : configured;
  const settings = {
    ...(fromConfig.settings ?? {}),
    ...(flags.temperature !== undefined ? { temperature: flags.temperature } : {}),
    ...(flags.maxTokens !== undefined ? { maxTokens: flags.maxTokens } : {}),
    ...(flags.reasoningEffort !== undefined ? { reasoningEffort: flags.reasoningEffort } : {}),
    ...(flags.thinkingBudget !== undefined ? { thinkingBudget: flags.thinkingBudget } : {}),
  };
  const chosen = suites.length ? suites : (fromConfig.suites ?? []);
  const templates = templatesFrom(
    flags.template,
    chosen.map((s) => (typeof s === 'string' ? s : s.id)),
  );
  return {
    ...fromConfig,
    suites: chosen.map((s) => {
      const t = templates.bySuite.get(typeof s === 'string' ? s : s.id);
      return t === undefined ? s : typeof s === 'string' ? { id: s, template: t } : { ...s, template: t };
    }),
    models: withContextWindow(flags.model?.length ? flags.model : (fromConfig.models ?? []), flags.contextWindow),
    data: flags.data ?? fromConfig.data,
    trials: pick('trials', flags.trials, fromConfig.trials),
    seed: pick('seed', flags.seed, fromConfig.seed),
    limit: flags.limit ?? fromConfig.limit,
    shuffle: flags.shuffle ?? fromConfig.shuffle,
    scoring: pick('mcqScoring', flags.mcqScoring, fromConfig.scoring),
    template: templates.all ?? fromConfig.template,
    traces: flags.traces ?? fromConfig.traces,
    tracesDropLast: flags.tracesDropLast ?? fromConfig.tracesDropLast,
    images: flags.images ?? fromConfig.images,
    fields: flags.fields ? parseFieldMap(flags.fields) : fromConfig.fields,
    settings,
    irt: irtFrom(flags) ?? fromConfig.irt,
  };
}

type ModelEntries = NonNullable<RunSpecInput['models']>;

/** `--context-window`: every openai-compatible: model of the run gets it (an entry's own wins). */
function withContextWindow(models: ModelEntries, contextWindow: number | 'server' | undefined): ModelEntries {
  if (contextWindow === undefined) return models;
  return models.map((m) => {
    const entry = typeof m === 'string' ? { spec: m } : m;
    if (!entry.spec.startsWith('openai-compatible:') || entry.contextWindow !== undefined) return m;
    return { ...entry, contextWindow };
  });
}

/** `--context-window N|server`. */
function contextWindowOption(value: string): number | 'server' {
  if (value === 'server') return value;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n <= 0)
    throw new ConfigError(`--context-window expects a whole number of tokens (1 or more) or "server", got "${value}"`);
  return n;
}

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
    .option('--adaptive', 'adaptive test per subject and suite on --bank: each next item by information at the current ability')
    .option('--se <s>', '--adaptive: stop at this standard error of ability (default 0.25)', numberOption('--se', 0.001))
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
