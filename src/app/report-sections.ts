// Which of the plugins' report sections a run's report shows: a section of some protocols when
// the run has a suite on one of them, a section behind a flag when the flag is given
// (`report --audit`). The sections render only when shown.

import type { PluginManifest, ReportContext, ReportSection } from './plugin.js';

/** Every flag the manifests' report sections declare, once each (the first declaration's help), in order. */
export function reportFlags(manifests: readonly PluginManifest[]): Array<{ name: string; help: string }> {
  const out = new Map<string, { name: string; help: string }>();
  for (const m of manifests) for (const s of m.reportSections ?? []) if (s.flag && !out.has(s.flag.name)) out.set(s.flag.name, s.flag);
  return [...out.values()];
}

/** The sections a run's report shows, in the manifests' order: its protocols' (or every run's) whose flag, if any, is set. */
export function shownSections(
  manifests: readonly PluginManifest[],
  protocols: ReadonlySet<string>,
  flags: Readonly<Record<string, boolean>>,
): ReportSection[] {
  return manifests.flatMap((m) =>
    (m.reportSections ?? []).filter(
      (s) => (!s.protocols || s.protocols.some((p) => protocols.has(p))) && (!s.flag || flags[s.flag.name] === true),
    ),
  );
}

/** The shown sections rendered one after the other (each reads the store); those with nothing to say are left out. */
export async function renderSections(
  sections: readonly ReportSection[],
  ctx: ReportContext,
): Promise<Array<{ title: string; html: string }>> {
  const out: Array<{ title: string; html: string }> = [];
  for (const s of sections) {
    const html = await s.render(ctx);
    if (html !== undefined) out.push({ title: s.title, html });
  }
  return out;
}
