// Everything a run can name: protocols, suites, model providers (reference subjects included)
// and scorers. A registry starts with the kernel (the MCQ protocol, its generic suites, the
// providers) and the default plugins (the seed studies, set by the `mindscope` entry point);
// further plugins add to it. The CLI builds one per command (with the config's plugins);
// library users build their own.

import { ConfigError } from '../core/index.js';
import { BUILTIN_PROVIDERS, ProviderRegistry, type ChatModel, type ModelOptions } from '../models/index.js';
import { KERNEL_PROTOCOLS, type ProtocolModule } from '../protocols/index.js';
import { referenceAgents, referenceSubjectProviders } from '../subjects/index.js';
import { KERNEL_SUITES, type LoadResult, type Suite, type SuiteLoadOptions } from '../suites/index.js';
import { defaultPlugins, registerPluginFiles, type Plugin } from './plugin.js';
import type { ScorerDefinition } from './scorer.js';

/** Everything a run can name: protocols, suites, model providers (reference subjects included) and scorers; plugins add to it. */
export class Registry {
  /** Protocols in registration order; the reference subjects read their policies from here. */
  readonly protocols: ProtocolModule[] = [...KERNEL_PROTOCOLS];
  readonly providers: ProviderRegistry;
  /** The plugins added, default ones first: their manifests give commands, report sections and viewer panels. */
  readonly plugins: Plugin[] = [];
  readonly #suites = new Map<string, Suite>();
  readonly #scorers = new Map<string, ScorerDefinition>();

  /** A registry with the kernel and `defaults` (the default plugins unless given). */
  constructor(defaults: readonly Plugin[] = defaultPlugins()) {
    // The agent: provider reads this.protocols when it builds an agent, so plugins' protocols count.
    this.providers = new ProviderRegistry([...BUILTIN_PROVIDERS, ...referenceSubjectProviders(this.protocols)]);
    for (const p of defaults) this.use(p);
    for (const s of KERNEL_SUITES) this.#addSuite('mindscope', s);
  }

  /** Add a plugin's protocols, suites, providers and scorers; a name taken already is an error naming the plugin. */
  use(plugin: Plugin): this {
    for (const p of plugin.protocols ?? []) {
      if (this.protocols.some((x) => x.name === p.name))
        throw new ConfigError(`plugin ${plugin.name}: a protocol named "${p.name}" exists already`);
      this.protocols.push(p);
    }
    for (const s of plugin.suites ?? []) this.#addSuite(plugin.name, s);
    for (const d of plugin.providers ?? []) this.providers.add(d);
    for (const sc of plugin.scorers ?? []) {
      if (this.#scorers.has(sc.name) || this.protocols.some((p) => p.records.scorer === sc.name)) {
        throw new ConfigError(`plugin ${plugin.name}: a scorer named "${sc.name}" exists already`);
      }
      this.#scorers.set(sc.name, sc);
    }
    registerPluginFiles(plugin);
    this.plugins.push(plugin);
    return this;
  }

  #addSuite(plugin: string, s: Suite): void {
    if (this.#suites.has(s.id)) throw new ConfigError(`plugin ${plugin}: a suite named "${s.id}" exists already`);
    if (!this.protocols.some((p) => p.name === s.protocol)) {
      throw new ConfigError(`plugin ${plugin}: suite ${s.id} runs on protocol "${s.protocol}", which is not registered`);
    }
    this.#suites.set(s.id, s);
  }

  /** A suite by id; the error lists the known ones. */
  suite(id: string): Suite {
    const s = this.#suites.get(id);
    if (!s) throw new ConfigError(`unknown suite "${id}"; known suites: ${[...this.#suites.keys()].join(', ')}`);
    return s;
  }

  /**
   * Refuse data for a suite that generates its items (`mindscope items`): it would be ignored
   * without a word (a user running a file of evolved tasks through generated-enacttom got freshly
   * generated ones). The error names the suite that reads such files, where there is one
   * (generated-X's sibling X).
   */
  refuseGeneratedData(suiteId: string, data: string): void {
    if (this.suite(suiteId).needsData) return;
    throw new ConfigError(`--data ${data}: the suite ${suiteId} generates its items and reads no data${this.#siblingHint(suiteId)}`);
  }

  /** The warning `run` gives for data a suite that generates its items does not read (undefined for a suite that reads data). */
  unreadDataWarning(suiteId: string, data: string): string | undefined {
    if (this.suite(suiteId).needsData) return undefined;
    return `--data ${data} is not read: the suite ${suiteId} generates its items${this.#siblingHint(suiteId)}`;
  }

  /** Where generated-X has a sibling X that reads files: how to run one's own file. */
  #siblingHint(suiteId: string): string {
    const sibling = this.suites().find((s) => s.needsData && `generated-${s.id}` === suiteId)?.id;
    return sibling ? `; to run your own file use the suite ${sibling} (${sibling} --data FILE)` : '';
  }

  /** Every registered suite: the default plugins', the kernel's, then the other plugins'. */
  suites(): Suite[] {
    return [...this.#suites.values()];
  }

  /** A user scorer by name; the error lists the known ones. */
  scorer(name: string): ScorerDefinition {
    const s = this.#scorers.get(name);
    if (!s)
      throw new ConfigError(
        `unknown scorer "${name}"; registered scorers: ${[...this.#scorers.keys()].join(', ') || 'none (add them through a config plugin)'}`,
      );
    return s;
  }

  /** Build the model a spec names (`openai:gpt-4o-mini`, `agent:oracle`, a plugin's prefix...). */
  createModel(spec: string, opts: ModelOptions = {}): ChatModel {
    return this.providers.create(spec, opts);
  }

  /** The reference agents the registered protocols define, with what each does. */
  referenceAgents(): Record<string, string> {
    return referenceAgents(this.protocols);
  }
}

/** A registry with what mindscope ships, plus the given plugins. */
export function createRegistry(plugins: readonly Plugin[] = []): Registry {
  const r = new Registry();
  for (const p of plugins) r.use(p);
  return r;
}

/** Build the model a spec names with the built-in providers (a shortcut for createRegistry().createModel). */
export function createModel(spec: string, opts: ModelOptions = {}): ChatModel {
  return createRegistry().createModel(spec, opts);
}

/** A suite's items by id (the first `limit` when given), with the loader's warnings. */
export async function loadSuite(
  id: string,
  opts: SuiteLoadOptions,
  limit?: number,
  registry: Registry = createRegistry(),
): Promise<LoadResult<unknown>> {
  return registry.suite(id).load(opts, limit);
}
