// Files known by name: the published prompt templates (`--template tombench`) and judge rubrics
// (`--rubric castelli-triangles`) that plugins bring. The kernel names none: each study declares
// its own (Plugin.templates, Plugin.rubrics) and registering the plugin registers them here,
// where every reader of a template or rubric argument looks names up.

import { ConfigError } from './errors.js';

/** The kinds of named files. */
export type NamedFileKind = 'template' | 'rubric';

const named: Record<NamedFileKind, Map<string, string>> = { template: new Map(), rubric: new Map() };

/** Register files by name; a name taken by another file is an error naming the plugin. */
export function registerNamedFiles(kind: NamedFileKind, files: Readonly<Record<string, string>>, plugin: string): void {
  for (const [name, file] of Object.entries(files)) {
    const before = named[kind].get(name);
    if (before !== undefined && before !== file)
      throw new ConfigError(`plugin ${plugin}: a ${kind} named "${name}" exists already (${before})`);
    named[kind].set(name, file);
  }
}

/** The file registered under a name, if any. */
export function namedFile(kind: NamedFileKind, name: string): string | undefined {
  return named[kind].get(name);
}

/** Every registered name of a kind, in registration order. */
export function namedFiles(kind: NamedFileKind): string[] {
  return [...named[kind].keys()];
}
