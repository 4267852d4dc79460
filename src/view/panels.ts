// The viewer panels of the plugins in play (the built-in studies' and a config's): a trial's
// protocol finds its panel, whose `record` hook builds the trial's view on the server; a panel's
// script (a user plugin's browser module) is served beside the page as plugin-panels/N.js.

import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PluginManifest, ViewerPanel } from '../app/index.js';
import { ConfigError } from '../core/index.js';

/** The panels the viewer serves. */
export interface ServedPanels {
  /** A protocol's panel (the first plugin's to declare one) and the URL of its script, relative to the page. */
  of(protocol: string): { panel: ViewerPanel; script?: string } | undefined;
  /** Every protocol's panel, in the manifests' order. */
  all(): Array<{ panel: ViewerPanel; script?: string }>;
  /** Each script's URL, relative to the page, and its file. */
  scripts: ReadonlyMap<string, string>;
}

/** A panel script's file: a file URL's path, or the path (relative to the working folder). */
function scriptFile(script: string | URL): string {
  return script instanceof URL || script.startsWith('file:') ? fileURLToPath(script) : resolve(script);
}

/** The panels of `manifests`, each script numbered in order; a script that is not there is an error naming the plugin. */
export function servedPanels(manifests: readonly PluginManifest[]): ServedPanels {
  const byProtocol = new Map<string, { panel: ViewerPanel; script?: string }>();
  const scripts = new Map<string, string>();
  for (const m of manifests)
    for (const panel of m.viewerPanels ?? []) {
      if (byProtocol.has(panel.protocol)) continue;
      let script: string | undefined;
      if (panel.script) {
        const file = scriptFile(panel.script);
        if (!existsSync(file))
          throw new ConfigError(`plugin ${m.name}: the viewer panel script of "${panel.protocol}", ${file}, does not exist`);
        script = `plugin-panels/${scripts.size}.js`;
        scripts.set(script, file);
      }
      byProtocol.set(panel.protocol, { panel, script });
    }
  return { of: (protocol) => byProtocol.get(protocol), all: () => [...byProtocol.values()], scripts };
}
