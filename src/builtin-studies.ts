// The seed studies mindscope ships, as plugins: one list. Each entry is the study's light
// manifest (commands, report sections, viewer panels, its suites' protocols) and how to load the
// whole plugin. The command line reads the manifests; the `mindscope` entry point loads them all
// and makes them the default plugins of every registry.

import type { Plugin, PluginManifest } from './app/index.js';
import { manifest as audit } from './studies/audit/manifest.js';
import { manifest as dialtom } from './studies/dialtom/manifest.js';
import { manifest as enacttom } from './studies/enacttom/manifest.js';
import { manifest as literal } from './studies/literal/manifest.js';
import { manifest as probes } from './studies/probes/manifest.js';
import { manifest as storyturn } from './studies/storyturn/manifest.js';
import { manifest as vision } from './studies/vision/manifest.js';
import { KERNEL_SUITE_SUMMARIES } from './suites/kernel-summaries.js';

/** A built-in study: its manifest, and its plugin loaded on demand. */
export interface BuiltinStudy {
  manifest: PluginManifest;
  load(): Promise<Plugin>;
}

/** The built-in studies, in the order their suites and commands are listed. */
export const BUILTIN_STUDIES: readonly BuiltinStudy[] = [
  { manifest: literal, load: async () => (await import('./studies/literal/index.js')).default },
  { manifest: dialtom, load: async () => (await import('./studies/dialtom/index.js')).default },
  { manifest: enacttom, load: async () => (await import('./studies/enacttom/index.js')).default },
  { manifest: storyturn, load: async () => (await import('./studies/storyturn/index.js')).default },
  { manifest: vision, load: async () => (await import('./studies/vision/index.js')).default },
  { manifest: audit, load: async () => (await import('./studies/audit/index.js')).default },
  { manifest: probes, load: async () => (await import('./studies/probes/index.js')).default },
];

/** The built-in studies' manifests, then `plugins`: every plugin a report or the viewer draws on, none of them loaded. */
export function pluginManifests(plugins: readonly PluginManifest[] = []): PluginManifest[] {
  return [...BUILTIN_STUDIES.map((s) => s.manifest), ...plugins];
}

/** Every built-in study's plugin, loaded. */
export async function loadBuiltinPlugins(): Promise<Plugin[]> {
  return Promise.all(BUILTIN_STUDIES.map((s) => s.load()));
}

/** A suite as `mindscope suites` lists it. */
export interface SuiteListing {
  id: string;
  protocol: string;
  describe: string;
  needsData: boolean;
}

/**
 * The suites mindscope ships as `mindscope suites` lists them (the studies', then the kernel's),
 * read from the manifests without loading a suite: what a registry of the built-in plugins lists.
 */
export function builtinSuiteListing(): SuiteListing[] {
  const studies = BUILTIN_STUDIES.flatMap(({ manifest }) =>
    Object.entries(manifest.suiteProtocols ?? {}).map(([id, protocol]) => {
      const summary = manifest.suiteSummaries?.[id];
      if (!summary) throw new Error(`plugin ${manifest.name}: no suiteSummaries entry for its suite ${id}`);
      return { id, protocol, describe: summary.describe, needsData: summary.needsData };
    }),
  );
  const kernel = Object.entries(KERNEL_SUITE_SUMMARIES).map(([id, s]) => ({ id, ...s }));
  return [...studies, ...kernel];
}
