// The library's front door for running an evaluation: a run specification (what to run) and
// run operations (how), through the runner into a store. The CLI's `run` and `demo` are thin
// wrappers over this.

import { ConfigError, parseRunSpec, type RunSpec, type RunSpecInput, type Task } from '../core/index.js';
import { settingsFor } from '../models/index.js';
import type { ProtocolSettings } from '../protocols/index.js';
import {
  assertRunConfig,
  runBatchEvaluation,
  runEvaluation,
  type BatchRunOptions,
  type RunCallOptions,
  type RunEvent,
  type RunSubject,
  type RunSummary,
  type StandardPriceCalls,
} from '../runner/index.js';
import { referenceAgentWarnings } from './agent-checks.js';
import { reconcileChangedItems } from './changed-items.js';
import { collectProvenance } from './provenance.js';
import { runAdaptive, runTiny } from './irt-evaluate.js';
import type { IrtSuiteResult } from './irt-run.js';
import { createRegistry, type Registry } from './registry.js';
import { runIdentity, runIdOf, specSettings } from './run-identity.js';

/** How a run goes, as opposed to what it finds (see RunSpec): may change when a run is resumed. */
export interface RunOperations extends Omit<RunCallOptions, 'seed' | 'onRetry' | 'shareRateLimits'> {
  /** A run id of your choosing instead of the one derived from the specification. */
  runId?: string;
  /** A name for people, stored with the run (replacing an earlier one): `mindscope runs` and the viewer show it. */
  name?: string;
  /** Environment variable with the key for openai-compatible servers. */
  apiKeyEnv?: string;
  /** Where suites, protocols and providers are looked up (default: the built-in ones). */
  registry?: Registry;
  /** Run suites that load no item (an error otherwise). */
  allowEmpty?: boolean;
  onEvent?: (e: RunEvent) => void;
  /** Warnings (repaired answers, items left out, settings a model cannot take), each naming its file, line or model. */
  onWarning?: (message: string) => void;
  /** Stop starting trials before the run's total cost would pass this many US dollars (resumable). */
  maxCostUsd?: number;
  /** Refuse to continue a run whose items changed since their trials were made (by default they run again). */
  frozen?: boolean;
  /** Send the calls through the providers' batch APIs at batch prices (resumable: batch ids live in the store). */
  batch?: BatchRunOptions | boolean;
  /** Stop starting trials once it fires; trials in flight finish and are stored (not with `batch`: its batches live on at the provider). */
  signal?: AbortSignal;
}

export interface EvaluateResult extends RunSummary {
  warnings: string[];
  /** Items whose content changed since their trials were made: their trials were discarded and ran again. */
  changedItems: number;
  /** A `batch.once` step that ended with batches still in flight (nothing recorded yet). */
  pending?: boolean;
  /** Batch runs: the calls made one by one at the standard price instead of through a batch, per subject. */
  standardPrice?: StandardPriceCalls[];
  /** Tiny and adaptive runs: each subject's estimated accuracy per suite. */
  irt?: IrtSuiteResult[];
}

/** The protocol settings a suite entry of a spec runs with. */
function protocolSettings(spec: RunSpec, e: { template?: string }): ProtocolSettings {
  return {
    shuffle: spec.shuffle,
    scoring: spec.scoring,
    template: e.template ?? spec.template,
    traces: spec.traces,
    tracesDropLast: spec.tracesDropLast,
    images: spec.images,
    options: spec.options,
  };
}

/**
 * Data no suite of the run would read: a suite's own data for a suite that generates its items,
 * or a run's --data when every suite generates its items. It is not read; a warning says so
 * (it was ignored without a word: a user running a file of evolved tasks through
 * generated-enacttom got freshly generated ones). Not refused: a run made so before continues
 * under the same command (the run's identity holds --data).
 */
function unreadDataWarnings(spec: RunSpec, entries: Array<{ id: string; data?: string }>, registry: Registry): string[] {
  const out: string[] = [];
  const allGenerated = entries.every((e) => !registry.suite(e.id).needsData);
  for (const e of entries) {
    const data = e.data ?? (allGenerated ? spec.data : undefined);
    const warning = data === undefined ? undefined : registry.unreadDataWarning(e.id, data);
    if (warning) out.push(warning);
  }
  return out;
}

/** The tasks of a run specification: each suite's items handed to its protocol, and the loaders' warnings. */
export async function loadTasks(
  spec: RunSpec,
  registry: Registry = createRegistry(),
  opts: { allowEmpty?: boolean } = {},
): Promise<{ tasks: Task[]; warnings: string[] }> {
  const warnings: string[] = [];
  const tasks: Task[] = [];
  const entries = spec.suites.map((entry) => (typeof entry === 'string' ? { id: entry } : entry));
  warnings.push(...unreadDataWarnings(spec, entries, registry));
  for (const e of entries) {
    const suite = registry.suite(e.id);
    const limit = e.limit ?? spec.limit;
    const settings = protocolSettings(spec, e);
    const built = await suite.task(
      {
        data: suite.needsData ? (e.data ?? spec.data) : undefined,
        seed: spec.seed,
        count: limit,
        fields: e.fields ?? spec.fields,
        allowEmpty: opts.allowEmpty,
      },
      settings,
      limit,
    );
    warnings.push(...built.warnings, ...(built.task.warnings ?? []));
    tasks.push(built.task);
  }
  return { tasks, warnings };
}

