// How `mindscope run` reads its flags and a config file into a run specification: the flags,
// their parsers, the IRT and repeat-schedule options, templates per suite, context windows.

import type { Command } from 'commander';
import { ConfigError, type IrtRunSpec, type LoadedConfig, type RunSpecInput } from '../../index.js';
import type { ReasoningEffort } from '../../core/index.js';
import { checkRepeatSchedule, parseRepeatAt, type RepeatSchedule } from '../../runner/index.js';
import type { McqScoring } from '../../protocols/index.js';

type IrtTinyStrategy = NonNullable<Extract<IrtRunSpec, { mode: 'tiny' }>['strategy']>;
import { parseFieldMap, type CallLimitFlags } from '../options.js';

export interface RunFlags extends CallLimitFlags {
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
  accuracySe?: number;
  maxItems?: number;
  minItems?: number;
  adaptiveWave?: number;
  repeatAt?: string;
  repeatDays?: number;
  repeatFrom?: string;
}

/** `--repeat-at/--repeat-days/--repeat-from`: the schedule of the run's repetitions, or undefined. */
export function scheduleFrom(flags: RunFlags): RepeatSchedule | undefined {
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
  const adaptiveOnly = (['se', 'accuracySe', 'maxItems', 'minItems', 'adaptiveWave'] as const).filter((k) => flags[k] !== undefined);
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
    ...(flags.accuracySe !== undefined ? { accuracySe: flags.accuracySe } : {}),
    ...(flags.maxItems !== undefined ? { maxItems: flags.maxItems } : {}),
    ...(flags.minItems !== undefined ? { minItems: flags.minItems } : {}),
    ...(flags.adaptiveWave !== undefined ? { wave: flags.adaptiveWave } : {}),
  };
}

/** --name: one line of text, at most 200 characters. */
export function runNameOption(value: string): string {
  const name = value.trim();
  if (!name || /[\r\n]/.test(name) || name.length > 200)
    throw new ConfigError(`--name expects one line of text (1 to 200 characters), got ${JSON.stringify(value.slice(0, 60))}`);
  return name;
}

export function reasoningEffortOption(value: string): ReasoningEffort {
  if (!['minimal', 'low', 'medium', 'high'].includes(value))
    throw new ConfigError(`--reasoning-effort expects minimal, low, medium or high, got "${value}"`);
  return value as ReasoningEffort;
}

/** Whether the user gave the flag on the command line (a config file's value yields to it, and wins over defaults). */
export function given(cmd: Command, name: string): boolean {
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
export function runSpecFrom(suites: string[], flags: RunFlags, cmd: Command, config: LoadedConfig | undefined): RunSpecInput {
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
export function contextWindowOption(value: string): number | 'server' {
  if (value === 'server') return value;
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n <= 0)
    throw new ConfigError(`--context-window expects a whole number of tokens (1 or more) or "server", got "${value}"`);
  return n;
}
