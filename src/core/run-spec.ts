// The run specification: everything that defines a run's results, and nothing else. Concurrency,
// time limits, the database and the cache change how a run goes, not what it finds: those are
// operational settings and live apart (RunOperations in app/). A spec comes from the command
// line or a config file, is validated here, and travels unchanged to the runner; the content
// hash of its identity (runIdentity, with the files it names hashed) is the run id.

import { z } from 'zod';
import { CATEGORIES } from './categories.js';
import { ConfigError } from './errors.js';
import { GenerationSettingsSchema } from './records/transcript.js';

const Category = z.enum(CATEGORIES);

/** How the generic `mcq` suite reads a file's fields (see suites/generic-mcq.ts). */
export const McqFieldMapSchema = z.strictObject({
  id: z.string().optional(),
  context: z.string().optional(),
  question: z.string(),
  /** One field holding a list or an {A: .., B: ..} object, or several fields, one per option. */
  options: z.union([z.string(), z.array(z.string()).min(2)]),
  /** The answer as a letter (A..), a 0-based index, or the option's text. */
  answer: z.string(),
  category: z.string().optional(),
  subcategory: z.string().optional(),
  /** Source category labels -> ATOMS categories (matched case-insensitively); defaults to the identity. */
  categoryMap: z.record(z.string(), Category).optional(),
  /** Category for all items when the file has no category field. */
  defaultCategory: Category.optional(),
});
export type McqFieldMap = z.infer<typeof McqFieldMapSchema>;

/** A suite with settings of its own, overriding the spec's for this suite only. */
export const SuiteEntrySchema = z.strictObject({
  id: z.string().min(1),
  data: z.string().optional(),
  limit: z.number().int().positive().optional(),
  fields: McqFieldMapSchema.optional(),
  /** MCQ prompt template file for this suite. */
  template: z.string().optional(),
});
export type SuiteEntry = z.infer<typeof SuiteEntrySchema>;

/** A model with generation settings of its own (e.g. a reasoning model that takes no temperature). */
export const ModelEntrySchema = z.strictObject({
  spec: z.string().min(1),
  settings: GenerationSettingsSchema.partial().optional(),
  /**
   * `openai-compatible:` models: the context window in tokens, or 'server' (as the server reports
   * it); prompts that would not fit with the reply's max tokens are cut from the left.
   */
  contextWindow: z.union([z.number().int().positive(), z.literal('server')]).optional(),
});
export type ModelEntry = z.infer<typeof ModelEntrySchema>;

/**
 * An IRT run: only some items of each suite, chosen from a calibrated item bank, and the
 * full-suite accuracy estimated from them (see analysis/irt). `tiny`: k items per suite chosen
 * once by a tinyBenchmarks strategy; `adaptive`: items picked one wave at a time by information
 * at the current ability estimate, until the ability's SE reaches `se` (multidimensional banks:
 * the accuracy's SE reaches `accuracySe`) or `maxItems` were asked.
 */
export const IrtRunSchema = z.discriminatedUnion('mode', [
  z.strictObject({
    mode: z.literal('tiny'),
    /** Item bank JSON (mindscope irt calibrate). */
    bank: z.string().min(1),
    /** Items per suite. */
    k: z.number().int().positive(),
    /** tinyBenchmarks strategy (analysis/irt/tiny-benchmark.ts); default by the bank's panel size. */
    strategy: z.enum(['random', 'stratified', 'correctness', 'irt', 'information']).optional(),
    /** The panel's response matrices (CSV or Parquet): what correctness clustering clusters. */
    matrix: z.array(z.string().min(1)).optional(),
  }),
  z.strictObject({
    mode: z.literal('adaptive'),
    bank: z.string().min(1),
    /** Stop when the ability's posterior SD is at most this (one-dimensional banks). */
    se: z.number().positive().default(0.25),
    /** Multidimensional banks: stop when the accuracy estimate's standard error is at most this (default 0.02). */
    accuracySe: z.number().positive().max(1).optional(),
    maxItems: z.number().int().positive().optional(),
    minItems: z.number().int().positive().default(5),
    /** Items asked at once (chosen at the same ability estimate). */
    wave: z.number().int().positive().default(1),
  }),
]);
export type IrtRunSpec = z.output<typeof IrtRunSchema>;

export const McqScoringSchema = z.enum(['generate', 'loglik', 'loglik-norm']);

/** The most replicates per item a run may ask for. */
export const MAX_REPLICATES = 10_000;

export const RunSpecSchema = z.strictObject({
  suites: z.array(z.union([z.string().min(1), SuiteEntrySchema])).min(1, 'give at least one suite'),
  models: z.array(z.union([z.string().min(1), ModelEntrySchema])).min(1, 'give at least one model (--model SPEC)'),
  /** Data folder (or file, for file-based suites). */
  data: z.string().optional(),
  /** Replicates per item (at most MAX_REPLICATES: a typo such as 100000000 is refused, not planned for minutes). */
  trials: z.number().int().min(1).max(MAX_REPLICATES).default(1),
  seed: z.number().int().min(0).default(0),
  /** First N items per suite; for generated suites, the number generated. */
  limit: z.number().int().positive().optional(),
  /** MCQ: present options in a seeded order per replicate. */
  shuffle: z.boolean().default(false),
  /** MCQ: read the reply (generate) or rank options by log-likelihood (local models). */
  scoring: McqScoringSchema.default('generate'),
  /** MCQ prompt template file. */
  template: z.string().optional(),
  /** Reasoning-trace injection: JSONL of { item_id, trace }. */
  traces: z.string().optional(),
  /** Reasoning-trace injection: drop each trace's last sentence (true) or last N sentences too (the DialToM paper drops five). */
  tracesDropLast: z.union([z.boolean(), z.number().int().min(0).max(10_000)]).default(false),
  /** StoryTurn: send each turn's image (the text+image setting). */
  images: z.boolean().default(false),
  /** Field mapping of the generic `mcq` suite. */
  fields: McqFieldMapSchema.optional(),
  /** Generation settings for every model (a model entry's own settings win). */
  settings: GenerationSettingsSchema.partial().default({}),
  /** Options of protocols added by plugins, by protocol name. */
  options: z.record(z.string(), z.unknown()).optional(),
  /** Tiny or adaptive testing on an item bank (absent: every item). */
  irt: IrtRunSchema.optional(),
});
/** A run specification as written (defaults may be left out). */
export type RunSpecInput = z.input<typeof RunSpecSchema>;
/** A validated run specification, defaults filled in. */
export type RunSpec = z.output<typeof RunSpecSchema>;

/** Validate a run specification; the error names each field that is wrong and where it came from. */
export function parseRunSpec(input: unknown, source = 'run specification'): RunSpec {
  const parsed = RunSpecSchema.safeParse(input);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
    throw new ConfigError(`${source}: ${problems.join('; ')}`);
  }
  return parsed.data;
}