/**
 * The tasks of a run specification without their items, by suite: what a worker runs stored
 * items with (it needs no data files, only the template and trace files the spec names).
 */
export function taskShells(spec: RunSpec, registry: Registry = createRegistry()): Map<string, Task> {
  const tasks = new Map<string, Task>();
  for (const entry of spec.suites) {
    const e = typeof entry === 'string' ? { id: entry } : entry;
    const suite = registry.suite(e.id);
    const protocol = registry.protocols.find((p) => p.name === suite.protocol);
    if (!protocol) throw new ConfigError(`suite ${suite.id} runs on protocol "${suite.protocol}", which is not registered`);
    tasks.set(suite.id, protocol.createTask(suite.id, [], protocolSettings(spec, e)));
  }
  return tasks;
}

/**
 * The subjects of a run specification: each model built from its spec, with its generation
 * settings. Each model's settings start from its capabilities (an output budget with room to
 * reason; no temperature where it takes none), then what the spec gives. `env` stands in for the
 * environment the providers read their keys from.
 */
export function buildSubjects(
  spec: RunSpec,
  registry: Registry,
  opts: { apiKeyEnv?: string; env?: NodeJS.ProcessEnv } = {},
): { subjects: RunSubject[]; warnings: string[] } {
  const warnings: string[] = [];
  const subjects = spec.models.map((m) => {
    const entry = typeof m === 'string' ? { spec: m } : m;
    const contextWindow = 'contextWindow' in entry ? entry.contextWindow : undefined;
    const model = registry.createModel(entry.spec, {
      apiKeyEnv: opts.apiKeyEnv,
      ...(opts.env ? { env: opts.env } : {}),
      ...(contextWindow !== undefined ? { contextWindow } : {}),
    });
    if (contextWindow !== undefined && model.provider !== 'openai-compatible')
      throw new ConfigError(
        `${model.spec}: contextWindow applies to openai-compatible: servers (llamacpp: models cut prompts to their own window; hosted APIs take none)`,
      );
    const explicit = { ...spec.settings, ...('settings' in entry ? entry.settings : {}) };
    const resolved = model.capabilities
      ? settingsFor(model.spec, model.capabilities, explicit)
      : { settings: { ...specSettings(spec), ...explicit }, warnings: [] };
    warnings.push(...resolved.warnings);
    return { model, settings: resolved.settings };
  });
  return { subjects, warnings };
}

/** Run (or continue) the evaluation a specification describes; returns counts, usage and the loaders' warnings. */
export async function evaluate(specInput: RunSpecInput, ops: RunOperations): Promise<EvaluateResult> {
  const spec = parseRunSpec(specInput);
  const registry = ops.registry ?? createRegistry();
  // Build every model first: a bad spec or a missing key fails before anything is stored.
  const { subjects, warnings } = buildSubjects(spec, registry, { apiKeyEnv: ops.apiKeyEnv });
  const loaded = await loadTasks(spec, registry, { allowEmpty: ops.allowEmpty });
  const tasks = loaded.tasks;
  warnings.push(...loaded.warnings, ...referenceAgentWarnings(subjects, tasks, registry.protocols));
  warnings.forEach((w) => ops.onWarning?.(w));
  const identity = runIdentity(spec);
  const {
    runId,
    name,
    apiKeyEnv: _key,
    registry: _registry,
    onEvent,
    onWarning: _warn,
    allowEmpty: _empty,
    maxCostUsd,
    frozen,
    batch,
    signal,
    ...calls
  } = ops;
  const id = runId ?? runIdOf(identity);
  // A run id stored with another configuration is refused before anything is changed.
  await assertRunConfig(ops.store, id, identity);
  // Stale results of edited items are not kept silently: they run again (or --frozen refuses).
  const changed = await reconcileChangedItems(ops.store, id, tasks, { frozen });
  if (changed.changed.length) {
    const w = `${changed.changed.length} item(s) changed since the run was last made (${changed.changed
      .slice(0, 3)
      .map((c) => `${c.suite}/${c.itemId}`)
      .join(', ')}${changed.changed.length > 3 ? ', ...' : ''}): their ${changed.discarded} trial(s) run again`;
    warnings.push(w);
    ops.onWarning?.(w);
  }
  // Provenance beside the run, not in its identity: the same command continues the same run.
  await ops.store.recordProvenance(id, { ...collectProvenance(spec, tasks) });
  const base = {
    runId: id,
    config: identity,
    spec: spec as Record<string, unknown>,
    ...(name ? { name } : {}),
    replicates: spec.trials,
    seed: spec.seed,
    calls,
    maxCostUsd,
    onEvent,
    signal,
  };
  if (spec.irt) {
    // Adaptive and tiny runs choose each next item from the answers so far: nothing to batch.
    if (batch) throw new ConfigError('--batch does not run tiny or adaptive (IRT) runs: run them without --batch');
    const r =
      spec.irt.mode === 'tiny'
        ? await runTiny(spec, spec.irt, base, tasks, subjects)
        : await runAdaptive(spec, spec.irt, base, tasks, subjects);
    r.warnings.forEach((w) => ops.onWarning?.(w));
    return { ...r.summary, warnings: [...warnings, ...r.warnings], irt: r.irt, changedItems: changed.changed.length };
  }
  const summary = batch
    ? await runBatchEvaluation({ ...base, tasks, subjects, batch: batch === true ? {} : batch })
    : await runEvaluation({ ...base, tasks, subjects });
  return { ...summary, warnings, changedItems: changed.changed.length };
}
