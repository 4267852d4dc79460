// The protocol of each of a run's suites, read from the plugins' manifests, so the report knows
// which sections a run needs without loading every suite, protocol and provider (the registry).
// Kept equal to the registry's by tests/suite-protocols.test.ts.

import type { Plugin, PluginManifest } from './plugin.js';

/** The kernel's suites and their protocol. */
const KERNEL_SUITE_PROTOCOLS: Readonly<Record<string, string>> = { mcq: 'mcq', 'generated-tom': 'mcq' };

/** Every suite → protocol pair the manifests declare (the kernel's first). */
export function declaredSuiteProtocols(manifests: readonly PluginManifest[]): Map<string, string> {
  const out = new Map(Object.entries(KERNEL_SUITE_PROTOCOLS));
  for (const m of manifests) for (const [suite, protocol] of Object.entries(m.suiteProtocols ?? {})) out.set(suite, protocol);
  for (const m of manifests) for (const s of (m as Plugin).suites ?? []) out.set(s.id, s.protocol); // a loaded plugin's own suites
  return out;
}

/**
 * The protocols of a run's suites; a suite no manifest declares counts as every protocol the
 * manifests know, so no report section is left out for it.
 */
export function suiteProtocols(suites: readonly string[], manifests: readonly PluginManifest[]): Set<string> {
  const declared = declaredSuiteProtocols(manifests);
  const out = new Set<string>();
  for (const id of new Set(suites)) {
    const protocol = declared.get(id);
    if (protocol === undefined) return new Set(declared.values());
    out.add(protocol);
  }
  return out;
}
