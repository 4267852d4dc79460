// The viewer panels of the plugins in play (the built-in studies' and a config's): a trial's
// protocol finds its panel, whose `record` hook builds the trial's view on the server; a panel's
// script (a user plugin's browser module) is served beside the page as plugin-panels/N.js.

import { resolve } from 'node:path';
import type { PluginManifest, ViewerPanel } from '../app/index.js';

/** The panels the viewer serves. */
export interface ServedPanels {
  /** A protocol's panel (the first plugin's to declare one) and the URL of its script, relative to the page. */
  of(protocol: string): { panel: ViewerPanel; script?: string } | undefined;
  /** Each script's URL, relative to the page, and its file. */
  scripts: ReadonlyMap<string, string>;
}

/** The panels of `manifests`, each script numbered in order. */
export function servedPanels(manifests: readonly PluginManifest[]): ServedPanels {
  const byProtocol = new Map<string, { panel: ViewerPanel; script?: string }>();
  const scripts = new Map<string, string>();
  for (const m of manifests)
    for (const panel of m.viewerPanels ?? []) {
      if (byProtocol.has(panel.protocol)) continue;
      let script: string | undefined;
      if (panel.script) {
        script = `plugin-panels/${scripts.size}.js`;
        scripts.set(script, resolve(panel.script));
      }
      byProtocol.set(panel.protocol, { panel, script });
    }
  return { of: (protocol) => byProtocol.get(protocol), scripts };
}
