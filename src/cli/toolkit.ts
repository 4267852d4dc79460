// What a command file needs besides the library, for plugins' commands as for the built-in
// ones (`mindscope/cli`): the option parsers and the default store of every command, the --json
// convention, and opening the store a command reads or writes. Light on purpose: loading it
// loads no layer (a command that audits matrix files loads the statistics alone); the store
// helpers load theirs when called.

import type { Store } from '../store/index.js';

export type { CommandContext, CommandDefinition, CommandTerm } from '../app/index.js';
export { DEFAULT_DB } from './default-db.js';
export { choiceOption, intOption, numberOption, runIdOption } from './number-options.js';
export { printResult } from './output.js';

/**
 * Open an existing store (a SQLite file that is not there is refused, naming the path), resolve
 * the run (`runId`, default the newest), run `fn`, close the store: for commands that read results.
 */
export async function withExistingRun<T>(
  location: string,
  runId: string | undefined,
  fn: (store: Store, runId: string) => Promise<T>,
): Promise<T> {
  return (await import('./existing-store.js')).withExistingRun(location, runId, fn);
}

/**
 * Open the store at `location` for `fn`, and close it; a SQLite file this call created is removed
 * again when `fn` fails having stored nothing: for commands that write results.
 */
export async function withStore<T>(location: string, fn: (store: Store) => Promise<T>): Promise<T> {
  return (await import('./fresh-store.js')).withStore(location, fn);
}
