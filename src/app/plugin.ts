// What a module adds to mindscope without forking it: protocols, suites, providers and scorers
// (what a run can name), and commands, report sections and viewer panels (what the command line,
// the HTML report and the viewer show). The seed studies are plugins of exactly this shape,
// listed in one place; a user's plugin is listed in a config file's `plugins` and gets the same
// powers.

import type { Command } from 'commander';
import { registerNamedFiles, type StoredTranscript } from '../core/index.js';
import type { ProviderDefinition } from '../models/index.js';
import type { ProtocolModule } from '../protocols/index.js';
import type { Store } from '../store/index.js';
import type { Suite } from '../suites/index.js';
import type { ScorerDefinition } from './scorer.js';

/** A command as its parent's help lists it: its help term (`name [options] <arg>`) and description. */
export interface CommandTerm {
  term: string;
  description: string;
}

/** What a command is told when it is registered: the manifests of every plugin in play (built-in and the config's). */
export interface CommandContext {
  manifests: readonly PluginManifest[];
}

/**
 * One or more commands, registered by a function loaded only when one of them is run, so that
 * `mindscope --help` starts fast: `commands` must equal what that function registers (a test
 * checks the built-in ones). The help lists the built-in studies' commands after the kernel's
 * `analyze`, then a config file's plugins'; the latter exist only when the command line names
 * the config (`--config FILE`), so such a command takes that option. Option parsers and output
 * helpers for command files: `mindscope/cli`.
 */
export interface CommandDefinition {
  commands: readonly CommandTerm[];
  /** Add the commands under this existing top-level command (e.g. `analyze`) rather than at the top. */
  group?: string;
  /** The function that registers the commands on their parent (the program, or the group's command). */
  load(): Promise<(parent: Command, ctx: CommandContext) => void>;
}

/** What a report section is given: the open store, the run, its suites and the protocols they run on. */
export interface ReportContext {
  store: Store;
  runId: string;
  suites: readonly string[];
  protocols: ReadonlySet<string>;
  /** The report's flags that sections declared (`report --audit`), by flag name. */
  flags: Readonly<Record<string, boolean>>;
  seed: number;
}

/** A section of the HTML report of a run. */
export interface ReportSection {
  /** The section's heading (an h2). */
  title: string;
  /** Shown only for runs with a suite on one of these protocols (every run when absent). */
  protocols?: readonly string[];
  /** Shown only when `report --FLAG` is given: the flag's name and help text. */
  flag?: { name: string; help: string };
  /** The section's HTML, or undefined when the run has nothing for it. */
  render(ctx: ReportContext): Promise<string | undefined>;
}

/** A trial of a protocol as the viewer shows it: a JSON view built on the server, drawn by a script in the page. */
export interface ViewerPanel {
  protocol: string;
  /** The panel's data for one stored trial (undefined: the viewer shows the record as JSON). */
  record?(transcript: StoredTranscript, ctx: { where: string; item: unknown }): Promise<unknown> | unknown;
  /**
   * A browser module whose default export draws the panel: `(element, data) => void`; one
   * self-contained file (a static export imports its code as is), given as an absolute path or a
   * file URL (`new URL('./panel.js', import.meta.url)`). The built-in studies' panels are compiled
   * into the viewer instead (view/panels.tsx in their folder).
   */
  script?: string | URL;
}

/** HTML reports a study writes beside a store (e.g. audit reports), listed by the viewer from each run. */
export interface ViewerReports {
  /** Where the viewer serves them (files/KIND/NAME) and copies them in a static export. */
  kind: string;
  /** The heading they are listed under. */
  title: string;
  /** The file names that are such reports (in the store's folder). */
  match: RegExp;
  /** What to tell a user when there are none: how to write one. */
  hint?: string;
}

/**
 * The light part of a plugin: what the command line, the report and the viewer need before (or
 * without) loading its protocols and suites. Every loader in it is lazy.
 */
export interface PluginManifest {
  /** Shown in errors about the plugin. */
  name: string;
  commands?: readonly CommandDefinition[];
  reportSections?: readonly ReportSection[];
  viewerPanels?: readonly ViewerPanel[];
  viewerReports?: readonly ViewerReports[];
  /** The protocol of each suite the plugin adds, so a report knows its sections without loading the suites. */
  suiteProtocols?: Readonly<Record<string, string>>;
  /**
   * What `mindscope suites` lists of each suite the plugin adds (beside its protocol), so the
   * list is printed without loading the suites; a suite of the plugin takes them from here.
   */
  suiteSummaries?: Readonly<Record<string, SuiteSummary>>;
  /** Prompt templates by name (`run --template NAME`): name -> file. */
  templates?: Readonly<Record<string, string>>;
  /** Judge rubrics by name (`score --rubric NAME`): name -> file. */
  rubrics?: Readonly<Record<string, string>>;
}

/** What a suite listing shows of a suite besides its id and protocol. */
export interface SuiteSummary {
  describe: string;
  needsData: boolean;
}

/** A plugin: its manifest, and the protocols, suites, providers and scorers a run can name. */
export interface Plugin extends PluginManifest {
  protocols?: ProtocolModule[];
  suites?: Suite[];
  providers?: ProviderDefinition[];
  scorers?: ScorerDefinition[];
}

/** Declare a plugin: the module's default export (or its export named `plugin`). */
export function definePlugin(plugin: Plugin): Plugin {
  if (!plugin.name) throw new Error('a plugin needs a name');
  for (const s of plugin.suites ?? []) {
    const declared = plugin.suiteProtocols?.[s.id];
    if (declared !== undefined && declared !== s.protocol)
      throw new Error(`plugin ${plugin.name}: suiteProtocols says ${s.id} runs on "${declared}", the suite says "${s.protocol}"`);
    const summary = plugin.suiteSummaries?.[s.id];
    if (summary !== undefined && (summary.describe !== s.describe || summary.needsData !== s.needsData))
      throw new Error(`plugin ${plugin.name}: suiteSummaries says of ${s.id} what the suite does not (describe, needsData)`);
  }
  return plugin;
}

let defaults: readonly Plugin[] = [];

/**
 * Set the plugins every registry starts with: the `mindscope` entry point sets the built-in
 * studies when it is imported. Library code that builds on the layer entry points alone starts
 * from the kernel (the MCQ protocol and its generic suites).
 */
export function setDefaultPlugins(plugins: readonly Plugin[]): void {
  for (const p of plugins) registerPluginFiles(p);
  defaults = plugins;
}

/** Register a plugin's named templates and rubrics (see core/named-files.ts). */
export function registerPluginFiles(plugin: PluginManifest): void {
  registerNamedFiles('template', plugin.templates ?? {}, plugin.name);
  registerNamedFiles('rubric', plugin.rubrics ?? {}, plugin.name);
}

/** The plugins every registry starts with (see setDefaultPlugins). */
export function defaultPlugins(): readonly Plugin[] {
  return defaults;
}
